// GET /{urlCode}: the redirect hot path. Every redirect carries a fresh click id (before any
// #fragment, keeping mdasc) and the visitor's query parameters, which never override the link's
// own; every click is stored with bot/HEAD/repeat/suspicious flags and only human, first-in-window
// clicks within their address's velocity limit add to the link's count; unknown and deactivated links answer 404 and
// store nothing. Clicks are written in the background (every 50 ms in the harness), so effects
// are awaited with a bounded poll, never timed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, codeOf, newKey, qs, sleep } from '../helpers/api.js';
import { pollUntil } from '../helpers/wait.js';
import { clicksSummed } from '../helpers/tracking.js';
import type { ClickRow } from '../../src/storage/tables.js';
import { loadConfig } from '../../src/config.js';
import { LinksRepository } from '../../src/storage/repositories/links.js';

interface ShortUrlRecord {
  originalUrl: string;
  shortUrl: string;
  urlCode: string;
  active: boolean;
  count: number;
}

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const BOT_AGENTS = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  whatsapp: 'WhatsApp/2.23.20.0 A',
};
const CLICK_ID = /^[0-9a-f]{32}$/;

let h: Harness;
let aff1: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  await h.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers

let ipCounter = 0;
/** A visitor address nobody else in this file uses (TEST-NET-2 / TEST-NET-3 ranges). */
const freshIp = () => {
  ipCounter++;
  return `198.51.${100 + Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

interface VisitOptions {
  /** User agent; null sends none. Default: a desktop Chrome. */
  ua?: string | null;
  /** Client address; default: a fresh one, so the click is a new visitor. */
  ip?: string;
  method?: 'GET' | 'HEAD';
  query?: string;
  headers?: Record<string, string>;
}

function visit(h: Harness, code: string, o: VisitOptions = {}): Promise<LightMyRequestResponse> {
  return h.request({
    method: o.method ?? 'GET',
    url: `/${code}${o.query ?? ''}`,
    headers: { 'user-agent': o.ua === null ? undefined : (o.ua ?? CHROME), ...o.headers },
    remoteAddress: o.ip ?? freshIp(),
  });
}

let server: Server | undefined;

/**
 * Sends the request line exactly as written, over a real socket to the service's request listener:
 * what a client sends that an in-process request would normalise first (a '#', a bare '?', '"').
 */
async function rawRequest(target: string, method: 'GET' | 'HEAD' = 'GET'): Promise<{ status: number; location: string | undefined }> {
  if (!server) {
    await h.service.app.ready();
    const listening = createServer(h.service.handler);
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    server = listening;
  }
  const { port } = server.address() as AddressInfo;
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${method} ${target} HTTP/1.1\r\nHost: go.test\r\nUser-Agent: ${CHROME}\r\nConnection: close\r\n\r\n`));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  const lines = answer.slice(0, answer.indexOf('\r\n\r\n')).split('\r\n');
  const location = lines.find((line) => /^location:/i.test(line));
  return { status: Number(lines[0]!.split(' ')[1]), location: location?.slice('location:'.length).trim() };
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Asserts a 302 whose Location is exactly `originalUrl` with `param=<32 hex>` appended to its
 * query (before any #fragment). Returns the click id.
 */
function assertRedirect(res: LightMyRequestResponse, originalUrl: string, param = 'clickId'): string {
  assert.equal(res.statusCode, 302, res.body);
  const location = String(res.headers.location);
  const hash = originalUrl.indexOf('#');
  const base = hash === -1 ? originalUrl : originalUrl.slice(0, hash);
  const fragment = hash === -1 ? '' : originalUrl.slice(hash);
  const separator = base.includes('?') ? '&' : '?';
  const pattern = new RegExp(`^${escapeRe(`${base}${separator}${param}=`)}([0-9a-f]{32})${escapeRe(fragment)}$`);
  const match = pattern.exec(location);
  assert.ok(match, `Location ${location} is not ${base}${separator}${param}=<32 lowercase hex>${fragment}`);
  return match[1]!;
}

/** Creates Custom links for an acme url; returns the site channel's and the instagram channel's short URLs. */
async function customLinks(path: string, mdasc?: string): Promise<{ site: string; insta: string }> {
  const res = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Custom', url: `https://www.acme.com${path}`, mdasc }, aff1);
  assert.equal(res.statusCode, 200, res.body);
  const channels = res.json<Array<{ id: string; shortUrls: string[] }>>();
  const site = channels.find((c) => c.id === h.world.channels.aff1Site)?.shortUrls[0];
  const insta = channels.find((c) => c.id === h.world.channels.aff1Instagram)?.shortUrls[0];
  assert.ok(site && insta, res.body);
  return { site, insta };
}

/** The link's record in GET /affiliate/shortener/urls (what the affiliate sees). */
async function record(shortUrl: string, type = 'Custom'): Promise<ShortUrlRecord> {
  const res = await h.get(`/affiliate/shortener/urls${qs({ type, limit: 100 })}`, aff1);
  assert.equal(res.statusCode, 200, res.body);
  const found = (res.json<Array<{ data: ShortUrlRecord[] }>>())[0]!.data.find((r) => r.shortUrl === shortUrl);
  assert.ok(found, `${shortUrl} is not in the list`);
  return found;
}

/** Polls the list until the link's count reaches `expected`, for at most 3 s; returns the last count. */
async function countEventually(shortUrl: string, expected: number): Promise<number> {
  return (await pollUntil(() => record(shortUrl), (r) => r.count >= expected)).count;
}

async function linkIdOf(h: Harness, code: string): Promise<string> {
  const row = await h.service.database.db.selectFrom('short_links').select('id').where('code', '=', code).executeTakeFirst();
  assert.ok(row, `no short_links row for ${code}`);
  return row.id;
}

/** Every stored click of a link. */
async function clicksOf(h: Harness, code: string): Promise<ClickRow[]> {
  const linkId = await linkIdOf(h, code);
  return h.service.database.db.selectFrom('clicks').selectAll().where('link_id', '=', linkId).orderBy('created_at').execute();
}

async function allClicks(h: Harness): Promise<ClickRow[]> {
  return h.service.database.db.selectFrom('clicks').selectAll().execute();
}

/**
 * Waits (≤ 3 s) until every given click id is stored and counted, and returns their rows in the
 * same order. Clicks are buffered first-in first-out and a batch is written whole, so once these
 * rows are there, every click recorded before them is written too; link counts follow the stored
 * clicks a few flushes later.
 */
async function stored(h: Harness, clickIds: string[]): Promise<ClickRow[]> {
  const { db } = h.service.database;
  const rows = await pollUntil(
    () => db.selectFrom('clicks').selectAll().where('id', 'in', clickIds).execute(),
    (found) => found.length === new Set(clickIds).size,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = clickIds.filter((id) => !byId.has(id));
  assert.deepEqual(missing, [], 'every redirect answered with a click id must be stored as a click');
  await clicksSummed(h);
  return clickIds.map((id) => byId.get(id)!);
}

const flags = (row: ClickRow) => ({ is_bot: row.is_bot, is_head: row.is_head, is_repeat: row.is_repeat, counted: row.counted });
const HUMAN = { is_bot: 0, is_head: 0, is_repeat: 0, counted: 1 };
const allFlags = (row: ClickRow) => ({ ...flags(row), is_suspicious: row.is_suspicious });
const COUNTED = { ...HUMAN, is_suspicious: 0 };
const SUSPICIOUS = { ...HUMAN, is_suspicious: 1, counted: 0 };
/** A desktop Chrome of another version for each i: one address rotating user agents. */
const chrome = (i: number) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + i}.0.${i}.0 Safari/537.36`;

// ---------------------------------------------------------------------------------------------

describe('GET /{urlCode}: where the visitor is sent', () => {
  test('answers 302 to the link’s originalUrl plus ?clickId=<32 hex>, without an API key', async () => {
    const { site } = await customLinks('/redirect/one');
    const { originalUrl } = await record(site);
    assert.equal(originalUrl, 'https://www.acme.com/redirect/one', 'the listed originalUrl is the destination, without any click id');
    const res = await visit(h, codeOf(site));
    const clickId = assertRedirect(res, originalUrl);
    assert.equal(res.headers.location, `https://www.acme.com/redirect/one?clickId=${clickId}`);
    assert.equal((await record(site)).originalUrl, originalUrl, 'a redirect does not change the stored destination');
  });

  test('every redirect carries a new click id, distinct across clicks, channels and visitors', async () => {
    const { site, insta } = await customLinks('/redirect/ids');
    const ids: string[] = [];
    const sameVisitor = freshIp();
    for (let i = 0; i < 8; i++) ids.push(assertRedirect(await visit(h, codeOf(site), { ip: sameVisitor }), 'https://www.acme.com/redirect/ids'));
    for (let i = 0; i < 4; i++) ids.push(assertRedirect(await visit(h, codeOf(site)), 'https://www.acme.com/redirect/ids'));
    for (let i = 0; i < 4; i++) ids.push(assertRedirect(await visit(h, codeOf(insta)), 'https://www.acme.com/redirect/ids'));
    for (const id of ids) assert.match(id, CLICK_ID);
    assert.equal(new Set(ids).size, ids.length, `click ids repeat: ${ids.join(' ')}`);
  });

  test('keeps mdasc and the destination’s own query; the click id comes after them', async () => {
    const { insta } = await customLinks('/redirect/two?x=1', 'tracking-9');
    const { originalUrl } = await record(insta);
    assert.equal(originalUrl, 'https://www.acme.com/redirect/two?x=1&mdasc=tracking-9');
    const res = await visit(h, codeOf(insta));
    const clickId = assertRedirect(res, originalUrl);
    const location = new URL(String(res.headers.location));
    assert.equal(location.origin + location.pathname, 'https://www.acme.com/redirect/two');
    assert.equal(location.searchParams.get('x'), '1');
    assert.equal(location.searchParams.get('mdasc'), 'tracking-9');
    assert.deepEqual(location.searchParams.getAll('clickId'), [clickId]);
  });

  test('a #fragment stays last, after the click id (with and without mdasc)', async () => {
    const plain = await customLinks('/page#top');
    assert.equal((await record(plain.site)).originalUrl, 'https://www.acme.com/page#top');
    const res = await visit(h, codeOf(plain.site));
    const clickId = assertRedirect(res, 'https://www.acme.com/page#top');
    assert.equal(res.headers.location, `https://www.acme.com/page?clickId=${clickId}#top`);
    const parsed = new URL(String(res.headers.location));
    assert.equal(parsed.hash, '#top');
    assert.equal(parsed.searchParams.get('clickId'), clickId, 'the click id must be in the query, where the brand’s server sees it');

    const tagged = await customLinks('/page-two?size=m#reviews', 'm-frag');
    const { originalUrl } = await record(tagged.insta);
    assert.equal(originalUrl, 'https://www.acme.com/page-two?size=m&mdasc=m-frag#reviews');
    const res2 = await visit(h, codeOf(tagged.insta));
    const clickId2 = assertRedirect(res2, originalUrl);
    assert.equal(res2.headers.location, `https://www.acme.com/page-two?size=m&mdasc=m-frag&clickId=${clickId2}#reviews`);
  });

  test('a brand with its own click id parameter gets the click id under that name', async () => {
    const db = h.service.database.db;
    // Umbrella accepts only site channels: aff-1's site channel gets the link.
    const created = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.umbrella, type: 'BrandPage' }, aff1);
    assert.equal(created.statusCode, 200, created.body);
    const brandPage = (created.json<Array<{ id: string; shortUrls: string[] }>>()).find((c) => c.id === h.world.channels.aff1Site)!.shortUrls[0]!;
    const before = await visit(h, codeOf(brandPage));
    const defaultId = assertRedirect(before, 'https://umbrella.com', 'clickId');

    await db.updateTable('brands').set({ click_id_param: 'subid' }).where('id', '=', BRANDS.umbrella).execute();
    // The link was cached with the old parameter; a change to the brand starts the cache afresh
    // (as the poll does on seeing the brand's updated_at), its links and what it knew of the brand.
    h.service.services.tracking.forgetAllLinks();
    const res = await visit(h, codeOf(brandPage));
    const id1 = assertRedirect(res, 'https://umbrella.com', 'subid');
    assert.ok(!String(res.headers.location).includes('clickId='), `only the brand’s parameter is added: ${res.headers.location}`);
    // The brand's own parameter is the one a visitor's query cannot set; clickId is just a parameter to it.
    const merged = new URL(String((await visit(h, codeOf(brandPage), { query: '?subid=forged&clickId=other' })).headers.location));
    assert.equal(merged.searchParams.getAll('subid').length, 1);
    assert.match(merged.searchParams.get('subid')!, CLICK_ID);
    assert.equal(merged.searchParams.get('clickId'), 'other');

    // A link created after the change uses it from its first redirect.
    const custom = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.umbrella, type: 'Custom', url: 'https://umbrella.com/deal?ref=1', mdasc: 'u-1' }, aff1);
    assert.equal(custom.statusCode, 200, custom.body);
    const dealUrl = (custom.json<Array<{ id: string; shortUrls: string[] }>>()).find((c) => c.id === h.world.channels.aff1Site)!.shortUrls[0]!;
    const id2 = assertRedirect(await visit(h, codeOf(dealUrl)), 'https://umbrella.com/deal?ref=1&mdasc=u-1', 'subid');

    // Other brands keep the default name.
    const { site } = await customLinks('/redirect/acme-still-clickid');
    assertRedirect(await visit(h, codeOf(site)), 'https://www.acme.com/redirect/acme-still-clickid', 'clickId');

    // Whatever its name, the id resolves to a stored click of that brand.
    for (const row of await stored(h, [defaultId, id1, id2])) assert.equal(row.organization_id, BRANDS.umbrella);
  });
});

