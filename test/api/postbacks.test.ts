// Postbacks through HTTP: an affiliate's tracker URL templates, requested with GET by the job
// runner on a tracker served on loopback, once per event and template, every macro filled in
// (conversion.created on a report, conversion.approved on approval, conversion.canceled,
// commission.paid on a payout); a tracker answering 500 retried and given up as webhooks are (the
// service's clock moved instead of waiting); templates refused with the place of what is wrong;
// a test sent at once; and one affiliate never reaching another's templates or deliveries.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/lib/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { affiliateOrder, brandKey, clickLink, createLink, item, patchStatus, report } from '../helpers/tracking.js';
import { givePayeeDetails, lockedIn, payMonth } from '../helpers/money.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const HOUR = 3_600_000;
type Postback = { id: string; url: string; events: string[]; brandIds?: string[]; active: boolean; createdAt: string; updatedAt: string };
type Delivery = { id: string; event: string; test: boolean; status: string; attempts: number; url?: string; responseStatus?: number; error?: string; failure?: string; at: string; nextAttemptAt?: string };
type ErrorDetails = { code: string; details?: { position?: number; macro?: string; values?: string[]; limit?: number } };

/** Every macro, each under a query parameter of its own. */
const MACROS = 'cid={click_id}&s1={sub1}&s2={sub2}&s3={sub3}&s4={sub4}&s5={sub5}&oid={order_id}&b={brand_id}&c={commission}&cc={commission_cents}&cur={currency}&st={status}&ev={event}&ts={timestamp}';

const clock = new ManualClock();
let h: Harness;
let tracker: Receiver;
let aff1: string;
let aff2: string;
let acme: string;
let seq = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', WEBHOOK_POLL_MS: '0' }, { clock });
  tracker = await startReceiver();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
});
after(async () => {
  await h.close();
  await tracker.close();
});

const send = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, key: string, payload?: object) =>
  h.request({ method, url: path, headers: { 'x-api-key': key }, ...(payload && { payload }) });

async function put(key: string, id: string, body: object, status = 201): Promise<Postback> {
  const res = await send('PUT', `/affiliate/postbacks/${id}`, key, body);
  assert.equal(res.statusCode, status, res.body);
  return res.json<{ data: Postback }>().data;
}
const remove = async (key: string, id: string) => assert.equal((await send('DELETE', `/affiliate/postbacks/${id}`, key)).statusCode, 204);
const fire = () => h.service.services.jobs.runOnce('postbacks');
const since = (count: number) => tracker.received.slice(count);
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://tracker.test').searchParams);
async function log(key: string, id: string): Promise<Delivery[]> {
  const res = await send('GET', `/affiliate/postbacks/${id}/deliveries?limit=100`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Delivery[] }>().data;
}

/** A conversion of a fresh click of the affiliate's: its brand order id and the affiliate's view of it. */
async function conversion(affiliateKey = aff1) {
  const orderId = `pb-${++seq}`;
  // A tracker's click: two sub-ids, one with a space (the postback encodes it again).
  const { code } = await createLink(h, affiliateKey, BRANDS.acme);
  const { clickId } = await clickLink(h, code, 'clickId', 'sub1=adset%207&sub2=creative-3');
  const res = await report(h, acme, { clickId, orderId, value: 10_000, items: [item(10_000)] });
  assert.equal(res.statusCode, 201, res.body);
  return { orderId, clickId, order: await affiliateOrder(h, affiliateKey, orderId) };
}

