// GET /affiliate/feeds/products.csv and .xml: the products the caller may promote (the products
// list's visibility and filters), each with a deep link for one of its channels: the brand's one
// feed link with the product page signed in it. Following a deep link lands on the product page
// and counts as a click of that channel; a changed signature or a page off the brand's domains
// lands on the brand's home page instead. One version a day (ETag, 304); streamed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Harness } from '../helpers/harness.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { assertError, newKey, startWithKeys } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA } from '../helpers/tracking.js';

let h: Harness;
let aff1: string;
let aff2: string;
let server: Server | undefined;

before(async () => {
  ({ h, aff1, aff2 } = await startWithKeys());
  const imports = servicesFor(h.service.database).imports;
  // Pages on the brands' own domains (the world's products all point at acme.com).
  await imports.upsertProduct(productInput('p-umbrella-1', BRANDS.umbrella, 'Storm umbrella', 3000, { url: 'https://shop.umbrella.com/p/storm?size=l#specs', createdAt: '2025-03-01T00:00:00.000Z' }));
  await imports.upsertProduct(productInput('p-globex-2', BRANDS.globex, 'Noise cancelling earbuds', 18000, { url: 'https://globex.com/p/earbuds', createdAt: '2025-03-02T00:00:00.000Z' }));
});
after(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  await h.close();
});

const site = () => h.world.channels.aff1Site;

