// Which network addresses a request to a URL given by a member must never reach: the service's
// own machine and network, cloud metadata endpoints, and every range of the IANA IPv4 and IPv6
// Special-Purpose Address Registries (with multicast and the deprecated IPv6 forms that embed or
// route to IPv4 addresses), whether or not the registry calls it globally reachable: none is a
// member's web server. Webhook destinations are checked against this when they are saved (a
// literal address), and every outbound request when it resolves its host.
import { BlockList, isIP } from 'node:net';

/** One reserved range: its network, prefix length, and what the log calls it. */
export type Range = readonly [network: string, prefix: number, name: string];

/** The IPv4 ranges, a range inside a wider one first (its name is the one given). */
export const IPV4: readonly Range[] = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // cloud metadata (169.254.169.254) among them
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112 direct delegation'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'limited broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** The IPv6 ranges. ::ffff:0:0/96 (IPv4-mapped) is not here: such an address is judged as the IPv4 address it carries. */
export const IPV6: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible'],
  ['64:ff9b::', 96, 'IPv4/IPv6 translation (NAT64)'],
  ['64:ff9b:1::', 48, 'local IPv4/IPv6 translation'],
  ['100::', 64, 'discard-only'],
  ['100:0:0:1::', 64, 'dummy prefix'],
  ['2001::', 23, 'IETF protocol assignment'], // Teredo (2001::/32), benchmarking, ORCHID, AMT, AS112 among them
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['2620:4f:8000::', 48, 'AS112 direct delegation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing'],
  ['fc00::', 7, 'unique local'], // cloud metadata (fd00:ec2::254) among them
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

/** Each range with a block list of its own, to name the range an address is in; the first match names it. */
const RANGES = [
  ...IPV4.map(([network, prefix, name]) => ({ name, family: 'ipv4' as const, list: blockListOf(network, prefix, 'ipv4') })),
  ...IPV6.map(([network, prefix, name]) => ({ name, family: 'ipv6' as const, list: blockListOf(network, prefix, 'ipv6') })),
];

function blockListOf(network: string, prefix: number, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d, ::ffff:xxxx:xxxx) carries, if it is one. */
function mappedIPv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (groups.length !== 8 || groups.slice(0, 5).some((group) => group !== 0) || groups[5] !== 0xffff) return undefined;
  const [high, low] = [groups[6]!, groups[7]!];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * Why an address must not be reached from the network's side (the name of its range: 'loopback',
 * 'private', '6to4' …, or 'not an IP address'), or undefined for a public address. For the log and
 * for a member's own literal address: a member reaching for a name is told only that its address is
 * not public.
 */
export function reservedAddress(address: string): string | undefined {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  const mapped = version === 6 ? mappedIPv4(address) : undefined;
  if (mapped) return reservedAddress(mapped);
  const family = version === 4 ? 'ipv4' : 'ipv6';
  return RANGES.find((range) => range.family === family && range.list.check(address, family))?.name;
}