describe('postback templates', () => {
  test('are put under the id the affiliate chooses (201, then 200 replacing it), listed, read and deleted', async () => {
    const url = `${tracker.url}?cid={click_id}`;
    const created = await put(aff1, 'voluum-1', { url, events: ['conversion.created'] });
    assert.deepEqual([created.id, created.url, created.events, created.active, created.brandIds], ['voluum-1', url, ['conversion.created'], true, undefined]);
    clock.advance(1000);
    const replaced = await put(aff1, 'voluum-1', { url: `${url}&p={commission}`, events: ['conversion.approved', 'commission.paid'], brandIds: [BRANDS.acme], active: false }, 200);
    assert.equal(replaced.createdAt, created.createdAt, 'replacing keeps when it was created');
    assert.notEqual(replaced.updatedAt, created.updatedAt);
    assert.deepEqual([replaced.events, replaced.brandIds, replaced.active], [['conversion.approved', 'commission.paid'], [BRANDS.acme], false]);
    const listed = (await send('GET', '/affiliate/postbacks', aff1)).json<{ data: Postback[] }>().data;
    assert.deepEqual(listed.map((p) => p.id), ['voluum-1']);
    assert.deepEqual((await send('GET', '/affiliate/postbacks/voluum-1', aff1)).json<{ data: Postback }>().data, replaced);
    await remove(aff1, 'voluum-1');
    assertError(await send('GET', '/affiliate/postbacks/voluum-1', aff1), 404, 'postback_not_found');
    assertError(await send('DELETE', '/affiliate/postbacks/voluum-1', aff1), 404, 'postback_not_found');
    assertError(await send('PUT', '/affiliate/postbacks/has.dot', aff1, { url, events: ['conversion.created'] }), 400, 'invalid_params');
  });

  test('with an unknown macro, a brace left open or closing nothing, or a macro in the host, are refused with the offset and the macro', async () => {
    const refused = async (url: string, code: string) => {
      const body = assertError(await send('PUT', '/affiliate/postbacks/bad', aff1, { url, events: ['conversion.created'] }), 400, code) as unknown as ErrorDetails;
      return body.details ?? {};
    };
    const unknown = await refused('https://tracker.example.com/pb?cid={clickid}&p={commission}', 'unknown_macro');
    assert.deepEqual([unknown.position, unknown.macro], [35, '{clickid}']);
    const open = await refused('https://tracker.example.com/pb?cid={click_id&p=1', 'unclosed_macro');
    assert.deepEqual([open.position, open.macro], [35, '{click_id&p=1']);
    const reopened = await refused('https://tracker.example.com/pb?cid={sub1{click_id}', 'unclosed_macro');
    assert.equal(reopened.position, 35);
    const stray = await refused('https://tracker.example.com/pb?cid=click_id}', 'unclosed_macro');
    assert.deepEqual([stray.position, stray.macro], [43, '}']);
    const host = await refused('https://{brand_id}.tracker.example.com/pb', 'macro_in_host');
    assert.deepEqual([host.position, host.macro], [8, '{brand_id}']);
    assert.equal((await refused('ftp://tracker.example.com/pb', 'invalid_url')).position, 0);
    assertError(await send('PUT', '/affiliate/postbacks/bad', aff1, { url: `https://tracker.example.com/${'x'.repeat(2048)}`, events: ['conversion.created'] }), 400, 'invalid_body');
    assertError(await send('PUT', '/affiliate/postbacks/bad', aff1, { url: 'https://tracker.example.com/pb', events: ['order.created'] }), 400, 'invalid_body');
    assertError(await send('PUT', '/affiliate/postbacks/bad', aff1, { url: 'https://tracker.example.com/pb', events: [] }), 400, 'invalid_body');
    assertError(await send('GET', '/affiliate/postbacks/bad', aff1), 404, 'postback_not_found');
  });

  test('are limited to brands the affiliate may promote or has orders of', async () => {
    // Initech is private and approved for aff-2 only; the other id is no brand at all.
    const stranger = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
    const res = await send('PUT', '/affiliate/postbacks/brands', aff1, { url: `${tracker.url}?b={brand_id}`, events: ['conversion.created'], brandIds: [BRANDS.acme, BRANDS.initech, stranger] });
    const body = assertError(res, 400, 'brand_not_found') as unknown as ErrorDetails;
    assert.deepEqual(body.details?.values, [BRANDS.initech, stranger]);
    // Globex is private, approved for aff-1.
    await put(aff1, 'brands', { url: `${tracker.url}?b={brand_id}`, events: ['conversion.created'], brandIds: [BRANDS.globex] });
    const before = tracker.received.length;
    await conversion(aff1);
    await fire();
    assert.equal(since(before).length, 0, "an Acme order does not fire a postback limited to Globex's");
    await remove(aff1, 'brands');
  });

  test('are at most 10 per affiliate', async () => {
    for (let i = 0; i < 10; i++) await put(aff2, `cap-${i}`, { url: `${tracker.url}?n=${i}`, events: ['conversion.created'] });
    const body = assertError(await send('PUT', '/affiliate/postbacks/cap-10', aff2, { url: tracker.url, events: ['conversion.created'] }), 409, 'postback_limit') as unknown as ErrorDetails;
    assert.equal(body.details?.limit, 10);
    await put(aff2, 'cap-9', { url: `${tracker.url}?n=again`, events: ['conversion.created'] }, 200);
    for (let i = 0; i < 10; i++) await remove(aff2, `cap-${i}`);
  });
});