/** A CSV feed's rows as objects by column (the cells of these products hold no comma or quote). */
async function csvFeed(key: string, query: string): Promise<Array<Record<string, string>>> {
  const res = await h.get(`/affiliate/feeds/products.csv?${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  const [header, ...lines] = res.body.split('\r\n').filter(Boolean);
  const columns = header!.split(',');
  return lines.map((line) => parseCsvLine(line, columns));
}

function parseCsvLine(line: string, columns: string[]): Record<string, string> {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? '']));
}

/** Ids the products list shows the caller with `query`. */
async function listed(key: string, query = ''): Promise<string[]> {
  const res = await h.get(`/affiliate/products?limit=100${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Array<{ id: string }> }>().data.map((p) => p.id);
}

let visitor = 0;

/** Follows a deep link (or any short URL with a query) as a browser would. */
async function follow(link: string): Promise<{ status: number; location: URL | undefined }> {
  const url = new URL(link);
  visitor++;
  const res = await h.request({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': `203.0.113.${visitor}` } });
  return { status: res.statusCode, location: res.headers.location === undefined ? undefined : new URL(String(res.headers.location)) };
}

async function storedClick(clickId: string) {
  const { db } = h.service.database;
  const click = await pollUntil(
    () => db.selectFrom('clicks').selectAll().where('id', '=', clickId).executeTakeFirst(),
    (row) => row !== undefined,
  );
  assert.ok(click, `click ${clickId} stored`);
  return click;
}

describe('product feeds', () => {
  test('the CSV lists exactly the products the caller may promote, each with a deep link; another affiliate sees its own', async () => {
    const rows = await csvFeed(aff1, `channelId=${site()}`);
    assert.deepEqual(rows.map((r) => r.id), await listed(aff1));
    assert.ok(!rows.some((r) => r.id === 'p-initech-1'), 'a private brand without approval stays out');
    const boots = rows.find((r) => r.id === 'p-acme-2')!;
    assert.deepEqual(
      { organizationId: boots.organizationId, brand: boots.brand, price: boots.price, listPrice: boots.listPrice, currency: boots.currency, available: boots.available, url: boots.url },
      { organizationId: BRANDS.acme, brand: 'Acme', price: '12000', listPrice: '13000', currency: 'BRL', available: 'false', url: 'https://www.acme.com/p/p-acme-2' },
    );
    assert.match(boots.link!, /^http:\/\/go\.test\/[0-9A-Za-z]{7}\?to=https%3A%2F%2Fwww\.acme\.com%2Fp%2Fp-acme-2&sig=[\w-]{22}$/);
    // One stored link per brand: every acme product's deep link goes through the same code.
    const codes = new Set(rows.filter((r) => r.organizationId === BRANDS.acme).map((r) => new URL(r.link!).pathname));
    assert.equal(codes.size, 1);

    const theirs = await csvFeed(aff2, `channelId=${h.world.channels.aff2Whatsapp}`);
    assert.ok(theirs.some((r) => r.id === 'p-initech-1'));
    assert.ok(!theirs.some((r) => r.organizationId === BRANDS.globex));
  });

  test('a brand that takes no links from the channel is left out', async () => {
    const onSite = await csvFeed(aff1, `channelId=${site()}`);
    assert.ok(onSite.some((r) => r.id === 'p-umbrella-1'));
    const onInstagram = await csvFeed(aff1, `channelId=${h.world.channels.aff1Instagram}`);
    assert.ok(!onInstagram.some((r) => r.organizationId === BRANDS.umbrella), 'umbrella accepts only site channels');
    assert.deepEqual(
      onInstagram.map((r) => r.id),
      onSite.filter((r) => r.organizationId !== BRANDS.umbrella).map((r) => r.id),
    );
  });

  test("the list's filters apply", async () => {
    for (const query of ['&search=sneakers', '&isAvailable=false', `&organizationIds=${BRANDS.globex}`, '&price=10000:20000']) {
      const ids = (await csvFeed(aff1, `channelId=${site()}${query}`)).map((r) => r.id);
      assert.deepEqual(ids, await listed(aff1, query), query);
      assert.ok(ids.length > 0, `${query} matches something`);
    }
    assertError(await h.get(`/affiliate/feeds/products.csv?channelId=${site()}&price=5:1`, aff1), 400, 'invalid_query');
  });

  test('a deep link lands on the product page and counts as a click of the channel, with mdasc', async () => {
    const rows = await csvFeed(aff1, `channelId=${site()}&mdasc=feed-7`);
    const umbrella = rows.find((r) => r.id === 'p-umbrella-1')!;
    // The visitor's own parameters pass on, as on any link.
    const { status, location } = await follow(`${umbrella.link}&utm_source=compare`);
    assert.equal(status, 302);
    assert.equal(`${location!.origin}${location!.pathname}`, 'https://shop.umbrella.com/p/storm');
    assert.equal(location!.hash, '#specs');
    assert.equal(location!.searchParams.get('size'), 'l');
    assert.equal(location!.searchParams.get('mdasc'), 'feed-7');
    assert.equal(location!.searchParams.get('utm_source'), 'compare');
    assert.equal(location!.searchParams.get('to'), null);
    assert.equal(location!.searchParams.get('sig'), null);
    const clickId = location!.searchParams.get('clickId')!;
    const click = await storedClick(clickId);
    assert.deepEqual(
      { affiliate: click.affiliate_id, channel: click.channel_id, brand: click.organization_id, mdasc: click.mdasc, counted: click.counted },
      { affiliate: 'aff-1', channel: site(), brand: BRANDS.umbrella, mdasc: 'feed-7', counted: 1 },
    );
    // The same product on another channel: a link of its own, counted for that channel.
    const insta = (await csvFeed(aff1, `channelId=${h.world.channels.aff1Instagram}`)).find((r) => r.id === 'p-acme-1')!;
    const other = await follow(insta.link!);
    assert.equal(other.location!.pathname, '/p/p-acme-1');
    assert.equal((await storedClick(other.location!.searchParams.get('clickId')!)).channel_id, h.world.channels.aff1Instagram);
  });

  test('a changed signature or URL, or a page off the brand domains, lands on the brand home page instead', async () => {
    const rows = await csvFeed(aff1, `channelId=${site()}`);
    const link = new URL(rows.find((r) => r.id === 'p-acme-1')!.link!);
    const sig = link.searchParams.get('sig')!;
    const tampered = [
      `${link.origin}${link.pathname}?to=${encodeURIComponent('https://www.acme.com/p/p-acme-2')}&sig=${sig}`,
      `${link.origin}${link.pathname}?to=${encodeURIComponent('https://evil.example/p-acme-1')}&sig=${sig}`,
      `${link.origin}${link.pathname}?to=${encodeURIComponent('https://www.acme.com/p/p-acme-1')}&sig=${sig.slice(0, -2)}AA`,
      `${link.origin}${link.pathname}?to=${encodeURIComponent('https://www.acme.com/p/p-acme-1')}`,
    ];
    for (const attempt of tampered) {
      const { status, location } = await follow(attempt);
      assert.equal(status, 302, attempt);
      assert.equal(`${location!.origin}${location!.pathname}`, 'https://www.acme.com/', attempt);
      assert.ok(location!.searchParams.get('clickId'), 'still a click of the link');
    }
    // Another brand's feed link does not take acme's signature either.
    const globexLink = new URL(rows.find((r) => r.id === 'p-globex-2')!.link!);
    const moved = await follow(`${globexLink.origin}${globexLink.pathname}?to=${encodeURIComponent('https://www.acme.com/p/p-acme-1')}&sig=${sig}`);
    assert.equal(`${moved.location!.origin}${moved.location!.pathname}`, 'https://globex.com/');
    // A product whose page is not on its brand's domains is signed, but not followed there.
    const offDomain = rows.find((r) => r.id === 'p-globex-1')!;
    assert.equal(offDomain.url, 'https://www.acme.com/p/p-globex-1');
    const landed = await follow(offDomain.link!);
    assert.equal(`${landed.location!.origin}${landed.location!.pathname}`, 'https://globex.com/');
    // The genuine link still works.
    assert.equal((await follow(link.href)).location!.pathname, '/p/p-acme-1');
  });

  test("another affiliate's channel, or an unknown one, is refused", async () => {
    for (const format of ['csv', 'xml']) {
      assertError(await h.get(`/affiliate/feeds/products.${format}?channelId=${h.world.channels.aff2Whatsapp}`, aff1), 404, 'channel_not_found');
      assertError(await h.get(`/affiliate/feeds/products.${format}?channelId=nope`, aff1), 404, 'channel_not_found');
      assertError(await h.get(`/affiliate/feeds/products.${format}`, aff1), 400);
    }
  });

  test('a read-only key may come in the feed’s URL, for tools given only a URL; a key that can write is refused there, and no other route reads a key from the URL', async () => {
    const readOnly = (await newKey(h, 'aff-1', { scopes: ['products:read'] })).key;
    const query = `channelId=${site()}&isAvailable=true`;
    const byHeader = await h.get(`/affiliate/feeds/products.csv?${query}`, aff1);
    const inUrl = await h.request({ method: 'GET', url: `/affiliate/feeds/products.csv?${query}&key=${encodeURIComponent(readOnly)}` });
    assert.equal(inUrl.statusCode, 200, inUrl.body);
    assert.equal(inUrl.body, byHeader.body, 'the same feed as with the header');
    assert.equal((await h.request({ method: 'GET', url: `/affiliate/feeds/products.xml?${query}&key=${encodeURIComponent(readOnly)}` })).statusCode, 200);
    const writing = await h.request({ method: 'GET', url: `/affiliate/feeds/products.csv?${query}&key=${encodeURIComponent(aff1)}` });
    assert.match(assertError(writing, 403, 'key_not_read_only').message, /only read/);
    assertError(await h.request({ method: 'GET', url: `/affiliate/feeds/products.csv?${query}&key=afn_unknown0000000000` }), 401, 'unauthorized');
    assertError(await h.request({ method: 'GET', url: `/affiliate/feeds/products.csv?${query}&key=${encodeURIComponent(readOnly)}&key=${encodeURIComponent(readOnly)}` }), 400, 'invalid_query');
    assertError(await h.request({ method: 'GET', url: `/affiliate/products?key=${encodeURIComponent(readOnly)}` }), 401, 'unauthorized');
  });

  test('the XML feed is Google Merchant Center RSS with the same products and links', async () => {
    const res = await h.get(`/affiliate/feeds/products.xml?channelId=${site()}&mdasc=a%26b`, aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/xml; charset=utf-8/);
    assert.match(res.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<rss version="2\.0" xmlns:g="http:\/\/base\.google\.com\/ns\/1\.0">\n<channel>/);
    assert.match(res.body, /<\/channel>\n<\/rss>\n$/);
    const items = [...res.body.matchAll(/<item>(.*?)<\/item>/g)].map((m) => m[1]!);
    const ids = items.map((item) => /<g:id>[^:]+:(.*?)<\/g:id>/.exec(item)![1]);
    assert.deepEqual(ids, await listed(aff1));
    const sneakers = items.find((item) => item.includes(`<g:id>${BRANDS.acme}:p-acme-1</g:id>`))!;
    assert.match(sneakers, /<g:title>Red running sneakers<\/g:title>/);
    assert.match(sneakers, /<g:description>&lt;p&gt;Red running sneakers description&lt;\/p&gt;<\/g:description>/);
    assert.match(sneakers, /<g:price>60\.00 BRL<\/g:price><g:sale_price>50\.00 BRL<\/g:sale_price>/);
    assert.match(sneakers, /<g:availability>in_stock<\/g:availability>/);
    assert.match(sneakers, /<g:brand>Acme<\/g:brand>/);
    const link = /<g:link>(.*?)<\/g:link>/.exec(sneakers)![1]!.replace(/&amp;/g, '&');
    const { location } = await follow(link);
    assert.equal(location!.pathname, '/p/p-acme-1');
    assert.equal(location!.searchParams.get('mdasc'), 'a&b');
  });

  test('one version a day: If-None-Match with the ETag answers 304; another query has another ETag', async () => {
    for (const format of ['csv', 'xml']) {
      const url = `/affiliate/feeds/products.${format}?channelId=${site()}`;
      const first = await h.get(url, aff1);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[\w-]+"$/);
      assert.match(String(first.headers['cache-control']), /^private, max-age=\d+$/);
      const again = await h.request({ method: 'GET', url, headers: { 'x-api-key': aff1, 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      const filtered = await h.request({ method: 'GET', url: `${url}&isAvailable=true`, headers: { 'x-api-key': aff1, 'if-none-match': etag } });
      assert.equal(filtered.statusCode, 200);
      assert.notEqual(filtered.headers.etag, etag);
      const theirs = await h.request({ method: 'GET', url: `/affiliate/feeds/products.${format}?channelId=${h.world.channels.aff2Whatsapp}`, headers: { 'x-api-key': aff2, 'if-none-match': etag } });
      assert.equal(theirs.statusCode, 200);
    }
  });

  test('a feed of thousands of products streams in pieces, every product once', async () => {
    const { db } = h.service.database;
    const many = 3_000;
    const template = await db.selectFrom('products').selectAll().where('id', '=', 'p-acme-1').executeTakeFirstOrThrow();
    const { seq: _seq, search: _search, ...columns } = template as typeof template & { search?: unknown };
    for (let from = 0; from < many; from += 500) {
      const rows = Array.from({ length: Math.min(500, many - from) }, (_, i) => ({ ...columns, id: `bulk-${from + i}`, name: `Bulk item ${from + i}`, url: `https://www.acme.com/p/bulk-${from + i}` }));
      await db.insertInto('products').values(rows).execute();
    }
    if (!server) {
      await h.service.app.ready();
      server = createServer(h.service.handler);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    }
    const { port } = server.address() as AddressInfo;
    const { headers, chunks, body } = await new Promise<{ headers: Record<string, unknown>; chunks: number; body: string }>((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port, path: `/affiliate/feeds/products.csv?channelId=${site()}&organizationIds=${BRANDS.acme}`, headers: { 'x-api-key': aff1 } }, (res) => {
        let text = '';
        let count = 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          count++;
        });
        res.on('end', () => resolve({ headers: res.headers, chunks: count, body: text }));
        res.on('error', reject);
      }).on('error', reject);
    });
    // Sent as it is read: no length known beforehand, in many pieces.
    assert.equal(headers['content-length'], undefined);
    assert.equal(headers['transfer-encoding'], 'chunked');
    assert.ok(chunks > 1, `${chunks} chunk(s)`);
    const ids = body.split('\r\n').filter(Boolean).slice(1).map((line) => line.split(',')[0]!);
    const bulk = ids.filter((id) => id.startsWith('bulk-'));
    assert.equal(bulk.length, many);
    assert.equal(new Set(ids).size, ids.length, 'no product twice across batches');
    assert.deepEqual(bulk.slice(0, 2), [`bulk-${many - 1}`, `bulk-${many - 2}`], 'newest first');
  });
});
