// A brand's catalogue from its Google Merchant Center feed: a feed of 10,000 items served on
// loopback is fetched on the job runner, its items become products (options by item_group_id),
// and each run has its report; a later run makes the items gone unavailable, unless it holds too
// few of them, ends early or is not a feed; uploads run a copy; a brand never sees another's feeds;
// a server sending a byte a second holds one run of its brand until FEED_FETCH_TIMEOUT_MS.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError } from '../helpers/api.js';
import { brandKey } from '../helpers/tracking.js';
import { googleXml, groupOf, inStock, itemXml, priceOf, startFeedServer, trickled, type FeedServer } from '../helpers/feeds.js';
import { pollUntil } from '../helpers/wait.js';

interface Run {
  id: string;
  feedId: string;
  status: string;
  reason?: string;
  source: string;
  items: number;
  bytes: number;
  added: number;
  updated: number;
  unchanged: number;
  madeUnavailable: number;
  refused: number;
  refusals: Array<{ line?: number; item?: string; reason: string }>;
}
interface Option {
  id: string;
  available: boolean;
  ean: string;
  pricing: Array<{ price: number; listPrice: number }>;
  images: Array<{ url: string }>;
}

const ITEMS = 10_000;
/** Products of the 10,000 items: 1,000 groups of three options, 7,000 items alone. */
const PRODUCTS = ITEMS / 10 + ITEMS * 0.7;

let h: Harness;
let feeds: FeedServer;
let acme: string;
let globex: string;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' });
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  feeds = await startFeedServer();
});
after(async () => {
  await feeds.close();
  await h.close();
});

const headers = (key: string) => ({ 'x-api-key': key });
const putFeed = (key: string, id: string, payload: object) => h.request({ method: 'PUT', url: `/advertiser/feeds/${id}`, headers: headers(key), payload });
const runFeeds = () => h.service.services.jobs.runOnce('feeds');
const lastRun = async (key: string, feed: string): Promise<Run> => {
  const res = await h.get(`/advertiser/feeds/${feed}/runs?limit=1`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Run[] }>().data[0]!;
};
const upload = (key: string, feed: string, body: string | Buffer, contentType = 'application/xml') =>
  h.request({ method: 'POST', url: `/advertiser/feeds/${feed}/runs`, headers: { ...headers(key), 'content-type': contentType }, payload: body });
/** The brand's products (or its available ones), counted in the database: list totals may be remembered for a few seconds. */
const countOf = async (available?: boolean) => {
  let q = h.service.database.db.selectFrom('products').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', BRANDS.acme);
  if (available !== undefined) q = q.where('available', '=', available ? 1 : 0);
  return Number((await q.executeTakeFirstOrThrow()).n);
};
const small = (items: string[]) => `<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>${items.join('')}</channel></rss>`;

test('a long run shows how far it got while it runs', async () => {
  // 2,000 items, the last 1,000 held back until the report has shown the first ones written.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  async function* slowFeed(): AsyncGenerator<string> {
    let sent = 0;
    for await (const piece of googleXml({ items: 2_000 })) {
      yield piece;
      sent += (piece.match(/<item>/g) ?? []).length;
      if (sent >= 1_000 && sent - (piece.match(/<item>/g) ?? []).length < 1_000) await held;
    }
  }
  feeds.serve('/slow.xml', { body: slowFeed });
  const saved = await putFeed(globex, 'slow', { url: feeds.url('/slow.xml'), format: 'google-xml', schedule: 'daily' });
  assert.equal(saved.statusCode, 201, saved.body);
  const running = runFeeds();
  let seen: Run | undefined;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const res = await h.get('/advertiser/feeds/slow/runs?limit=1', globex);
    seen = res.json<{ data: Run[] }>().data[0];
    if (seen && seen.items > 0) break;
  }
  release();
  assert.equal(seen?.status, 'running', 'read before the rest was sent');
  assert.ok(seen.items >= 500 && seen.items <= 1_000, `items so far: ${seen.items}`);
  assert.ok(seen.added > 0 && seen.bytes > 0, JSON.stringify(seen));
  assert.equal(await running, 1);
  const done = await lastRun(globex, 'slow');
  assert.equal(done.status, 'complete', done.reason);
  assert.equal(done.items, 2_000);
  const removed = await h.request({ method: 'DELETE', url: '/advertiser/feeds/slow', headers: headers(globex) });
  assert.equal(removed.statusCode, 204, removed.body);
});

