// Country lookups against the IP database that ships with the service. Decoded records are kept
// by their place in the file, so what one address answered must never leak into another's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Reader, type Response } from 'mmdb-lib';
import { bundledIpDatabasePath, openCountryLookup } from '../../src/lib/ip-country.js';

test('addresses interleaved across countries each answer their own country, every time', () => {
  const countries = openCountryLookup(bundledIpDatabasePath());
  const known = { '8.8.8.8': 'US', '1.1.1.1': 'AU', '81.2.69.160': 'GB', '::ffff:81.2.69.160': 'GB' };
  for (let round = 0; round < 3; round++) {
    for (const [address, country] of Object.entries(known)) assert.equal(countries.countryOf(address), country, `${address}, round ${round + 1}`);
  }
  assert.equal(countries.countryOf('10.0.0.1'), 'ZZ', 'a private address is in no country');
  assert.equal(countries.countryOf('not an address'), 'ZZ');
});

test('thousands of random addresses answer what the database says when read without kept records', () => {
  const kept = openCountryLookup(bundledIpDatabasePath());
  const uncached = new Reader<Response>(readFileSync(bundledIpDatabasePath()));
  const seen = new Set<string>();
  let x = 12345;
  for (let i = 0; i < 5_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const address = `${((x >>> 24) % 223) + 1}.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`;
    const expected = (uncached.get(address) as { country_code?: string } | null)?.country_code ?? 'ZZ';
    assert.equal(kept.countryOf(address), expected, address);
    seen.add(expected);
  }
  assert.ok(seen.size > 50, `addresses from many countries (${seen.size})`);
});
