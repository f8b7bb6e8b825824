// The addresses an outbound request must never reach: every range of the IANA special-purpose
// registries (and multicast, and the deprecated IPv6 forms that embed IPv4), each checked at its
// edge: an address inside is refused, the nearest one outside passes (where the nearest one is not
// itself reserved). IPv4-mapped IPv6 addresses, written either way, are judged as their IPv4 address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IPV4, IPV6, reservedAddress } from '../../src/lib/addresses.js';

/** Each range, an address inside it (its last, or a telling one), and the nearest public address outside it. */
const CASES: ReadonlyArray<readonly [range: string, inside: readonly string[], outside: readonly string[]]> = [
  ['0.0.0.0/8', ['0.0.0.0', '0.255.255.255'], ['1.0.0.0']],
  ['10.0.0.0/8', ['10.0.0.5', '10.255.255.255'], ['9.255.255.255', '11.0.0.0']],
  ['100.64.0.0/10', ['100.64.0.0', '100.127.255.255'], ['100.63.255.255', '100.128.0.0']],
  ['127.0.0.0/8', ['127.0.0.1', '127.255.255.255'], ['126.255.255.255', '128.0.0.0']],
  ['169.254.0.0/16', ['169.254.169.254'], ['169.253.255.255', '169.255.0.0']],
  ['172.16.0.0/12', ['172.16.0.0', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
  ['192.0.0.0/24', ['192.0.0.8', '192.0.0.255'], ['191.255.255.255', '192.0.1.0']],
  ['192.0.2.0/24', ['192.0.2.255'], ['192.0.1.255', '192.0.3.0']],
  ['192.31.196.0/24', ['192.31.196.1'], ['192.31.195.255', '192.31.197.0']],
  ['192.52.193.0/24', ['192.52.193.1'], ['192.52.192.255', '192.52.194.0']],
  ['192.88.99.0/24', ['192.88.99.1'], ['192.88.98.255', '192.88.100.0']],
  ['192.168.0.0/16', ['192.168.1.1'], ['192.167.255.255', '192.169.0.0']],
  ['192.175.48.0/24', ['192.175.48.1'], ['192.175.47.255', '192.175.49.0']],
  ['198.18.0.0/15', ['198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
  ['198.51.100.0/24', ['198.51.100.255'], ['198.51.99.255', '198.51.101.0']],
  ['203.0.113.0/24', ['203.0.113.255'], ['203.0.112.255', '203.0.114.0']],
  ['224.0.0.0/4', ['224.0.0.1', '239.255.255.255'], ['223.255.255.255']],
  // Reserved up to the top of the space: no public address above it.
  ['240.0.0.0/4', ['240.0.0.0', '255.255.255.254'], []],
  ['255.255.255.255/32', ['255.255.255.255'], []],

  // The unspecified and loopback addresses lie in ::/96, which has no public neighbour below it.
  ['::/128', ['::'], []],
  ['::1/128', ['::1'], []],
  ['::/96', ['::7f00:1', '::127.0.0.1', '::ffff:ffff'], ['::1:0:0']],
  ['64:ff9b::/96', ['64:ff9b::a00:5', '64:ff9b::ffff:ffff'], ['64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', '64:ff9b::1:0:0']],
  ['64:ff9b:1::/48', ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff'], ['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', '64:ff9b:2::']],
  ['100::/64', ['100::1', '100::ffff:ffff:ffff:ffff'], ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['100:0:0:1::/64', ['100:0:0:1:ffff:ffff:ffff:ffff'], ['100:0:0:2::']],
  ['2001::/23', ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'], ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::']],
  ['2001:db8::/32', ['2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::']],
  ['2002::/16', ['2002:a00:5::1', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::']],
  ['2620:4f:8000::/48', ['2620:4f:8000::1'], ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', '2620:4f:8001::']],
  ['3fff::/20', ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'], ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::']],
  ['5f00::/16', ['5f00::1'], ['5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5f01::']],
  ['fc00::/7', ['fc00::', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe00::']],
  ['fe80::/10', ['fe80::1', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  // Site-local reaches up to multicast: no public neighbour above it.
  ['fec0::/10', ['fec0::1', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], []],
  ['ff00::/8', ['ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], []],
];

test('every reserved range is checked here', () => {
  const listed = [...IPV4, ...IPV6].map(([network, prefix]) => `${network}/${prefix}`);
  assert.deepEqual(new Set(CASES.map(([range]) => range)), new Set(listed));
});

for (const [range, inside, outside] of CASES) {
  test(`${range}: inside refused, outside passes`, () => {
    for (const address of inside) assert.ok(reservedAddress(address), `${address} is in ${range}`);
    for (const address of outside) assert.equal(reservedAddress(address), undefined, `${address} is outside ${range}, and public`);
  });
}

test('an IPv4-mapped IPv6 address (::ffff:0:0/96), written either way, is judged as the IPv4 address it carries', () => {
  for (const [mapped, named] of [
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:A00:5', 'private'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:198.51.100.7', 'documentation'],
  ] as const) {
    assert.equal(reservedAddress(mapped), named, mapped);
  }
  for (const address of ['::ffff:8.8.8.8', '::ffff:808:808', '::ffff:93.184.216.34']) assert.equal(reservedAddress(address), undefined, address);
});

test('the range is named for the log; public addresses and text are told apart', () => {
  assert.equal(reservedAddress('10.0.0.5'), 'private');
  assert.equal(reservedAddress('2002:a00:5::1'), '6to4');
  assert.equal(reservedAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2'), 'IETF protocol assignment', 'Teredo');
  assert.equal(reservedAddress('255.255.255.255'), 'limited broadcast');
  assert.equal(reservedAddress('vm'), 'not an IP address');
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e']) assert.equal(reservedAddress(address), undefined, address);
});