describe('a Google XML feed of 10,000 items', () => {
  let before_: { all: number; available: number };
  test('is fetched at once when created, and its items become products with their options', async () => {
    before_ = { all: await countOf(), available: await countOf(true) };
    feeds.serve('/feed.xml', { body: () => googleXml({ items: ITEMS }) });
    const created = await putFeed(acme, 'main', { url: feeds.url('/feed.xml'), format: 'google-xml', schedule: 'daily' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json<{ data: { id: string; schedule: string } }>().data.schedule, 'daily');
    assert.equal(await runFeeds(), 1);
    const run = await lastRun(acme, 'main');
    assert.equal(run.status, 'complete', run.reason);
    assert.equal(run.source, 'fetch');
    assert.equal(run.items, ITEMS);
    assert.equal(run.added, PRODUCTS);
    assert.equal(run.refused, 0);
    assert.equal(run.madeUnavailable, 0);
    assert.equal(await countOf(), before_.all + PRODUCTS);

    const feed = (await h.get('/advertiser/feeds/main', acme)).json<{ data: { lastRun: Run; nextRunAt: string } }>().data;
    assert.equal(feed.lastRun.id, run.id);
    // Done: due again a day later, not now.
    assert.equal(await runFeeds(), 0);
  });

  test('options of a group, prices in cents, sale price and availability', async () => {
    const rows = await h.service.database.db.selectFrom('products').select(['id', 'options', 'available', 'price_cents', 'images']).where('organization_id', '=', BRANDS.acme).where('id', 'in', ['group-0', 'item-5', 'item-14']).execute();
    const byId = new Map(rows.map((row) => [row.id, { ...row, options: JSON.parse(row.options) as Option[], images: JSON.parse(row.images) as Array<{ url: string }> }]));
    const group = byId.get('group-0')!;
    assert.deepEqual(group.options.map((o) => o.id), ['item-0', 'item-1', 'item-2']);
    // item-0 is out of stock (every seventh), the others are not: the product is available.
    assert.deepEqual(group.options.map((o) => o.available), [false, true, true]);
    assert.equal(group.available, 1);
    // item-0 is on sale (every fifth): five units off its regular price.
    assert.deepEqual(group.options[0]!.pricing[0], { listPrice: priceOf(0).cents, price: priceOf(0).cents - 500, metadata: [] });
    assert.equal(group.options[1]!.pricing[0]!.price, priceOf(1).cents);
    const single = byId.get('item-5')!;
    assert.equal(single.options.length, 1);
    assert.equal(single.options[0]!.ean, String(7890000000005));
    assert.deepEqual(single.images.map((i) => i.url), ['https://cdn.example.com/5.jpg', 'https://cdn.example.com/5-b.jpg']);
    assert.equal(single.price_cents, priceOf(5).cents - 500);
    assert.equal(byId.get('item-14')!.available, 0, 'item-14 is out of stock');
    assert.equal(groupOf(14), undefined);
    assert.equal(inStock(14), false);
  });

  test('a second run, sent gzip-encoded, with 500 items gone makes them unavailable, and leaves the rest unchanged', async () => {
    // 500 items alone and in stock, gone from the shop.
    const gone = new Set<number>();
    for (let i = 0; gone.size < 500; i++) if (!groupOf(i) && inStock(i)) gone.add(i);
    // Compressed, the bytes are read ahead of the parser while it waits for a batch to be written.
    feeds.serve('/feed-2.xml', { headers: { 'content-encoding': 'gzip' }, body: () => Readable.from(googleXml({ items: ITEMS, without: (i) => gone.has(i) })).pipe(createGzip()) });
    // A new URL: due at once.
    assert.equal((await putFeed(acme, 'main', { url: feeds.url('/feed-2.xml'), format: 'google-xml', schedule: 'daily' })).statusCode, 200);
    assert.equal(await runFeeds(), 1);
    const run = await lastRun(acme, 'main');
    assert.equal(run.status, 'complete', run.reason);
    assert.equal(run.items, ITEMS - 500);
    assert.equal(run.madeUnavailable, 500);
    assert.equal(run.unchanged, PRODUCTS - 500);
    assert.equal(run.added + run.updated, 0);
    const rows = await h.service.database.db.selectFrom('products').select(['available', 'options']).where('organization_id', '=', BRANDS.acme).where('id', 'in', [...gone].map((i) => `item-${i}`)).execute();
    assert.equal(rows.length, 500, 'made unavailable, not deleted');
    assert.ok(rows.every((row) => row.available === 0 && (JSON.parse(row.options) as Option[]).every((o) => !o.available)));
  });

  test('a run holding fewer than FEED_MIN_SHARE_PERCENT of the last complete run’s items makes nothing unavailable', async () => {
    const available = await countOf(true);
    feeds.serve('/feed-3.xml', { body: () => googleXml({ items: 4000 }) });
    await putFeed(acme, 'main', { url: feeds.url('/feed-3.xml'), format: 'google-xml', schedule: 'hourly' });
    assert.equal(await runFeeds(), 1);
    const run = await lastRun(acme, 'main');
    assert.equal(run.status, 'failed');
    assert.match(run.reason!, /fewer than 50% of the last complete run's 9500.*FEED_MIN_SHARE_PERCENT.*nothing was made unavailable/);
    assert.equal(run.madeUnavailable, 0);
    // The items it held were written (those gone before are back); none it lacked was made unavailable.
    assert.equal(await countOf(true), available + 500);
    const last = await h.service.database.db.selectFrom('products').select('available').where('organization_id', '=', BRANDS.acme).where('id', '=', 'item-9998').executeTakeFirstOrThrow();
    assert.equal(last.available, 1);
  });

  test('an HTML page, an empty answer and an error status fail the run and change nothing', async () => {
    const available = await countOf(true);
    feeds.serve('/login', { contentType: 'text/html', body: () => '<!DOCTYPE html><html><body>Sign in</body></html>' });
    feeds.serve('/empty.xml', { body: () => '' });
    feeds.serve('/missing.xml', { status: 500, body: () => 'oops' });
    const reasons: string[] = [];
    for (const path of ['/login', '/empty.xml', '/missing.xml']) {
      await putFeed(acme, 'main', { url: feeds.url(path), format: 'google-xml', schedule: 'hourly' });
      assert.equal(await runFeeds(), 1);
      const run = await lastRun(acme, 'main');
      assert.equal(run.status, 'failed');
      reasons.push(run.reason!);
    }
    assert.match(reasons[0]!, /HTML page, not a feed/);
    assert.match(reasons[1]!, /answer was empty/);
    assert.match(reasons[2]!, /answered 500/);
    assert.equal(await countOf(true), available);
  });

  test('the runs are listed newest first, paged, and each can be read', async () => {
    const res = await h.get('/advertiser/feeds/main/runs?limit=2&page=1', acme);
    const { data, meta } = res.json<{ data: Run[]; meta: { total: number } }>();
    assert.equal(meta.total, 6);
    assert.match(data[0]!.reason!, /answered 500/);
    const one = await h.get(`/advertiser/feeds/main/runs/${data[1]!.id}`, acme);
    assert.equal(one.statusCode, 200);
    assert.match(one.json<{ data: Run }>().data.reason!, /answer was empty/);
  });
});

describe('uploaded runs', () => {
  before(async () => {
    assert.equal((await putFeed(acme, 'small', { url: 'https://www.acme.com/small.xml', format: 'google-xml', schedule: 'daily' })).statusCode, 201);
  });

  test('an item priced in another currency is refused with its reason; the others are taken', async () => {
    const res = await upload(acme, 'small', small([itemXml(100_001), itemXml(100_002, { currency: 'USD' }), '<item><g:id>no-price</g:id><title>x</title><link>https://www.example.com/x</link><g:availability>in_stock</g:availability></item>']));
    assert.equal(res.statusCode, 201, res.body);
    const run = res.json<{ data: Run }>().data;
    assert.equal(run.source, 'upload');
    assert.equal(run.status, 'complete', run.reason);
    assert.equal(run.items, 3);
    assert.equal(run.added, 1);
    assert.equal(run.refused, 2);
    assert.deepEqual(
      run.refusals.map(({ item, reason }) => ({ item, reason })),
      [
        { item: 'item-100002', reason: 'price is in USD; your prices are in BRL: items in another currency are refused' },
        { item: 'no-price', reason: 'price is missing' },
      ],
    );
    assert.ok(run.refusals.every((r) => typeof r.line === 'number'));
  });

  test('a gzip upload is read decompressed; TSV and CSV feeds are read by their header', async () => {
    const gz = await upload(acme, 'small', gzipSync(small([itemXml(100_001), itemXml(100_003)])), 'application/gzip');
    assert.equal(gz.statusCode, 201, gz.body);
    assert.deepEqual(pick(gz.json<{ data: Run }>().data), { status: 'complete', items: 2, added: 1, unchanged: 1, refused: 0 });

    await putFeed(acme, 'tsv', { url: 'https://www.acme.com/feed.tsv', format: 'google-tsv', schedule: 'daily' });
    const tsv = ['id\ttitle\tlink\tprice\tavailability\titem_group_id\tadditional_image_link', 't-1\tShirt "Blue" S\thttps://www.acme.com/s\t49.90 BRL\tin stock\tshirt\thttps://cdn.acme.com/1.jpg,https://cdn.acme.com/2.jpg', 't-2\tShirt M\thttps://www.acme.com/s\t49,90 BRL\tout of stock\tshirt\t'].join('\n');
    const tsvRun = (await upload(acme, 'tsv', tsv, 'text/tab-separated-values')).json<{ data: Run }>().data;
    assert.deepEqual(pick(tsvRun), { status: 'complete', items: 2, added: 1, unchanged: 0, refused: 0 });
    const shirt = await h.service.database.db.selectFrom('products').select(['name', 'options']).where('organization_id', '=', BRANDS.acme).where('id', '=', 'shirt').executeTakeFirstOrThrow();
    assert.equal(shirt.name, 'Shirt "Blue" S');
    const options = JSON.parse(shirt.options) as Option[];
    assert.deepEqual(options.map((o) => [o.id, o.available, o.pricing[0]!.price, o.images.length]), [['t-1', true, 4990, 2], ['t-2', false, 4990, 0]]);

    await putFeed(acme, 'csv', { url: 'https://www.acme.com/feed.csv', format: 'csv', schedule: 'daily' });
    const csv = 'g:id,title,link,price,availability\r\nc-1,"Mug, large",https://www.acme.com/m,19.9 BRL,in_stock\r\nc-2,Cup,https://www.acme.com/c,1.999 BRL,in_stock\r\n';
    const csvRun = (await upload(acme, 'csv', csv, 'text/csv')).json<{ data: Run }>().data;
    assert.deepEqual(pick(csvRun), { status: 'complete', items: 2, added: 1, unchanged: 0, refused: 1 });
    assert.deepEqual(csvRun.refusals, [{ line: 3, item: 'c-2', reason: 'price "1.999 BRL" has more decimals than BRL has (2)' }]);
  });

  test('a feed in the encoding its XML declaration names (ISO-8859-1) is read as such; one it cannot read fails its run saying so', async () => {
    await putFeed(acme, 'latin', { url: 'https://www.acme.com/latin.xml', format: 'google-xml', schedule: 'daily' });
    const item = '<item><g:id>lat-1</g:id><title>Camiseta Algodão Açaí</title><link>https://www.acme.com/l</link><g:price>29.90 BRL</g:price><g:availability>in_stock</g:availability></item>';
    const latin = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>${item}</channel></rss>`, 'latin1');
    const res = await upload(acme, 'latin', latin);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(pick(res.json<{ data: Run }>().data), { status: 'complete', items: 1, added: 1, unchanged: 0, refused: 0 });
    const stored = await h.service.database.db.selectFrom('products').select('name').where('organization_id', '=', BRANDS.acme).where('id', '=', 'lat-1').executeTakeFirstOrThrow();
    assert.equal(stored.name, 'Camiseta Algodão Açaí');
    const odd = await upload(acme, 'latin', `<?xml version="1.0" encoding="x-klingon"?><rss version="2.0"><channel>${item}</channel></rss>`);
    assert.equal(odd.statusCode, 201, odd.body);
    const failed = odd.json<{ data: Run }>().data;
    assert.equal(failed.status, 'failed');
    assert.match(failed.reason!, /encoding "x-klingon", which cannot be read/);
    assert.equal((await h.request({ method: 'DELETE', url: '/advertiser/feeds/latin', headers: { 'x-api-key': acme } })).statusCode, 204);
  });

  test('an uploaded HTML page fails its run at its first bytes, and the report is still answered', async () => {
    const page = `<!DOCTYPE html><html><body>${'<p>Sign in to continue</p>'.repeat(50_000)}</body></html>`;
    const res = await upload(acme, 'small', page, 'text/csv');
    assert.equal(res.statusCode, 201, res.body);
    const run = res.json<{ data: Run }>().data;
    assert.equal(run.status, 'failed');
    assert.match(run.reason!, /HTML page, not a feed/);
    assert.equal(run.madeUnavailable, 0);
  });

  test('an upload in another content type is refused with 415', async () => {
    assertError(await upload(acme, 'small', '{}', 'application/json'), 415, 'unsupported_media_type');
  });

  test('a DOCTYPE with entities (a billion laughs) is refused and nothing is expanded or written', async () => {
    const laughs = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`)].join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE rss [${laughs}]><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:id>bomb</g:id><title>&lol9;</title><link>https://www.example.com/b</link><g:price>1.00 BRL</g:price><g:availability>in_stock</g:availability></item></channel></rss>`;
    const run = (await upload(acme, 'small', bomb)).json<{ data: Run }>().data;
    assert.equal(run.status, 'failed');
    assert.match(run.reason!, /DOCTYPE/);
    assert.equal(run.items, 0);
    // Without a DOCTYPE, an entity nobody declared is not well-formed XML, never text.
    const undeclared = (await upload(acme, 'small', small(['<item><g:id>e</g:id><title>&lol9;</title></item>']))).json<{ data: Run }>().data;
    assert.equal(undeclared.status, 'failed');
    assert.match(undeclared.reason!, /not well-formed XML/);
    const bombs = await h.service.database.db.selectFrom('products').select('id').where('id', 'in', ['bomb', 'e']).execute();
    assert.deepEqual(bombs, []);
  });
});

