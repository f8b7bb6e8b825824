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
});