describe('postbacks fired', () => {
  test('once per event, every macro filled in: a conversion reported, approved, another canceled, and paid by a payout', async () => {
    await put(aff1, 'all', { url: `${tracker.url}?${MACROS}`, events: ['conversion.created', 'conversion.approved', 'conversion.canceled', 'commission.paid'] });
    let before = tracker.received.length;
    const { orderId, clickId, order } = await conversion(aff1);
    const createdAt = clock.iso();
    assert.equal(await fire(), 1);
    const [created] = since(before);
    assert.equal(created!.method, 'GET');
    assert.deepEqual(queryOf(created!.url), {
      cid: clickId,
      // The click's sub-ids; one it did not carry is empty, as any absent value is.
      s1: 'adset 7',
      s2: 'creative-3',
      s3: '',
      s4: '',
      s5: '',
      oid: order.id,
      b: BRANDS.acme,
      c: '7.50',
      cc: '750',
      cur: 'BRL',
      st: 'pending',
      ev: 'conversion.created',
      ts: createdAt,
    });
    assert.match(created!.url, /[?&]s1=adset%207&/, 'a sub-id is URL-encoded as it is filled in');
    assert.notEqual(order.id, orderId, "the network's order id, never the brand's own");
    assert.equal(await fire(), 0, 'a delivered event is not sent again');

    before = tracker.received.length;
    assert.equal((await patchStatus(h, acme, orderId, { status: 'approved' })).statusCode, 200);
    assert.equal(await fire(), 1);
    const approved = queryOf(since(before)[0]!.url);
    assert.deepEqual([approved.ev, approved.st, approved.oid, approved.cid], ['conversion.approved', 'approved', order.id, clickId]);

    const other = await conversion(aff1);
    before = tracker.received.length;
    assert.equal((await patchStatus(h, acme, other.orderId, { status: 'canceled' })).statusCode, 200);
    assert.equal(await fire(), 2);
    const [otherCreated, canceled] = since(before).map((r) => queryOf(r.url));
    assert.deepEqual([otherCreated!.ev, canceled!.ev, canceled!.st, canceled!.oid, canceled!.cid, canceled!.c], ['conversion.created', 'conversion.canceled', 'canceled', other.order.id, other.clickId, '7.50']);

    // The approved order billed with February's statement (beside the world's o-aff1-2), paid, and paid out.
    await lockedIn(h.service.database, [order.id], '2026-02');
    await givePayeeDetails(h, 'aff-1');
    clock.advance(49 * HOUR);
    before = tracker.received.length;
    const [payout] = await payMonth(h.service.services, '2026-02', 'aff-1');
    assert.equal(await fire(), 2, 'one commission.paid per order the payout paid');
    const paid = since(before).map((r) => queryOf(r.url));
    assert.deepEqual(paid.map((q) => q.ev), ['commission.paid', 'commission.paid']);
    const mine = paid.find((q) => q.oid === order.id)!;
    assert.deepEqual([mine.st, mine.cid, mine.c, mine.cc, mine.cur, mine.b, mine.ts], ['paid', clickId, '7.50', '750', 'BRL', BRANDS.acme, payout!.sentAt]);
    assert.equal(paid.find((q) => q.oid === 'o-aff1-2')!.cid, '', 'an order without a click of the affiliate leaves {click_id} empty');

    const entries = await log(aff1, 'all');
    assert.equal(entries.length, 6);
    assert.ok(entries.every((e) => e.status === 'delivered' && e.attempts === 1 && e.responseStatus === 200 && !e.test));
    const createdEntry = entries.find((e) => e.event === 'conversion.created' && queryOf(e.url!).oid === order.id)!;
    assert.equal(createdEntry.url, `${tracker.url}${created!.url.slice('/hooks'.length)}`, 'the URL as sent');
    assert.equal(await fire(), 0);
    await remove(aff1, 'all');
  });

  test('to a tracker answering 500 are retried with backoff, the same URL each time, and given up 24 hours after the event', async () => {
    await put(aff1, 'failing', { url: `${tracker.url}?oid={order_id}&ev={event}`, events: ['conversion.created'] });
    tracker.answers.push(...Array.from({ length: 40 }, () => 500));
    const before = tracker.received.length;
    await conversion(aff1);
    assert.equal(await fire(), 1);
    let [entry] = await log(aff1, 'failing');
    assert.deepEqual([entry!.status, entry!.attempts, entry!.responseStatus], ['pending', 1, 500]);
    assert.match(entry!.error!, /answered 500/);
    assert.ok(entry!.nextAttemptAt! > clock.iso(), 'the next attempt waits');
    assert.equal(await fire(), 0, 'a retry waits for its backoff');
    clock.advance(HOUR);
    assert.equal(await fire(), 1);
    [entry] = await log(aff1, 'failing');
    assert.deepEqual([entry!.status, entry!.attempts], ['pending', 2]);
    clock.advance(25 * HOUR);
    assert.equal(await fire(), 1);
    [entry] = await log(aff1, 'failing');
    assert.deepEqual([entry!.status, entry!.attempts, entry!.nextAttemptAt], ['failed', 3, undefined]);
    clock.advance(2 * HOUR);
    assert.equal(await fire(), 0, 'nothing more is attempted');
    const sent = since(before);
    assert.equal(sent.length, 3);
    assert.equal(new Set(sent.map((r) => r.url)).size, 1);
    tracker.answers.length = 0;
    await remove(aff1, 'failing');
  });

  test('paused: events meanwhile are not sent to it; active again, the next ones are', async () => {
    const body = { url: `${tracker.url}?oid={order_id}`, events: ['conversion.created'] };
    await put(aff1, 'paused', { ...body, active: false });
    const before = tracker.received.length;
    await conversion(aff1);
    assert.equal(await fire(), 0);
    await put(aff1, 'paused', body, 200);
    const { order } = await conversion(aff1);
    assert.equal(await fire(), 1);
    assert.deepEqual(since(before).map((r) => queryOf(r.url).oid), [order.id]);
    await remove(aff1, 'paused');
  });
});