describe('isolation', () => {
  test('a brand never sees, runs or deletes another brand’s feeds and runs', async () => {
    const runId = (await lastRun(acme, 'main')).id;
    assert.deepEqual((await h.get('/advertiser/feeds', globex)).json<{ data: unknown[] }>().data, []);
    assertError(await h.get('/advertiser/feeds/main', globex), 404, 'feed_not_found');
    assertError(await h.get('/advertiser/feeds/main/runs', globex), 404, 'feed_not_found');
    assertError(await h.get(`/advertiser/feeds/main/runs/${runId}`, globex), 404, 'run_not_found');
    assertError(await upload(globex, 'main', small([itemXml(1)])), 404, 'feed_not_found');
    assertError(await h.request({ method: 'DELETE', url: '/advertiser/feeds/main', headers: headers(globex) }), 404, 'feed_not_found');
    // Its own feed of the same id is another feed.
    assert.equal((await putFeed(globex, 'main', { url: 'https://www.globex.com/feed.xml', format: 'google-xml', schedule: 'daily' })).statusCode, 201);
    assert.equal((await h.get('/advertiser/feeds/main', acme)).json<{ data: { url: string } }>().data.url, feeds.url('/missing.xml'));
    const acmeFeeds = (await h.get('/advertiser/feeds', acme)).json<{ data: Array<{ id: string }> }>().data.map((f) => f.id);
    assert.deepEqual(acmeFeeds, ['csv', 'main', 'small', 'tsv']);
  });

  test('deleting a feed keeps its products, no longer the feed’s', async () => {
    const res = await h.request({ method: 'DELETE', url: '/advertiser/feeds/csv', headers: headers(acme) });
    assert.equal(res.statusCode, 204);
    assertError(await h.get('/advertiser/feeds/csv', acme), 404, 'feed_not_found');
    const mug = await h.service.database.db.selectFrom('products').select(['feed_id', 'available']).where('organization_id', '=', BRANDS.acme).where('id', '=', 'c-1').executeTakeFirstOrThrow();
    assert.deepEqual(mug, { feed_id: null, available: 1 });
  });

  test('a URL that is not https is refused', async () => {
    assertError(await putFeed(acme, 'ftp', { url: 'ftp://www.acme.com/feed.xml', format: 'google-xml', schedule: 'daily' }), 400, 'invalid_url');
    assertError(await putFeed(acme, 'bad', { url: 'https://www.acme.com/feed.xml', format: 'json', schedule: 'daily' }), 400);
  });
});

