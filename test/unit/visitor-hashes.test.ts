// The salted hashes a click is stored and judged by: repeat and velocity windows, in memory and in
// Redis, compare them with hashes taken before a restart or by another instance, so the values
// must never change with how they are computed. The expected values were computed elsewhere
// (Python's hashlib): SHA-256 of the joined text, first 32 hex characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressHash, visitorHash } from '../../src/domain/links/click-filter.js';

test('a visitor hash is the salted SHA-256 of address and agent, truncated to 128 bits', () => {
  assert.equal(visitorHash('operator-salt', '203.0.113.7', 'Mozilla/5.0 (X11; Linux x86_64)'), '571bc9465f2eef380917c2d0bea4ba05');
  assert.equal(visitorHash('operator-salt', '2001:db8::1', 'Mozilla/5.0 (iPhone) Ünïcode'), '40a91205e0971c13b163e86eb2cca3cb', 'text hashed as UTF-8');
});

test('an address hash is the salted SHA-256 of the address alone, never a visitor hash of it', () => {
  assert.equal(addressHash('operator-salt', '203.0.113.7'), '28c8c2a70bb01c145ca696a5e221a4da');
  assert.notEqual(addressHash('operator-salt', '203.0.113.7'), visitorHash('operator-salt', '203.0.113.7', ''));
});