describe('a test', () => {
  test('is sent at once with example values and answers what the tracker answered; a failing one is not retried', async () => {
    await put(aff1, 'tested', { url: `${tracker.url}?${MACROS}`, events: ['conversion.approved'], brandIds: [BRANDS.acme], active: false });
    let before = tracker.received.length;
    const res = await send('POST', '/affiliate/postbacks/tested/test', aff1);
    assert.equal(res.statusCode, 200, res.body);
    const { delivery, answer } = res.json<{ data: { delivery: Delivery; answer?: string } }>().data;
    assert.deepEqual([delivery.status, delivery.responseStatus, delivery.test, delivery.event, answer], ['delivered', 200, true, 'conversion.approved', 'ok']);
    const sent = queryOf(since(before)[0]!.url);
    assert.deepEqual(
      [sent.cid, sent.s1, sent.s5, sent.oid, sent.b, sent.c, sent.cc, sent.cur, sent.st, sent.ev],
      ['test-click', 'test-sub1', 'test-sub5', 'test-order', BRANDS.acme, '12.90', '1290', 'BRL', 'approved', 'conversion.approved'],
    );
    assert.equal(sent.ts, clock.iso());

    tracker.answers.push(500);
    clock.advance(1000);
    before = tracker.received.length;
    const failed = (await send('POST', '/affiliate/postbacks/tested/test?event=commission.paid', aff1)).json<{ data: { delivery: Delivery; answer?: string } }>().data;
    assert.deepEqual([failed.delivery.status, failed.delivery.responseStatus, failed.delivery.failure, failed.delivery.event, failed.answer], ['failed', 500, undefined, 'commission.paid', 'ok']);
    assert.equal(queryOf(since(before)[0]!.url).st, 'paid');
    clock.advance(HOUR);
    assert.equal(await fire(), 0, 'a test is never retried');
    assert.deepEqual((await log(aff1, 'tested')).map((e) => [e.test, e.status]), [[true, 'failed'], [true, 'delivered']]);
    assertError(await send('POST', '/affiliate/postbacks/tested/test?event=order.created', aff1), 400, 'invalid_query');
    await remove(aff1, 'tested');
  });

  test('of a tracker nobody answers at says it could not be reached', async () => {
    const closed = await startReceiver();
    await closed.close();
    await put(aff1, 'nobody', { url: `${closed.url}?cid={click_id}`, events: ['conversion.created'] });
    const { delivery, answer } = (await send('POST', '/affiliate/postbacks/nobody/test', aff1)).json<{ data: { delivery: Delivery; answer?: string } }>().data;
    assert.deepEqual([delivery.status, delivery.responseStatus, delivery.failure, answer], ['failed', undefined, 'unreachable', undefined]);
    assert.match(delivery.error!, /ECONNREFUSED/);
    await remove(aff1, 'nobody');
  });
});