describe('GET /{urlCode}?…: the visitor’s query string', () => {
  /** The click id of a Location that must be exactly `expected` with <id> standing for the click id. */
  function assertLocation(location: string | undefined, expected: string): string {
    const pattern = new RegExp(`^${escapeRe(expected).replace('<id>', '([0-9a-f]{32})')}$`);
    const match = pattern.exec(String(location));
    assert.ok(match, `Location ${location} is not ${expected}`);
    return match[1]!;
  }

  test('utm parameters reach the destination, before the link’s own query and the click id', async () => {
    const plain = await customLinks('/query/utm');
    const res = await visit(h, codeOf(plain.site), { query: '?utm_source=newsletter&utm_medium=email&utm_campaign=spring' });
    assert.equal(res.statusCode, 302, res.body);
    const clickId = assertLocation(res.headers.location, 'https://www.acme.com/query/utm?utm_source=newsletter&utm_medium=email&utm_campaign=spring&clickId=<id>');
    // The click is the same click as without a query: stored and counted.
    const [row] = await stored(h, [clickId]);
    assert.deepEqual(flags(row!), HUMAN);

    const tagged = await customLinks('/query/utm-tagged?size=m', 'nl-3');
    const res2 = await visit(h, codeOf(tagged.site), { query: '?utm_source=x' });
    assertLocation(res2.headers.location, 'https://www.acme.com/query/utm-tagged?utm_source=x&size=m&mdasc=nl-3&clickId=<id>');
  });

  test('the link’s own parameters, mdasc and the click id win on a clash: the visitor’s are dropped', async () => {
    const { site } = await customLinks('/query/clash?size=m', 'tag-1');
    const forged = '?size=xl&mdasc=other&clickId=forged&utm_source=x&CLICKID=forged2&click%49d=forged3&MdAsc=other2&Size=s';
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await visit(h, codeOf(site), { query: forged, method });
      assert.equal(res.statusCode, 302, res.body);
      const clickId = assertLocation(res.headers.location, 'https://www.acme.com/query/clash?utm_source=x&size=m&mdasc=tag-1&clickId=<id>');
      const location = new URL(String(res.headers.location));
      assert.deepEqual(location.searchParams.getAll('clickId'), [clickId]);
      assert.deepEqual(location.searchParams.getAll('mdasc'), ['tag-1']);
      assert.deepEqual(location.searchParams.getAll('size'), ['m']);
    }
    // mdasc is the network's parameter even on a link without one: a visitor cannot add it.
    const plain = await customLinks('/query/no-mdasc');
    const res = await visit(h, codeOf(plain.site), { query: '?mdasc=forged&a=1&clickId=forged' });
    assertLocation(res.headers.location, 'https://www.acme.com/query/no-mdasc?a=1&clickId=<id>');
  });

  test('the destination’s #fragment stays last', async () => {
    const { insta } = await customLinks('/query/frag?x=1#reviews', 'm-frag');
    const res = await visit(h, codeOf(insta), { query: '?utm_source=x' });
    assertLocation(res.headers.location, 'https://www.acme.com/query/frag?utm_source=x&x=1&mdasc=m-frag&clickId=<id>#reviews');
    const plain = await customLinks('/query/frag-plain#top');
    const res2 = await visit(h, codeOf(plain.site), { query: '?utm_source=x' });
    assertLocation(res2.headers.location, 'https://www.acme.com/query/frag-plain?utm_source=x&clickId=<id>#top');
    assert.equal(new URL(String(res2.headers.location)).hash, '#top');
  });

  test('repeated parameters keep every value, in order', async () => {
    const { site } = await customLinks('/query/repeated');
    const res = await visit(h, codeOf(site), { query: '?tag=a&utm_source=x&tag=b&tag=c' });
    assertLocation(res.headers.location, 'https://www.acme.com/query/repeated?tag=a&utm_source=x&tag=b&tag=c&clickId=<id>');
    assert.deepEqual(new URL(String(res.headers.location)).searchParams.getAll('tag'), ['a', 'b', 'c']);
  });

  test('parameters pass as sent: valid percent-encoding is kept, an encoded & does not make a new parameter', async () => {
    const { site } = await customLinks('/query/encoded');
    const sent = 'q=caf%C3%A9&sp=a+b&path=%2Fx%3Fy&a=1%26clickId%3Dforged&empty=&flag';
    const res = await visit(h, codeOf(site), { query: `?${sent}` });
    const clickId = assertLocation(res.headers.location, `https://www.acme.com/query/encoded?${sent}&clickId=<id>`);
    const params = new URL(String(res.headers.location)).searchParams;
    assert.equal(params.get('a'), '1&clickId=forged', 'the encoded & stays inside a’s value');
    assert.deepEqual(params.getAll('clickId'), [clickId]);
    assert.equal(params.get('q'), 'café');
  });

  test('what a query cannot carry as it is gets encoded: a # cannot move the click id into a fragment', async () => {
    const { site } = await customLinks('/query/raw');
    const code = codeOf(site);
    const hash = await rawRequest(`/${code}?a=1#x&clickId=forged`);
    assert.equal(hash.status, 302);
    const clickId = assertLocation(hash.location, 'https://www.acme.com/query/raw?a=1%23x&clickId=<id>');
    assert.deepEqual(new URL(hash.location!).searchParams.getAll('clickId'), [clickId]);
    assert.equal(new URL(hash.location!).hash, '');
    const odd = await rawRequest(`/${code}?q="<b>"&pct=100%&ok=%41`);
    assertLocation(odd.location, 'https://www.acme.com/query/raw?q=%22%3Cb%3E%22&pct=100%25&ok=%41&clickId=<id>');
  });

  test('an empty query (/{code}? or only separators) changes nothing', async () => {
    const { site } = await customLinks('/query/empty?x=1#top');
    for (const target of [`/${codeOf(site)}?`, `/${codeOf(site)}?&&`, `/${codeOf(site)}/?`]) {
      const res = await rawRequest(target);
      assert.equal(res.status, 302, target);
      assertLocation(res.location, 'https://www.acme.com/query/empty?x=1&clickId=<id>#top');
    }
    assertRedirect(await visit(h, codeOf(site), { query: '?&' }), 'https://www.acme.com/query/empty?x=1#top');
  });

  test('the Fastify route behind the front (a percent-encoded code) merges the query the same way', async () => {
    const { site } = await customLinks('/query/slow', 'slow-1');
    const code = codeOf(site);
    const encoded = `%${code.charCodeAt(0).toString(16).toUpperCase()}${code.slice(1)}`;
    for (const path of [`/${encoded}`, `/${encoded}/`]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await visit(h, path.slice(1), { method, query: '?utm_source=x&mdasc=other&clickId=forged&a=1%26b%3D2' });
        assert.equal(res.statusCode, 302, `${method} ${path}: ${res.body}`);
        assertLocation(res.headers.location, 'https://www.acme.com/query/slow?utm_source=x&a=1%26b%3D2&mdasc=slow-1&clickId=<id>');
      }
    }
  });
});

