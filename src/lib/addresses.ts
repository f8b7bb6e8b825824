// Which network addresses a request to a URL given by a customer must never reach: the service's
// own machine and network, and cloud metadata endpoints. Webhook destinations are checked against
// this when they are saved (a literal address) and again when each delivery resolves its host.
import { BlockList, isIP } from 'node:net';

const RESERVED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  RESERVED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // IPv4/IPv6 translation
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (cloud metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  RESERVED.addSubnet(network, prefix, 'ipv6');
}

/**
 * Why an address must not be reached from the network's side ('loopback', 'private' …), or
 * undefined for a public address. IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged as
 * the IPv4 address they carry.
 */
export function reservedAddress(address: string): string | undefined {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  const mapped = version === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  if (mapped) return reservedAddress(mapped);
  if (!RESERVED.check(address, version === 4 ? 'ipv4' : 'ipv6')) return undefined;
  if (address === '::1' || address.startsWith('127.')) return 'loopback';
  if (address.startsWith('169.254.') || /^fe[89ab]/i.test(address)) return 'link-local';
  return 'private or reserved';
}
