// The bounded map behind the redirect cache and the repeat-visitor window: bounded, forgets the
// least recently used entries first, and never loses an entry that is still being used.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentMap } from '../../src/lib/recent-map.js';

describe('RecentMap', () => {
  test('never holds more than its bound, however many keys pass through', () => {
    const map = new RecentMap<number, number>(100);
    for (let i = 0; i < 10_000; i++) {
      map.set(i, i);
      assert.ok(map.size <= 100, `size ${map.size} after ${i + 1} keys`);
    }
    assert.equal(map.get(9_999), 9_999, 'the newest key is kept');
    assert.equal(map.get(0), undefined, 'the oldest key is forgotten');
  });

  test('a key that keeps being read survives any number of newer keys', () => {
    const map = new RecentMap<string, string>(10);
    map.set('hot', 'kept');
    for (let i = 0; i < 1_000; i++) {
      map.set(`cold-${i}`, 'x');
      assert.equal(map.get('hot'), 'kept', `lost after ${i + 1} newer keys`);
    }
  });

  test('delete removes a key from either generation; clear removes everything', () => {
    const map = new RecentMap<string, number | null>(4);
    map.set('a', 1);
    map.set('b', null);
    map.set('c', 3); // 'a' and 'b' are now the previous generation
    assert.equal(map.get('b'), null, 'null is a value, not an absence');
    map.delete('a');
    map.delete('c');
    assert.equal(map.get('a'), undefined);
    assert.equal(map.get('c'), undefined);
    map.clear();
    assert.equal(map.size, 0);
    assert.equal(map.get('b'), undefined);
  });

  test('given a weight, holds entries weighing at most its capacity in all, however they are replaced or deleted', () => {
    const map = new RecentMap<string, string>(1_000, (key, value) => key.length + value.length);
    for (let i = 0; i < 5_000; i++) {
      map.set(`k${i % 700}`, 'x'.repeat(i % 50));
      if (i % 7 === 0) map.delete(`k${(i * 3) % 700}`);
      // Each generation may pass its half by one entry (at most 4 + 49).
      assert.ok(map.weight <= 1_000 + 2 * 53, `weight ${map.weight} after ${i + 1} writes`);
    }
    let counted = 0;
    for (let i = 0; i < 700; i++) {
      const value = map.get(`k${i}`);
      if (value !== undefined) counted += `k${i}`.length + value.length;
    }
    assert.equal(map.weight, counted, 'the weight is the sum of the entries held');
  });
});