describe('short-link paths and the service’s own paths', () => {
  test('the service’s own paths are never read as codes, though /healthz looks like one', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const health = await h.request({ method, url: '/healthz?probe=1' });
      assert.equal(health.statusCode, 200, health.body);
      assert.equal(health.headers.location, undefined);
    }
  });

  test('a percent-encoded code is the same code: redirected and counted the same way', async () => {
    const { site } = await customLinks('/redirect/encoded');
    const code = codeOf(site);
    const encoded = [...code].map((ch, i) => (i === 0 ? `%${ch.charCodeAt(0).toString(16).toUpperCase()}` : ch)).join('');
    const clickId = assertRedirect(await visit(h, encoded), 'https://www.acme.com/redirect/encoded');
    const [row] = await stored(h, [clickId]);
    assert.deepEqual(flags(row!), HUMAN);
    assert.equal(await countEventually(site, 1), 1);
  });

  test('/{code}/ answers exactly like /{code}: redirected, stored and counted the same way (GET and HEAD)', async () => {
    const { site } = await customLinks('/redirect/slash');
    const code = codeOf(site);
    const url = 'https://www.acme.com/redirect/slash';
    const getId = assertRedirect(await visit(h, `${code}/`), url);
    const head = await visit(h, `${code}/`, { method: 'HEAD' });
    const headId = assertRedirect(head, url);
    assert.equal(head.body, '');
    const plainId = assertRedirect(await visit(h, code), url);
    const [get, headRow, plain] = await stored(h, [getId, headId, plainId]);
    assert.deepEqual(flags(get!), HUMAN, '/{code}/ is a counted click');
    assert.deepEqual(flags(headRow!), { is_bot: 0, is_head: 1, is_repeat: 0, counted: 0 });
    assert.deepEqual(flags(plain!), HUMAN);
    assert.equal(get!.link_id, plain!.link_id);
    assert.equal(await countEventually(site, 2), 2);
    // With a query, and over a real socket.
    const withQuery = await visit(h, `${code}/`, { query: '?utm_source=x' });
    assert.match(String(withQuery.headers.location), /^https:\/\/www\.acme\.com\/redirect\/slash\?utm_source=x&clickId=[0-9a-f]{32}$/);
    const raw = await rawRequest(`/${code}/`);
    assert.equal(raw.status, 302);
    assert.match(String(raw.location), /^https:\/\/www\.acme\.com\/redirect\/slash\?clickId=[0-9a-f]{32}$/);
    // Unknown codes answer 404 with a trailing slash too; a second slash is not a code.
    assertError(await visit(h, 'ZZZZZZZ9/'), 404, 'link_not_found');
    assert.equal((await visit(h, `${code}//`)).statusCode, 404);
  });

  test('POST to a short link is not a redirect: 404 route_not_found', async () => {
    const { site } = await customLinks('/redirect/post');
    assertError(await h.request({ method: 'POST', url: `/${codeOf(site)}`, payload: {} }), 404, 'route_not_found');
  });
});

