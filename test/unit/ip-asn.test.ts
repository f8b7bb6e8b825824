// The network of a client address, from an ASN database in MMDB format (one the test writes), and
// the list of data-centre networks the operator gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAsnLookup, parseAsnList } from '../../src/lib/ip-asn.js';
import { writeAsnDatabase } from '../helpers/mmdb.js';

test('an address is answered with its autonomous system, IPv4-mapped ones too; others with none', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'affnet-asn-')), 'asn.mmdb');
  writeAsnDatabase(path, [
    ['203.0.113.0/24', 64500, 'Cloudy Hosting'],
    ['192.0.2.128/25', 64501, 'Home Broadband'],
    ['100.64.0.0/10', 4_200_000_000, 'Big Carrier'],
  ]);
  const lookup = openAsnLookup(path);
  assert.equal(lookup.asnOf('203.0.113.7'), 64500);
  assert.equal(lookup.nameOf('203.0.113.7'), 'Cloudy Hosting');
  assert.equal(lookup.asnOf('::ffff:203.0.113.200'), 64500);
  assert.equal(lookup.asnOf('192.0.2.200'), 64501);
  assert.equal(lookup.asnOf('192.0.2.1'), null, 'outside the /25');
  assert.equal(lookup.asnOf('100.127.255.255'), 4_200_000_000);
  assert.equal(lookup.asnOf('198.51.100.1'), null);
  assert.equal(lookup.asnOf('not an address'), null);
});

test('the data-centre list: one ASN a line, AS prefix and comments allowed, anything else named by its line', () => {
  assert.deepEqual([...parseAsnList('# clouds\n16509\nAS15169  # google\n\nas8075\r\n', 'dc.txt')], [16509, 15169, 8075]);
  assert.throws(() => parseAsnList('16509\nAmazon\n', 'dc.txt'), /dc\.txt line 2: "Amazon" is not an autonomous system number/);
  assert.throws(() => parseAsnList('0\n', 'dc.txt'), /line 1/);
  assert.throws(() => parseAsnList('4294967296\n', 'dc.txt'), /line 1/);
});
