// Helpers for the tracking loop: brand keys, short links, browser clicks that yield click ids,
// conversions reported by brands, and snapshots of what the order tables hold.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import type { Harness } from './harness.js';
import { codeOf } from './api.js';
import type { Conversion } from '../../src/schemas/conversion.js';
import type { Order as AffiliateOrder, OrderItem as Item } from '../../src/schemas/order.js';
import { servicesFor } from './databases.js';
import { pollUntil } from './wait.js';
import { openRepositories } from '../../src/storage/repositories/index.js';

export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

// Response types come from the service's own schemas, so tests and contract cannot drift apart.
export type { OrderItem as Item } from '../../src/schemas/order.js';
export type { Conversion } from '../../src/schemas/conversion.js';
export type { Order as AffiliateOrder } from '../../src/schemas/order.js';

/** A brand key with a high rate limit (the default of 60 a minute would interfere). */
export async function brandKey(h: Harness, brandId: string): Promise<string> {
  return (await servicesFor(h.service.database).access.createApiKey({ brandId, rateLimit: 100_000 })).key;
}

let linkSeq = 0;

/**
 * Creates a link for the affiliate on the brand and returns the code of the link on the given
 * channel (or the only channel that got one).
 */
export async function createLink(
  h: Harness,
  affiliateKey: string,
  brandId: string,
  options: { mdasc?: string; channelId?: string; type?: 'Custom' | 'Home'; url?: string } = {},
): Promise<{ code: string; shortUrl: string; channelId: string }> {
  const type = options.type ?? 'Home';
  const body: Record<string, unknown> = { organizationId: brandId, type };
  if (type === 'Custom') body.url = options.url ?? `https://www.acme.com/track/${++linkSeq}`;
  if (options.mdasc !== undefined) body.mdasc = options.mdasc;
  const res = await h.post('/affiliate/shortener/url', body, affiliateKey);
  assert.equal(res.statusCode, 200, res.body);
  const channels = res.json<Array<{ id: string; shortUrls: string[] }>>();
  const withLinks = channels.filter((c) => c.shortUrls.length > 0 && (!options.channelId || c.id === options.channelId));
  assert.ok(withLinks.length > 0, `no link created: ${res.body}`);
  const channel = withLinks[0]!;
  return { code: codeOf(channel.shortUrls[0]!), shortUrl: channel.shortUrls[0]!, channelId: channel.id };
}

let visitor = 0;

/** Follows the short link as a person would (browser user agent); returns the click id and the Location. */
/** `query`: the visitor's query string (e.g. a tracker's sub-ids), without '?'. */
export async function clickLink(h: Harness, code: string, clickIdParam = 'clickId', query?: string): Promise<{ clickId: string; location: URL }> {
  // A distinct IP per click, so no click is a repeat of another (repeats still get click ids, but
  // this keeps every click a plain, counted human click).
  visitor++;
  const res = await h.request({
    method: 'GET',
    url: query === undefined ? `/${code}` : `/${code}?${query}`,
    headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': `198.51.${(visitor >> 8) & 255}.${visitor & 255}` },
  });
  assert.equal(res.statusCode, 302, res.body);
  const location = new URL(String(res.headers.location));
  const clickId = location.searchParams.get(clickIdParam);
  assert.ok(clickId, `no ${clickIdParam} in ${res.headers.location}`);
  return { clickId, location };
}

/**
 * Follows the short link with the given request facts (user agent, method, client address), as a
 * crawler, a link checker or a click farm would; returns the click id the redirect carries.
 */
export async function clickAs(h: Harness, code: string, visit: { userAgent?: string; method?: 'GET' | 'HEAD'; ip?: string }): Promise<string> {
  const res = await h.request({
    method: visit.method ?? 'GET',
    url: `/${code}`,
    headers: { 'user-agent': visit.userAgent ?? BROWSER_UA },
    ...(visit.ip ? { remoteAddress: visit.ip } : {}),
  });
  assert.equal(res.statusCode, 302, res.body);
  const clickId = new URL(String(res.headers.location)).searchParams.get('clickId');
  assert.ok(clickId, `no clickId in ${res.headers.location}`);
  return clickId;
}

/** A link of the affiliate on the brand, clicked once: the click id to report conversions with. */
export async function freshClick(h: Harness, affiliateKey: string, brandId: string, options: Parameters<typeof createLink>[3] = {}): Promise<string> {
  const { code } = await createLink(h, affiliateKey, brandId, options);
  return (await clickLink(h, code)).clickId;
}

export const item = (price: number, quantity = 1, id = 'sku-1'): Item => ({ id, name: `Item ${id}`, quantity, price, categories: 42 });