describe('which clicks count', () => {
  test('browser clicks count, one per visitor; the other channel’s link stays at 0', async () => {
    const { site, insta } = await customLinks('/count/browsers');
    assert.equal((await record(site)).count, 0);
    const ids: string[] = [];
    for (const ua of [CHROME, CHROME, CHROME, IPHONE_SAFARI, FIREFOX]) {
      ids.push(assertRedirect(await visit(h, codeOf(site), { ua }), 'https://www.acme.com/count/browsers'));
    }
    assert.equal(await countEventually(site, 5), 5, 'five visitors with browser user agents → count 5');
    const rows = await stored(h, ids);
    for (const row of rows) assert.deepEqual(flags(row), HUMAN, `a browser click is a counted human click: ${row.user_agent}`);
    assert.equal((await record(site)).count, 5, 'the count must not overshoot once every click is written');
    assert.equal((await record(insta)).count, 0);
    assert.equal((await clicksOf(h, codeOf(insta))).length, 0);
  });

  test('counts keep adding up across flushes', async () => {
    const { insta } = await customLinks('/count/more');
    await visit(h, codeOf(insta));
    assert.equal(await countEventually(insta, 1), 1);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(assertRedirect(await visit(h, codeOf(insta)), 'https://www.acme.com/count/more'));
    assert.equal(await countEventually(insta, 4), 4);
    await stored(h, ids);
    assert.equal((await record(insta)).count, 4);
  });

  for (const [name, ua] of Object.entries(BOT_AGENTS)) {
    test(`a ${name} user agent is redirected, stored with is_bot=1 and not counted`, async () => {
      const { site } = await customLinks(`/bots/${name}`);
      const res = await visit(h, codeOf(site), { ua });
      const botId = assertRedirect(res, `https://www.acme.com/bots/${name}`);
      // A person clicking afterwards (from another address) is the control: that one counts.
      const humanId = assertRedirect(await visit(h, codeOf(site)), `https://www.acme.com/bots/${name}`);
      const [bot, human] = await stored(h, [botId, humanId]);
      assert.deepEqual(flags(bot!), { is_bot: 1, is_head: 0, is_repeat: 0, counted: 0 });
      assert.equal(bot!.user_agent, ua);
      assert.deepEqual(flags(human!), HUMAN);
      assert.equal((await record(site)).count, 1, `only the browser click counts, not ${ua}`);
    });
  }

  test('very long user agents are judged like short ones, every time (the service remembers only ordinary ones)', async () => {
    const { site } = await customLinks('/bots/long');
    const longBot = `${BOT_AGENTS.googlebot} ${'x'.repeat(2_000)}`;
    const longBrowser = `${CHROME} ${'y'.repeat(2_000)}`;
    const botIds: string[] = [];
    for (let i = 0; i < 2; i++) botIds.push(assertRedirect(await visit(h, codeOf(site), { ua: longBot }), 'https://www.acme.com/bots/long'));
    const humanId = assertRedirect(await visit(h, codeOf(site), { ua: longBrowser }), 'https://www.acme.com/bots/long');
    const [bot1, bot2, human] = await stored(h, [...botIds, humanId]);
    assert.deepEqual(flags(bot1!), { is_bot: 1, is_head: 0, is_repeat: 0, counted: 0 });
    assert.deepEqual(flags(bot2!), { is_bot: 1, is_head: 0, is_repeat: 0, counted: 0 });
    assert.deepEqual(flags(human!), HUMAN);
    assert.equal((await record(site)).count, 1);
  });

  test('a request with no user agent (or an empty one) is a bot: stored with is_bot=1, not counted', async () => {
    const { site } = await customLinks('/bots/none');
    const noneId = assertRedirect(await visit(h, codeOf(site), { ua: null }), 'https://www.acme.com/bots/none');
    const emptyId = assertRedirect(await visit(h, codeOf(site), { ua: '' }), 'https://www.acme.com/bots/none');
    const humanId = assertRedirect(await visit(h, codeOf(site)), 'https://www.acme.com/bots/none');
    const [none, empty, human] = await stored(h, [noneId, emptyId, humanId]);
    assert.deepEqual(flags(none!), { is_bot: 1, is_head: 0, is_repeat: 0, counted: 0 });
    assert.equal(none!.user_agent, null);
    assert.deepEqual(flags(empty!), { is_bot: 1, is_head: 0, is_repeat: 0, counted: 0 });
    assert.deepEqual(flags(human!), HUMAN);
    assert.equal((await record(site)).count, 1);
  });

  test('HEAD answers the same 302 with a click id, is stored with is_head=1 and never counts', async () => {
    const { site } = await customLinks('/head');
    const ip = freshIp();
    const head = await visit(h, codeOf(site), { method: 'HEAD', ip });
    const headId = assertRedirect(head, 'https://www.acme.com/head');
    assert.equal(head.body, '', 'a HEAD response has no body');
    const head2Id = assertRedirect(await visit(h, codeOf(site), { method: 'HEAD', ip }), 'https://www.acme.com/head');
    // The same visitor's GET afterwards is their first real click: a HEAD does not use it up.
    const getId = assertRedirect(await visit(h, codeOf(site), { ip }), 'https://www.acme.com/head');
    const [h1, h2, get] = await stored(h, [headId, head2Id, getId]);
    assert.deepEqual(flags(h1!), { is_bot: 0, is_head: 1, is_repeat: 0, counted: 0 });
    assert.equal(h2!.is_head, 1);
    assert.equal(h2!.counted, 0);
    assert.deepEqual(flags(get!), HUMAN, 'the GET after a HEAD from the same visitor counts');
    assert.equal((await record(site)).count, 1);
  });

  test('repeats of the same IP + user agent within the window count once; another IP or user agent counts again', async () => {
    const { site, insta } = await customLinks('/repeats');
    const url = 'https://www.acme.com/repeats';
    const ip = freshIp();
    const first = assertRedirect(await visit(h, codeOf(site), { ip, ua: CHROME }), url);
    const again1 = assertRedirect(await visit(h, codeOf(site), { ip, ua: CHROME }), url);
    const again2 = assertRedirect(await visit(h, codeOf(site), { ip, ua: CHROME }), url);
    const otherIp = assertRedirect(await visit(h, codeOf(site), { ip: freshIp(), ua: CHROME }), url);
    const otherUa = assertRedirect(await visit(h, codeOf(site), { ip, ua: FIREFOX }), url);
    const otherUaAgain = assertRedirect(await visit(h, codeOf(site), { ip, ua: FIREFOX }), url);
    // Repeats are per link: the same visitor on the other channel's link is a first click there.
    const otherLink = assertRedirect(await visit(h, codeOf(insta), { ip, ua: CHROME }), url);

    const rows = await stored(h, [first, again1, again2, otherIp, otherUa, otherUaAgain, otherLink]);
    assert.deepEqual(
      rows.map(flags),
      [HUMAN, { ...HUMAN, is_repeat: 1, counted: 0 }, { ...HUMAN, is_repeat: 1, counted: 0 }, HUMAN, HUMAN, { ...HUMAN, is_repeat: 1, counted: 0 }, HUMAN],
    );
    assert.equal((await record(site)).count, 3, 'first click, another IP, another user agent');
    assert.equal((await record(insta)).count, 1);
    assert.equal((await clicksOf(h, codeOf(site))).length, 6, 'repeats are stored, flagged, not dropped');
  });
});

