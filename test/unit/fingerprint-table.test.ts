// The table behind the repeat-click and velocity windows: bounded in entries and in bytes from the
// start, forgets the least recently used records first, and keeps each key's record apart.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FingerprintTable } from '../../src/lib/fingerprint-table.js';

describe('FingerprintTable', () => {
  test('never holds more than its bound, and its bytes never change, however many keys pass through', () => {
    const table = new FingerprintTable(100, 2);
    const bytes = table.bytes;
    for (let i = 0; i < 10_000; i++) {
      table.set(`link-${i}:visitor`, [i, i * 2]);
      assert.ok(table.size <= 100, `size ${table.size} after ${i + 1} keys`);
    }
    assert.equal(table.bytes, bytes);
    assert.deepEqual(table.get('link-9999:visitor'), [9_999, 19_998], 'the newest key is kept with its values');
    assert.equal(table.get('link-0:visitor'), undefined, 'the oldest key is forgotten');
  });

  test('a key that keeps being read survives any number of newer keys', () => {
    const table = new FingerprintTable(10);
    table.set('hot', [42]);
    for (let i = 0; i < 1_000; i++) {
      table.set(`cold-${i}`, [1]);
      assert.deepEqual(table.get('hot'), [42], `lost after ${i + 1} newer keys`);
    }
  });

  test('each of many similar keys keeps its own record; setting again replaces it', () => {
    const table = new FingerprintTable(200_000);
    for (let i = 0; i < 100_000; i++) table.set(`${i}:0123456789abcdef0123456789abcdef`, [i]);
    for (let i = 0; i < 100_000; i++) assert.equal(table.get(`${i}:0123456789abcdef0123456789abcdef`)?.[0], i);
    table.set('7:0123456789abcdef0123456789abcdef', [-1]);
    assert.deepEqual(table.get('7:0123456789abcdef0123456789abcdef'), [-1]);
    assert.equal(table.size, 100_000, 'setting a known key adds no entry');
    assert.equal(table.get('100000:0123456789abcdef0123456789abcdef'), undefined);
  });

  test('its arrays are sized from the bound: 16 bytes a slot for one value, at most 60 % full', () => {
    // 200,000 entries: two generations of 166,667 slots (100,000 / 0.6, not rounded to a power of two).
    assert.equal(new FingerprintTable(200_000, 1).bytes, 2 * 166_667 * 16);
    assert.equal(new FingerprintTable(200_000, 2).bytes, 2 * 166_667 * 24);
  });
});