export function report(h: Harness, key: string | undefined, body: unknown): Promise<LightMyRequestResponse> {
  return h.request({
    method: 'POST',
    url: '/advertiser/conversions',
    payload: body as object,
    headers: key ? { 'x-api-key': key } : {},
  });
}

export function patchStatus(h: Harness, key: string | undefined, orderId: string, body: unknown): Promise<LightMyRequestResponse> {
  return h.request({
    method: 'PATCH',
    url: `/advertiser/conversions/${encodeURIComponent(orderId)}`,
    payload: body as object,
    headers: key ? { 'x-api-key': key } : {},
  });
}

export function postback(h: Harness, params: Record<string, string | number | undefined>): Promise<LightMyRequestResponse> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.append(name, String(value));
  return h.request({ method: 'GET', url: `/postback?${search.toString()}` });
}

/** The conversion of a 200/201 answer. */
export function conversionOf(res: LightMyRequestResponse, status: 200 | 201): Conversion {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json<{ data: Conversion }>();
  assert.ok(body.data && typeof body.data.id === 'string', res.body);
  return body.data;
}

/** Every order and audit row, to prove a request wrote nothing (or exactly what it should). */
export async function snapshot(h: Harness): Promise<{ orders: unknown[]; events: unknown[] }> {
  const { db } = h.service.database;
  const orders = await db.selectFrom('orders').selectAll().orderBy('id').execute();
  const events = await db.selectFrom('order_events').selectAll().orderBy('id').execute();
  return { orders, events };
}

export async function ordersWithBrandOrderId(h: Harness, brandId: string, orderId: string) {
  return h.service.database.db.selectFrom('orders').selectAll().where('organization_id', '=', brandId).where('order_id', '=', orderId).execute();
}

export async function eventsOf(h: Harness, networkId: string) {
  return h.service.database.db.selectFrom('order_events').selectAll().where('order_id', '=', networkId).orderBy('id').execute();
}

/** The affiliate's view of one order (GET /affiliate/orders/{id}); asserts exactly one match. */
export async function affiliateOrder(h: Harness, affiliateKey: string, id: string): Promise<AffiliateOrder> {
  const res = await h.get(`/affiliate/orders/${encodeURIComponent(id)}`, affiliateKey);
  assert.equal(res.statusCode, 200, res.body);
  const list = res.json<Array<{ data: AffiliateOrder }>>();
  assert.equal(list.length, 1, res.body);
  return list[0]!.data;
}

/** Every order of the affiliate's list (all pages). */
export async function allAffiliateOrders(h: Harness, affiliateKey: string, query = ''): Promise<AffiliateOrder[]> {
  const out: AffiliateOrder[] = [];
  for (let page = 1; page < 1000; page++) {
    const sep = query ? '&' : '';
    const res = await h.get(`/affiliate/orders?${query}${sep}limit=100&page=${page}`, affiliateKey);
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json<Array<{ data: AffiliateOrder }>>();
    out.push(...list.map((e) => e.data));
    if (list.length < 100) break;
  }
  return out;
}

/** Makes a stored click look older (the click must already be written: flushes first). */
export async function backdateClick(h: Harness, clickId: string, createdAt: string): Promise<void> {
  await h.service.services.tracking.flushClicks();
  const result = await h.service.database.db.updateTable('clicks').set({ created_at: createdAt }).where('id', '=', clickId).executeTakeFirst();
  assert.equal(Number(result.numUpdatedRows), 1, `click ${clickId} was not stored`);
}

const HOUR = 3_600_000;
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
export const hoursAfter = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * HOUR).toISOString();

/**
 * Runs `run` against a database that answers asynchronously (each query result is delivered on a
 * later turn of the event loop), as a networked database such as PostgreSQL does. With the
 * embedded SQLite every query completes synchronously, so in-process requests sent "at once" are
 * in fact handled one after another; with this latency, concurrent requests interleave between
 * their reads and their writes, which is what concurrency tests need.
 */
export async function withDatabaseLatency<T>(h: Harness, run: () => Promise<T>): Promise<T> {
  const database = h.service.database;
  const original = database.db;
  database.db = original.withPlugin(nextTurnPlugin);
  try {
    return await run();
  } finally {
    database.db = original;
  }
}

const nextTurnPlugin: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return args.result;
  },
};

/**
 * Waits until every stored click is in its link's count and the analytics rollups (the click
 * writer adds them in the background, a few flushes after storing them), and asserts it.
 */
export async function clicksSummed(h: Harness, timeoutMs = 15_000): Promise<void> {
  const clicks = openRepositories(h.service.database).clicks;
  assert.equal(await pollUntil(() => clicks.notYetSummed(), (n) => n === 0, { timeoutMs, everyMs: 50 }), 0, "stored clicks must be added to their links' counts and the rollups");
}