describe('click velocity: one address on one link', () => {
  test('30 user agents from one address: 5 clicks count (CLICK_VELOCITY_LIMIT default), the other 25 are stored suspicious', async () => {
    const { site, insta } = await customLinks('/velocity/rotating');
    const url = 'https://www.acme.com/velocity/rotating';
    const ip = freshIp();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(assertRedirect(await visit(h, codeOf(site), { ip, ua: chrome(i) }), url));
    const rows = await stored(h, ids);
    assert.deepEqual(rows.map(allFlags), [...Array<typeof COUNTED>(5).fill(COUNTED), ...Array<typeof SUSPICIOUS>(25).fill(SUSPICIOUS)]);
    assert.equal((await record(site)).count, 5, 'only the first 5 clicks of the address count');
    assert.equal(new Set(rows.map((r) => r.visitor_hash)).size, 30, 'each user agent is another visitor: the repeat window alone would count all 30');

    // The budget is per address and per link: another address on this link, and this address on
    // another link, count.
    const otherAddress = assertRedirect(await visit(h, codeOf(site), { ua: chrome(0) }), url);
    const otherLink = assertRedirect(await visit(h, codeOf(insta), { ip, ua: chrome(30) }), url);
    assert.deepEqual((await stored(h, [otherAddress, otherLink])).map(allFlags), [COUNTED, COUNTED]);
    assert.equal((await record(site)).count, 6);
    assert.equal((await record(insta)).count, 1);
  });

  test('bots, HEAD requests and repeats from the address do not use up its budget', async () => {
    const { site } = await customLinks('/velocity/budget');
    const url = 'https://www.acme.com/velocity/budget';
    const ip = freshIp();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(assertRedirect(await visit(h, codeOf(site), { ip, ua: BOT_AGENTS.googlebot }), url));
    for (let i = 0; i < 2; i++) ids.push(assertRedirect(await visit(h, codeOf(site), { ip, ua: chrome(0), method: 'HEAD' }), url));
    for (let i = 0; i < 4; i++) ids.push(assertRedirect(await visit(h, codeOf(site), { ip, ua: chrome(0) }), url));
    for (let i = 1; i <= 5; i++) ids.push(assertRedirect(await visit(h, codeOf(site), { ip, ua: chrome(i) }), url));
    const rows = await stored(h, ids);
    const BOT = { is_bot: 1, is_head: 0, is_repeat: 0, counted: 0, is_suspicious: 0 };
    const HEAD = { is_bot: 0, is_head: 1, is_repeat: 0, counted: 0, is_suspicious: 0 };
    const REPEAT = { ...COUNTED, is_repeat: 1, counted: 0 };
    assert.deepEqual(rows.map(allFlags), [BOT, BOT, BOT, HEAD, HEAD, COUNTED, REPEAT, REPEAT, REPEAT, COUNTED, COUNTED, COUNTED, COUNTED, SUSPICIOUS]);
    assert.equal((await record(site)).count, 5);
  });
});