describe('a feed server sending a byte a second', () => {
  /** FEED_FETCH_TIMEOUT_MS here: long enough for a small feed's whole run on a busy machine. */
  const TIMEOUT_S = 5;
  let slow: Harness;
  let server: FeedServer;
  let acmeKey: string;
  let globexKey: string;
  before(async () => {
    slow = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', FEED_FETCH_TIMEOUT_MS: String(TIMEOUT_S * 1000) });
    server = await startFeedServer();
    acmeKey = await brandKey(slow, BRANDS.acme);
    globexKey = await brandKey(slow, BRANDS.globex);
  });
  after(async () => {
    await server.close();
    await slow.close();
  });

  const put = async (key: string, id: string, path: string) => {
    const res = await slow.request({ method: 'PUT', url: `/advertiser/feeds/${id}`, headers: headers(key), payload: { url: server.url(path), format: 'google-xml', schedule: 'daily' } });
    assert.equal(res.statusCode, 201, res.body);
  };
  const runs = async (key: string, feed: string): Promise<Run[]> => {
    const res = await slow.get(`/advertiser/feeds/${feed}/runs`, key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ data: Run[] }>().data;
  };

  test('holds one run of its brand until FEED_FETCH_TIMEOUT_MS fails it saying why; another brand’s new feed runs meanwhile', async () => {
    server.serve('/trickle.xml', { body: () => trickled() });
    server.serve('/quick.xml', { body: () => small([itemXml(1), itemXml(2)]) });
    // Two of Acme's feeds at the slow server: one runs, the other waits for it (a brand's runs go one at a time).
    await put(acmeKey, 'slow-a', '/trickle.xml');
    await put(acmeKey, 'slow-b', '/trickle.xml');
    const acmeRuns = slow.service.services.jobs.runOnce('feeds');
    const started = await pollUntil(async () => [...(await runs(acmeKey, 'slow-a')), ...(await runs(acmeKey, 'slow-b'))], (seen) => seen.length > 0);
    assert.deepEqual(started.map((run) => run.status), ['running']);

    await put(globexKey, 'quick', '/quick.xml');
    assert.equal(await slow.service.services.jobs.runOnce('feeds'), 1, 'Globex’s feed runs while Acme’s is under way');
    const [quick] = await runs(globexKey, 'quick');
    assert.deepEqual([quick?.status, quick?.items], ['complete', 2]);
    const held = [...(await runs(acmeKey, 'slow-a')), ...(await runs(acmeKey, 'slow-b'))];
    assert.deepEqual(held.map((run) => run.status), ['running'], 'Acme’s first run still under way, its second not begun');

    // From now on the server answers at once: Acme's other feed runs once the first is cut off.
    server.serve('/trickle.xml', { body: () => small([itemXml(3)]) });
    assert.equal(await acmeRuns, 2);
    const [first] = await runs(acmeKey, started[0]!.feedId);
    assert.equal(first?.id, started[0]!.id);
    assert.equal(first?.status, 'failed');
    assert.equal(first?.reason, `the feed stopped before its end: the whole feed did not come within ${TIMEOUT_S} s`);
    const [second] = await runs(acmeKey, started[0]!.feedId === 'slow-a' ? 'slow-b' : 'slow-a');
    assert.deepEqual([second?.status, second?.items], ['complete', 1]);
  });
});

function pick(run: Run) {
  return { status: run.status, items: run.items, added: run.added, unchanged: run.unchanged, refused: run.refused };
}
