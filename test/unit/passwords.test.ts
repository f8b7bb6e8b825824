// Stored passwords: scrypt at the network's cost, the cost kept in the stored form, so a password set
// at one cost is still checked right after the cost changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PASSWORD_HASH_COST, hashPassword, unmatchableHash, verifyPassword } from '../../src/lib/passwords.js';

test('a password is stored with its cost and salt, and only it matches', async () => {
  const stored = await hashPassword('correct horse battery', 10);
  assert.match(stored, /^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
  assert.equal(await verifyPassword('correct horse battery', stored), true);
  assert.equal(await verifyPassword('correct horse batterY', stored), false);
  assert.notEqual(await hashPassword('correct horse battery', 10), stored, 'each hash has a salt of its own');
});

test('a password set at one cost still matches at another, and the default cost is 2^15', async () => {
  const older = await hashPassword('correct horse battery', 11);
  assert.match(older, /^scrypt\$2048\$/);
  assert.equal(await verifyPassword('correct horse battery', older), true);
  assert.equal(DEFAULT_PASSWORD_HASH_COST, 15);
  assert.match(unmatchableHash(), /^scrypt\$32768\$8\$1\$/);
});

test('the hash checked for an unknown e-mail has the cost asked for, and no password matches it', async () => {
  assert.match(unmatchableHash(10), /^scrypt\$1024\$8\$1\$/);
  for (const password of ['', 'correct horse battery', '\u0000']) assert.equal(await verifyPassword(password, unmatchableHash(10)), false);
});