describe('the repeat window and the velocity limit are configurable', () => {
  /** A Custom acme link on the given harness; returns its site-channel code. */
  async function linkOn(hh: Harness, key: string, path: string): Promise<string> {
    const res = await hh.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Custom', url: `https://www.acme.com${path}` }, key);
    assert.equal(res.statusCode, 200, res.body);
    return codeOf((res.json<Array<{ id: string; shortUrls: string[] }>>()).find((c) => c.id === hh.world.channels.aff1Site)!.shortUrls[0]!);
  }
  async function countOn(hh: Harness, code: string): Promise<number> {
    const row = await hh.service.database.db.selectFrom('short_links').select('click_count').where('code', '=', code).executeTakeFirstOrThrow();
    return Number(row.click_count);
  }

  test('with REPEAT_CLICK_WINDOW_SECONDS=0 every human click counts', async () => {
    const h0 = await startHarness({ REPEAT_CLICK_WINDOW_SECONDS: '0' });
    try {
      const key = (await newKey(h0, 'aff-1', { rateLimit: 100_000 })).key;
      const code = await linkOn(h0, key, '/window/zero');
      const ip = freshIp();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(assertRedirect(await visit(h0, code, { ip, ua: CHROME }), 'https://www.acme.com/window/zero'));
      // Bots and HEAD still do not count with no repeat window.
      ids.push(assertRedirect(await visit(h0, code, { ip, ua: BOT_AGENTS.googlebot }), 'https://www.acme.com/window/zero'));
      ids.push(assertRedirect(await visit(h0, code, { ip, ua: CHROME, method: 'HEAD' }), 'https://www.acme.com/window/zero'));
      const rows = await stored(h0, ids);
      assert.deepEqual(rows.slice(0, 4).map(flags), [HUMAN, HUMAN, HUMAN, HUMAN]);
      assert.equal(rows[4]!.counted, 0);
      assert.equal(rows[5]!.counted, 0);
      assert.equal(await countOn(h0, code), 4);
    } finally {
      await h0.close();
    }
  });

  test('CLICK_VELOCITY_LIMIT sets the clicks an address may count per link and hour; 0 turns the limit off', async () => {
    for (const [limit, counted] of [['2', 2], ['0', 12]] as const) {
      const hv = await startHarness({ CLICK_VELOCITY_LIMIT: limit });
      try {
        const key = (await newKey(hv, 'aff-1', { rateLimit: 100_000 })).key;
        const code = await linkOn(hv, key, `/velocity/limit-${limit}`);
        const ip = freshIp();
        const ids: string[] = [];
        for (let i = 0; i < 12; i++) ids.push(assertRedirect(await visit(hv, code, { ip, ua: chrome(i) }), `https://www.acme.com/velocity/limit-${limit}`));
        const rows = await stored(hv, ids);
        assert.deepEqual(rows.map(allFlags), [...Array<typeof COUNTED>(counted).fill(COUNTED), ...Array<typeof SUSPICIOUS>(12 - counted).fill(SUSPICIOUS)], `CLICK_VELOCITY_LIMIT=${limit}`);
        assert.equal(await countOn(hv, code), counted, `CLICK_VELOCITY_LIMIT=${limit}`);
      } finally {
        await hv.close();
      }
    }
    for (const wrong of ['-1', '2.5', 'five']) {
      assert.throws(() => loadConfig({ CLICK_VELOCITY_LIMIT: wrong }), /CLICK_VELOCITY_LIMIT must be an integer between 0 and/);
    }
  });

  test('a repeat after the window has passed counts again (REPEAT_CLICK_WINDOW_SECONDS=1)', async () => {
    const h1 = await startHarness({ REPEAT_CLICK_WINDOW_SECONDS: '1' });
    try {
      const key = (await newKey(h1, 'aff-1', { rateLimit: 100_000 })).key;
      const code = await linkOn(h1, key, '/window/one');
      const ip = freshIp();
      const first = assertRedirect(await visit(h1, code, { ip }), 'https://www.acme.com/window/one');
      // Well past the window (and past the next write of clicks, which is when repeats are decided).
      await sleep(1500);
      const later = assertRedirect(await visit(h1, code, { ip }), 'https://www.acme.com/window/one');
      const rows = await stored(h1, [first, later]);
      assert.deepEqual(rows.map(flags), [HUMAN, HUMAN], 'a click more than the window after the first counts again');
      assert.equal(await countOn(h1, code), 2);
    } finally {
      await h1.close();
    }
  });
});

