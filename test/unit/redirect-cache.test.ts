// The cache of short-link codes holds what its byte budget allows, whatever the codes followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RedirectCache } from '../../src/domain/links/redirect-cache.js';
import { childScriptOutput } from '../helpers/child-script.js';
import type { RedirectBrand, RedirectTarget } from '../../src/storage/repositories/links.js';

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
  suspendedMembers: async () => ({ affiliates: [], brands: [] }),
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

test("the budget bounds the heap the cache really holds, not only its own estimate", () => {
  // In a child with a collectable heap: the heap the cache keeps, measured, against its budget.
  const script = `
    const { RedirectCache } = await import(${JSON.stringify(new URL('../../src/domain/links/redirect-cache.ts', import.meta.url).pathname)});
    const { randomUUID } = await import('node:crypto');
    // Strings as a database driver returns them: flat, one allocation each.
    const flat = (text) => Buffer.from(text).toString();
    const links = {
      findRedirectTarget: async (code) => ({
        linkId: flat(randomUUID()),
        destination: flat('https://www.brand-' + code.slice(-3) + '.example/products/item-' + code + '?mdasc=yt-review-' + code.slice(-1)),
        active: true,
        affiliateId: flat('aff-' + code.slice(-2)),
        channelId: flat('ch-' + code.slice(-2) + '-youtube'),
        brandId: flat('brand-' + code.slice(-3)),
        mdasc: flat('yt-review-' + code.slice(-1)),
        clickIdParam: 'clickId',
      }),
      changesSince: async () => [],
      suspendedMembers: async () => ({ affiliates: [], brands: [] }),
    };
    const cache = new RedirectCache(links, { now: () => Date.now(), iso: () => new Date().toISOString() }, { maxMb: 4 });
    gc(); gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100000; i++) await cache.resolve(flat('c' + String(i).padStart(7, '0') + 'x'));
    gc(); gc();
    process.stdout.write(JSON.stringify({ heap: process.memoryUsage().heapUsed - before, estimated: cache.held.bytes }));`;
  const { heap, estimated } = JSON.parse(childScriptOutput(script, ['--expose-gc'])) as { heap: number; estimated: number };
  const budget = 4 * 1024 * 1024;
  assert.ok(estimated <= budget + 2_000, `estimated ${estimated} bytes`);
  // The estimate is what the budget is checked against: within 10 % of what is held, either way.
  assert.ok(heap <= estimated * 1.1, `the cache holds ${(heap / 1048576).toFixed(2)} MB of heap where it counts ${(estimated / 1048576).toFixed(2)} MB`);
  assert.ok(heap >= estimated * 0.9, `the cache counts ${(estimated / 1048576).toFixed(2)} MB for ${(heap / 1048576).toFixed(2)} MB of heap: it would hold fewer codes than its budget allows`);
});

test('where the database reads at once, a code not held is answered without waiting, its brand read once until the cache starts afresh', async () => {
  const asked: string[] = [];
  const now = {
    ...links,
    // As the repository does on SQLite: the link, its brand's part through brandOf, the approval for a private brand.
    findRedirectTargetNow(code: string, brandOf: (brandId: string) => RedirectBrand | null | undefined): RedirectTarget | null | undefined {
      asked.push(`link ${code}`);
      if (code === 'busybusy') return undefined; // a transaction is open: resolve() reads it
      if (code === 'nosuchcode') return null;
      const brandId = code.startsWith('private') ? 'brand-private' : 'brand-1';
      const brand = brandOf(brandId);
      if (!brand) return brand;
      const affiliateId = code.endsWith('approved') ? 'aff-approved' : 'aff-1';
      if (!brand.isPublic) asked.push(`approval ${affiliateId} ${brandId}`);
      return {
        linkId: `link-${code}`,
        destination: `https://shop.example/${code}`,
        active: brand.isPublic || affiliateId === 'aff-approved',
        affiliateId,
        channelId: 'ch-1',
        brandId,
        mdasc: null,
        clickIdParam: brand.clickIdParam,
        ...(code.startsWith('feed') && { feed: { site: brand.site, domains: brand.domains } }),
      };
    },
    redirectBrandNow(brandId: string): RedirectBrand | null | undefined {
      asked.push(`brand ${brandId}`);
      return { clickIdParam: brandId === 'brand-1' ? 'clickId' : 'ref', isPublic: brandId === 'brand-1', site: 'https://shop.example', domains: '["cdn.shop.example"]' };
    },
  };
  const cache = new RedirectCache(now, clock);
  assert.equal(cache.cached('firstcode'), undefined, 'who is suspended is read once, asynchronously, before any lookup at once');
  await cache.resolve('firstcode');
  assert.equal(cache.cached('secondcode')?.locationBefore, 'https://shop.example/secondcode?clickId=');
  assert.equal(cache.cached('thirdcode')?.linkId, 'link-thirdcode');
  assert.equal(cache.cached('nosuchcode'), null);
  assert.equal(cache.cached('privatecode'), null, 'a private brand\'s link without approval does not redirect');
  assert.equal(cache.cached('privatecodeapproved')?.locationBefore, 'https://shop.example/privatecodeapproved?ref=');
  assert.deepEqual(cache.cached('feedcode')?.feed?.domains, ['shop.example', 'cdn.shop.example']);
  assert.equal(cache.cached('busybusy'), undefined);
  assert.equal((await cache.resolve('busybusy'))?.linkId, 'link-busybusy');
  assert.equal(cache.cached('secondcode')?.linkId, 'link-secondcode', 'held from then on');
  assert.deepEqual(asked, [
    'link secondcode', 'brand brand-1', 'link thirdcode', 'link nosuchcode',
    'link privatecode', 'brand brand-private', 'approval aff-1 brand-private',
    'link privatecodeapproved', 'approval aff-approved brand-private', 'link feedcode', 'link busybusy',
  ]);
  assert.deepEqual(cache.lookups, { hits: 1, misses: 8 });
  cache.clear();
  await cache.resolve('firstcode');
  asked.length = 0;
  cache.cached('secondcode');
  assert.deepEqual(asked, ['link secondcode', 'brand brand-1'], 'a brand is read afresh once the cache starts afresh');
});