describe('another affiliate', () => {
  test("never sees, changes, tests or reads the deliveries of another's postback, and its own of the same id is its own", async () => {
    await put(aff1, 'shared-name', { url: `${tracker.url}?who=aff1&oid={order_id}`, events: ['conversion.created'] });
    await conversion(aff1);
    await fire();
    for (const [method, path] of [
      ['GET', '/affiliate/postbacks/shared-name'],
      ['GET', '/affiliate/postbacks/shared-name/deliveries'],
      ['POST', '/affiliate/postbacks/shared-name/test'],
      ['DELETE', '/affiliate/postbacks/shared-name'],
    ] as const) {
      assertError(await send(method, path, aff2), 404, 'postback_not_found');
    }
    assert.deepEqual((await send('GET', '/affiliate/postbacks', aff2)).json<{ data: Postback[] }>().data, []);
    const theirs = await put(aff2, 'shared-name', { url: `${tracker.url}?who=aff2&oid={order_id}`, events: ['conversion.created'] });
    assert.equal(theirs.url, `${tracker.url}?who=aff2&oid={order_id}`);
    assert.deepEqual(await log(aff2, 'shared-name'), []);
    const before = tracker.received.length;
    await conversion(aff1);
    await fire();
    assert.deepEqual(since(before).map((r) => queryOf(r.url).who), ['aff1'], "aff-1's order fires aff-1's postback only");
    assert.equal((await log(aff1, 'shared-name')).length, 2);
    assert.equal((await send('GET', '/affiliate/postbacks/shared-name', aff1)).json<{ data: Postback }>().data.url, `${tracker.url}?who=aff1&oid={order_id}`);
    await remove(aff2, 'shared-name');
    await remove(aff1, 'shared-name');
  });
});

describe('the delivery log', () => {
  test('is kept for WEBHOOK_RETENTION_DAYS (30 by default), then pruned', async () => {
    await put(aff1, 'kept', { url: `${tracker.url}?oid={order_id}`, events: ['conversion.created'] });
    await conversion(aff1);
    await fire();
    assert.equal((await log(aff1, 'kept')).length, 1);
    clock.advance(29 * 24 * HOUR);
    await h.service.services.retention.postbacks.prune();
    assert.equal((await log(aff1, 'kept')).length, 1, 'kept within the 30 days');
    clock.advance(2 * 24 * HOUR);
    assert.ok((await h.service.services.retention.postbacks.prune()) >= 1);
    assert.deepEqual(await log(aff1, 'kept'), []);
    assert.equal((await send('GET', '/affiliate/postbacks/kept', aff1)).statusCode, 200, 'the postback itself stays');
    await remove(aff1, 'kept');
  });
});

describe('where a postback may go', () => {
  let strict: Harness;
  let key: string;
  before(async () => {
    // Local targets not allowed, as in production.
    // rebind.test resolves to loopback, as a hostile DNS answer would.
    strict = await startHarness({ WEBHOOK_POLL_MS: '0' }, { clock, resolveHost: async (name) => (name === 'rebind.test' ? ['127.0.0.1'] : ['93.184.216.34']) });
    key = (await newKey(strict, 'aff-1', { rateLimit: 100_000 })).key;
  });
  after(async () => {
    await strict.close();
  });

  test('http, loopback and private addresses are refused when the postback is saved', async () => {
    const putUrl = (url: string) => strict.request({ method: 'PUT', url: '/affiliate/postbacks/strict', headers: { 'x-api-key': key }, payload: { url, events: ['conversion.created'] } });
    const http = assertError(await putUrl('http://tracker.example.com/pb?cid={click_id}'), 400, 'invalid_url') as unknown as ErrorDetails;
    assert.equal(http.details?.position, 0);
    assertError(await putUrl('https://127.0.0.1/pb?cid={click_id}'), 400, 'invalid_url');
    assertError(await putUrl('https://10.1.2.3/pb'), 400, 'invalid_url');
    assertError(await putUrl('https://localhost/pb'), 400, 'invalid_url');
    assertError(await putUrl('https://user:pw@tracker.example.com/pb'), 400, 'invalid_url');
    const ok = await putUrl('https://tracker.example.com/pb?cid={click_id}');
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('a name resolving to a private address is refused when sent, saying what is wrong', async () => {
    const saved = await strict.request({ method: 'PUT', url: '/affiliate/postbacks/rebind', headers: { 'x-api-key': key }, payload: { url: 'https://rebind.test/pb?cid={click_id}', events: ['conversion.created'] } });
    assert.equal(saved.statusCode, 201, saved.body);
    const before = tracker.received.length;
    const res = await strict.request({ method: 'POST', url: '/affiliate/postbacks/rebind/test', headers: { 'x-api-key': key } });
    const { delivery } = res.json<{ data: { delivery: Delivery } }>().data;
    assert.deepEqual([delivery.status, delivery.failure, delivery.error, delivery.url], ['failed', 'refused', 'refused: the address of rebind.test is not public', 'https://rebind.test/pb?cid=test-click']);
    assert.equal(tracker.received.length, before);
  });
});
