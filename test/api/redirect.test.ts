import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, codeOf, newKey, qs, sleep } from '../helpers/api.js';

interface ShortUrlRecord {
  originalUrl: string;
  shortUrl: string;
  urlCode: string;
  active: boolean;
  count: number;
}

let h: Harness;
let aff1: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

/** Creates Custom links for a fresh acme url; returns the site channel's and the instagram channel's links. */
async function customLinks(path: string, mdasc?: string): Promise<{ site: string; insta: string }> {
  const res = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Custom', url: `https://www.acme.com${path}`, mdasc }, aff1);
  assert.equal(res.statusCode, 200, res.body);
  const channels = res.json() as Array<{ id: string; shortUrls: string[] }>;
  const site = channels.find((c) => c.id === h.world.channels.aff1Site)?.shortUrls[0];
  const insta = channels.find((c) => c.id === h.world.channels.aff1Instagram)?.shortUrls[0];
  assert.ok(site && insta, res.body);
  return { site, insta };
}

async function record(shortUrl: string): Promise<ShortUrlRecord> {
  const res = await h.get(`/affiliate/shortener/urls${qs({ type: 'Custom', limit: 100 })}`, aff1);
  assert.equal(res.statusCode, 200, res.body);
  const found = (res.json() as Array<{ data: ShortUrlRecord[] }>)[0]!.data.find((r) => r.shortUrl === shortUrl);
  assert.ok(found, `${shortUrl} is not in the list`);
  return found;
}

/** Polls the list until the link's count reaches `expected` (clicks are written every 50 ms), for up to ~2 s. */
async function countEventually(shortUrl: string, expected: number): Promise<number> {
  let count = -1;
  for (let i = 0; i < 40; i++) {
    count = (await record(shortUrl)).count;
    if (count >= expected) return count;
    await sleep(50);
  }
  return count;
}

const visit = (code: string) => h.request({ method: 'GET', url: `/${code}` });

describe('GET /{urlCode}', () => {
  test('answers 302 to the link’s originalUrl, without an API key', async () => {
    const { site } = await customLinks('/redirect/one');
    const res = await visit(codeOf(site));
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, 'https://www.acme.com/redirect/one');
    assert.equal(res.headers.location, (await record(site)).originalUrl);
  });

  test('a link with mdasc redirects to the destination carrying mdasc', async () => {
    const { insta } = await customLinks('/redirect/two?x=1', 'tracking-9');
    const res = await visit(codeOf(insta));
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(String(res.headers.location));
    assert.equal(location.pathname, '/redirect/two');
    assert.equal(location.searchParams.get('x'), '1');
    assert.equal(location.searchParams.get('mdasc'), 'tracking-9');
    assert.equal(res.headers.location, (await record(insta)).originalUrl);
  });

  test('the query string of the short URL does not change the destination', async () => {
    const { site } = await customLinks('/redirect/three');
    const res = await h.request({ method: 'GET', url: `/${codeOf(site)}?utm_source=x` });
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, 'https://www.acme.com/redirect/three');
  });

  test('an unknown code → 404 with the error body', async () => {
    assertError(await visit('ZZZZZZZ9'), 404);
    assertError(await visit('abc'), 404);
    assertError(await visit('not-a-code!'), 404);
  });

  test('codes are case-sensitive: the same letters in another case are another (unknown) code', async () => {
    const { site } = await customLinks('/redirect/case');
    const code = codeOf(site);
    const swapped = [...code].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
    if (swapped === code) return; // all digits: nothing to swap
    assertError(await visit(swapped), 404);
  });
});

describe('click counts', () => {
  test('after N redirects the link’s count becomes N; the other channel’s link stays at 0', async () => {
    const { site, insta } = await customLinks('/count/five');
    assert.equal((await record(site)).count, 0);
    const N = 5;
    for (let i = 0; i < N; i++) assert.equal((await visit(codeOf(site))).statusCode, 302);
    assert.equal(await countEventually(site, N), N);
    await sleep(150);
    assert.equal((await record(site)).count, N, 'the count must not overshoot');
    assert.equal((await record(insta)).count, 0);
  });

  test('counts keep adding up across flushes', async () => {
    const { insta } = await customLinks('/count/more');
    await visit(codeOf(insta));
    assert.equal(await countEventually(insta, 1), 1);
    for (let i = 0; i < 3; i++) await visit(codeOf(insta));
    assert.equal(await countEventually(insta, 4), 4);
  });

  test('a 404 on an unknown code counts nothing anywhere', async () => {
    const { site } = await customLinks('/count/none');
    await visit(`${codeOf(site)}0`);
    await sleep(150);
    assert.equal((await record(site)).count, 0);
  });
});

describe('inactive links', () => {
  test('a deactivated link answers 404, counts nothing and is listed as inactive', async () => {
    const { site, insta } = await customLinks('/inactive');
    const code = codeOf(site);
    assert.equal((await visit(code)).statusCode, 302, 'the link works before deactivation');
    assert.equal(await countEventually(site, 1), 1);

    await h.service.context.database.db.updateTable('short_links').set({ active: 0 }).where('code', '=', code).execute();
    h.service.context.redirects.invalidate(code);

    assertError(await visit(code), 404);
    assertError(await visit(code), 404);
    await sleep(200);
    const after = await record(site);
    assert.equal(after.count, 1, 'redirects refused after deactivation must not count');
    assert.equal(after.active, false);

    assert.equal((await visit(codeOf(insta))).statusCode, 302, 'the other channel’s link still works');
  });
});
