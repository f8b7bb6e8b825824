// The cache of short-link codes holds what its byte budget allows, whatever the codes followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RedirectCache } from '../../src/domain/links/redirect-cache.js';
import type { RedirectTarget } from '../../src/storage/repositories/links.js';

const links = {
  findRedirectTarget: async (code: string): Promise<RedirectTarget> => ({
    linkId: `link-${code}`,
    destination: `https://shop.example/products/${code}?mdasc=campaign-${code}#reviews`,
    active: true,
    affiliateId: 'aff-1',
    channelId: 'ch-1',
    brandId: 'brand-1',
    mdasc: `campaign-${code}`,
    clickIdParam: 'clickId',
  }),
  changesSince: async () => [] as string[],
};
const clock = { now: () => Date.now(), iso: () => new Date().toISOString() };

test('the cache keeps within its budget in bytes, and still answers every code', async () => {
  const cache = new RedirectCache(links, clock, { maxMb: 1 });
  for (let i = 0; i < 20_000; i++) {
    const code = `code${String(i).padStart(6, '0')}`;
    const target = await cache.resolve(code);
    assert.equal(target?.locationBefore, `https://shop.example/products/${code}?mdasc=campaign-${code}&clickId=`);
  }
  const { entries, bytes } = cache.held;
  assert.ok(bytes <= 1024 * 1024 + 2_000, `holds ${bytes} bytes`);
  assert.ok(entries > 1_000 && entries < 20_000, `holds ${entries} codes`);
  assert.equal((await cache.resolve('code000000'))?.locationAfter, '#reviews', 'a forgotten code is looked up again');
});
