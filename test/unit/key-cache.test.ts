// The key cache keeps working keys apart from unknown ones: a client spraying made-up keys
// cannot push a working key out and make every request with it query the database again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyResolver } from '../../src/domain/access/key-cache.js';
import type { Principal } from '../../src/domain/access/principal.js';

test('ten thousand unknown keys do not evict a working one', async () => {
  const principal = { keyId: 'key_1' } as Principal;
  const lookups = new Map<string, number>();
  const findKey = async (key: string) => {
    lookups.set(key, (lookups.get(key) ?? 0) + 1);
    return key === 'working' ? principal : undefined;
  };
  const resolver = new KeyResolver(findKey, async () => undefined, 60_000, 1_000);
  assert.equal(await resolver.resolve('working'), principal);
  for (let i = 0; i < 10_000; i++) assert.equal(await resolver.resolve(`made-up-${i}`), undefined);
  assert.equal(await resolver.resolve('working'), principal);
  assert.equal(lookups.get('working'), 1, 'the working key was looked up again: it had been evicted');
  // Unknown keys are cached too (within their own bound), so repeating one does not query again.
  assert.equal(await resolver.resolve('made-up-9999'), undefined);
  assert.equal(lookups.get('made-up-9999'), 1);
});