describe('the clicks table', () => {
  test('each click id resolves to its link, affiliate, channel, brand, mdasc and time', async () => {
    const { site, insta } = await customLinks('/table/fields', 'camp-7');
    const t0 = new Date().toISOString();
    const siteId = assertRedirect(await visit(h, codeOf(site)), 'https://www.acme.com/table/fields?mdasc=camp-7');
    const instaId = assertRedirect(await visit(h, codeOf(insta)), 'https://www.acme.com/table/fields?mdasc=camp-7');
    const [siteRow, instaRow] = await stored(h, [siteId, instaId]);
    const t1 = new Date().toISOString();
    assert.equal(siteRow!.link_id, await linkIdOf(h, codeOf(site)));
    assert.equal(siteRow!.affiliate_id, 'aff-1');
    assert.equal(siteRow!.channel_id, h.world.channels.aff1Site);
    assert.equal(siteRow!.organization_id, BRANDS.acme);
    assert.equal(siteRow!.mdasc, 'camp-7');
    assert.equal(siteRow!.user_agent, CHROME);
    assert.ok(siteRow!.created_at >= t0 && siteRow!.created_at <= t1, `created_at ${siteRow!.created_at} is the click time (between ${t0} and ${t1})`);
    assert.equal(instaRow!.link_id, await linkIdOf(h, codeOf(insta)));
    assert.equal(instaRow!.channel_id, h.world.channels.aff1Instagram);
    assert.equal(instaRow!.mdasc, 'camp-7');

    // A link without mdasc stores none.
    const plain = await customLinks('/table/no-mdasc');
    const plainId = assertRedirect(await visit(h, codeOf(plain.site)), 'https://www.acme.com/table/no-mdasc');
    assert.equal((await stored(h, [plainId]))[0]!.mdasc, null);
  });

  test('no column holds the client IP (nor does the database file); visitors are told apart by a hash', async () => {
    const { site } = await customLinks('/table/privacy');
    const url = 'https://www.acme.com/table/privacy';
    const v4 = '203.0.113.77';
    const v6 = '2001:db8::beef:77';
    const forwarded = '192.0.2.177';
    const ids = [
      assertRedirect(await visit(h, codeOf(site), { ip: v4 }), url),
      assertRedirect(await visit(h, codeOf(site), { ip: v4 }), url),
      assertRedirect(await visit(h, codeOf(site), { ip: v6 }), url),
      assertRedirect(await visit(h, codeOf(site), { ip: freshIp(), headers: { 'x-forwarded-for': forwarded } }), url),
      assertRedirect(await visit(h, codeOf(site), { ip: v4, ua: null }), url),
    ];
    const rows = await stored(h, ids);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        for (const ip of [v4, v6, forwarded, '203.0.113', 'beef:77']) {
          assert.ok(!String(value).includes(ip), `clicks.${column} contains the client IP ${ip}: ${String(value)}`);
        }
      }
    }
    assert.equal(rows[0]!.visitor_hash, rows[1]!.visitor_hash, 'the same visitor has the same hash');
    assert.notEqual(rows[0]!.visitor_hash, rows[2]!.visitor_hash, 'another address is another visitor');
    assert.notEqual(rows[0]!.visitor_hash, rows[4]!.visitor_hash, 'another user agent is another visitor');

    // Nothing else in the database keeps it either (SQLite: file and write-ahead log, raw bytes).
    if (!h.config.databaseUrl.startsWith('sqlite:')) return;
    const path = h.config.databaseUrl.replace(/^sqlite:/, '');
    for (const file of [path, `${path}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      for (const ip of [v4, v6, forwarded]) assert.equal(bytes.indexOf(ip), -1, `${file} contains the client IP ${ip}`);
    }
  });
});

describe('unknown and inactive links', () => {
  test('an unknown code → 404 link_not_found with the error body, and nothing is stored', async () => {
    const { site } = await customLinks('/unknown');
    const before = (await allClicks(h)).length;
    for (const code of ['ZZZZZZZ9', 'abc', 'not-a-code!', `${codeOf(site)}0`]) {
      assertError(await visit(h, code), 404, 'link_not_found');
      const head = await visit(h, code, { method: 'HEAD' });
      assert.equal(head.statusCode, 404);
      assert.equal(head.headers.location, undefined);
    }
    // A click recorded after them is stored; clicks are written in order, so the 404s would be too.
    const sentinel = assertRedirect(await visit(h, codeOf(site)), 'https://www.acme.com/unknown');
    await stored(h, [sentinel]);
    assert.equal((await allClicks(h)).length, before + 1, 'a 404 stores no click');
    assert.equal((await record(site)).count, 1, 'a 404 on a longer code counts nothing on the link');
  });

  test('codes are case-sensitive: the same letters in another case are another (unknown) code', async () => {
    const { site } = await customLinks('/redirect/case');
    const code = codeOf(site);
    const swapped = [...code].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
    if (swapped === code) return; // all digits: nothing to swap
    assertError(await visit(h, swapped), 404, 'link_not_found');
  });

  test('a deactivated link answers 404, counts and stores nothing and is listed inactive; reactivated, it redirects and counts again', async () => {
    const { site, insta } = await customLinks('/inactive');
    const code = codeOf(site);
    const url = 'https://www.acme.com/inactive';
    const firstId = assertRedirect(await visit(h, code), url);
    await stored(h, [firstId]);
    assert.equal((await record(site)).count, 1, 'the link counts before deactivation');

    // What `affnet links deactivate` does, then the cache entry is dropped (a running server
    // would see it within the cache TTL instead).
    assert.ok(await new LinksRepository(h.service.database).setActive(code, false, new Date().toISOString()));
    h.service.services.tracking.forgetLink(code);

    assertError(await visit(h, code), 404, 'link_not_found');
    assertError(await visit(h, code, { ua: BOT_AGENTS.googlebot }), 404, 'link_not_found');
    const head = await visit(h, code, { method: 'HEAD' });
    assert.equal(head.statusCode, 404);
    assert.equal(head.headers.location, undefined);
    // The other channel's link is untouched; its click is the marker that everything before it is written.
    const otherId = assertRedirect(await visit(h, codeOf(insta)), url);
    await stored(h, [otherId]);
    const afterDeactivation = await record(site);
    assert.equal(afterDeactivation.active, false);
    assert.equal(afterDeactivation.count, 1, 'refused redirects must not count');
    assert.deepEqual((await clicksOf(h, code)).map((c) => c.id), [firstId], 'refused redirects must not be stored');

    assert.ok(await new LinksRepository(h.service.database).setActive(code, true, new Date().toISOString()));
    h.service.services.tracking.forgetLink(code);
    const againId = assertRedirect(await visit(h, code), url);
    assert.deepEqual(flags((await stored(h, [againId]))[0]!), HUMAN);
    const reactivated = await record(site);
    assert.equal(reactivated.active, true);
    assert.equal(reactivated.count, 2);
  });

  test('a deactivation made by another process (no cache invalidation) is seen within the cache TTL', async () => {
    const { site } = await customLinks('/inactive/ttl');
    const code = codeOf(site);
    assertRedirect(await visit(h, code), 'https://www.acme.com/inactive/ttl'); // now cached as active
    assert.ok(await new LinksRepository(h.service.database).setActive(code, false, new Date().toISOString()));
    const last = await pollUntil(() => visit(h, code), (res) => res.statusCode === 404, { timeoutMs: 3000, everyMs: 100 });
    assertError(last, 404, 'link_not_found');
    assert.ok(await new LinksRepository(h.service.database).setActive(code, true, new Date().toISOString()));
    const back = await pollUntil(() => visit(h, code), (res) => res.statusCode === 302, { timeoutMs: 3000, everyMs: 100 });
    assertRedirect(back, 'https://www.acme.com/inactive/ttl');
  });

  test('a brand changed by another process (a catalogue import) is seen within seconds: its new click id parameter is used', async () => {
    const { site } = await customLinks('/changed/param');
    const code = codeOf(site);
    assertRedirect(await visit(h, code), 'https://www.acme.com/changed/param'); // now cached with clickId
    const setParam = (param: string) =>
      h.service.database.db.updateTable('brands').set({ click_id_param: param, updated_at: new Date().toISOString() }).where('id', '=', BRANDS.acme).execute();
    await setParam('aff_click');
    try {
      const renamed = await pollUntil(() => visit(h, code), (res) => String(res.headers.location).includes('aff_click='), { timeoutMs: 3000, everyMs: 100 });
      assertRedirect(renamed, 'https://www.acme.com/changed/param', 'aff_click');
    } finally {
      await setParam('clickId');
    }
    const restored = await pollUntil(() => visit(h, code), (res) => String(res.headers.location).includes('clickId='), { timeoutMs: 3000, everyMs: 100 });
    assertRedirect(restored, 'https://www.acme.com/changed/param');
  });
});

describe('the redirect in the OpenAPI document', () => {
  test('GET /{code} is documented: path parameter, 302 with Location, 404 (and 400, 414) with the error body, no API key; /{code}/ is not a second route', async () => {
    const res = await h.request({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json<{
      paths: Record<string, Record<string, {
        tags?: string[];
        security?: unknown[];
        parameters?: Array<{ name: string; in: string; required?: boolean }>;
        responses: Record<string, { description?: string; headers?: Record<string, { description?: string; schema?: { type?: string } }>; content?: Record<string, { schema: { $ref?: string } }> }>;
      }>>;
      tags: Array<{ name: string }>;
    }>();
    const operation = doc.paths['/{code}']?.get;
    assert.ok(operation, `GET /{code} is not documented; paths: ${Object.keys(doc.paths).join(', ')}`);
    assert.deepEqual(operation.security, [], 'no API key');
    assert.ok(operation.tags?.length && operation.tags.every((tag) => doc.tags.some((t) => t.name === tag)), `tags ${String(operation.tags)} are registered`);
    assert.deepEqual(operation.parameters?.map((p) => [p.name, p.in, p.required]), [['code', 'path', true]]);
    const location = operation.responses['302']?.headers?.Location;
    assert.ok(location, 'the 302 documents its Location header');
    assert.equal(location.schema?.type, 'string');
    assert.match(String(location.description), /click id/);
    assert.match(String(location.description), /query/);
    assert.equal(operation.responses['302']!.content, undefined, 'a 302 has no body');
    // Router errors on a code-shaped path: broken percent-encoding (400), an overlong code (414).
    for (const status of ['400', '404', '414']) assert.equal(operation.responses[status]?.content?.['application/json']?.schema.$ref, '#/components/schemas/Error', status);
    assert.deepEqual(Object.keys(doc.paths).filter((path) => path.startsWith('/{code}')), ['/{code}']);
  });
});
