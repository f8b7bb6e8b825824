// The network suspends an affiliate or a brand with a reason, and reactivates it (the service the
// operator console calls; the CLI's commands are in test/cli/suspensions.test.ts). A suspended
// affiliate's links still redirect but count no click (uncounted, reason suspended), its
// conversions earn nothing (affiliate_suspended), its keys and sessions are refused; a suspended
// brand is out of affiliates' sight, its links lead to its home page uncounted, its keys, postback
// token and sessions are refused. Each change is audited and mailed to the owners in their
// language; reactivation restores everything.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, qs } from '../helpers/api.js';
import { brandKey, conversionOf, createLink, item, postback, report, BROWSER_UA } from '../helpers/tracking.js';
import { PASSWORD, cookieOf, signedUp, withSession, type TestSession } from '../helpers/sessions.js';
import { pollUntil } from '../helpers/wait.js';
import { renderMail } from '../../src/domain/mail/templates.js';
import type { Actor } from '../../src/domain/audit/audit-entry.js';

const OPERATOR: Actor = { kind: 'operator', userId: 'usr_operator1', address: '203.0.113.7' };
const REASON = 'Clicks bought from a click farm';

let h: Harness;
let aff1: string;
let acme: string;
let globex: string;
let owner: TestSession;
let member: TestSession;
let brandOwner: TestSession;
let acmeLink: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  owner = await signedUp(h, 'owner@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  const second = await signedUp(h, 'dona@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  assert.equal((await h.request(withSession({ method: 'PATCH', url: '/session', payload: { language: 'pt-BR' } }, second))).statusCode, 200);
  member = await signedUp(h, 'member@aff1.example', { affiliateId: 'aff-1' });
  brandOwner = await signedUp(h, 'owner@globex.example', { brandId: BRANDS.globex }, 'owner');
  acmeLink = (await createLink(h, aff1, BRANDS.acme, { type: 'Custom', url: 'https://www.acme.com/p/sneakers' })).code;
});
after(() => h?.close());

const services = () => h.service.services;

let visitors = 0;
/** Follows the link as a new person would (an address of their own, so no click is another's repeat). */
async function clickLink(h: Harness, code: string): Promise<{ clickId: string; location: URL }> {
  const res = await h.request({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA }, remoteAddress: `198.51.100.${++visitors}` });
  assert.equal(res.statusCode, 302, res.body);
  const location = new URL(String(res.headers.location));
  return { clickId: location.searchParams.get('clickId') ?? '', location };
}
const db = () => h.service.database.db;

/** The link's stored clicks, as written (flushed first). */
async function clicksOf(code: string) {
  await services().tracking.flushClicks();
  const link = await db().selectFrom('short_links').select('id').where('code', '=', code).executeTakeFirstOrThrow();
  return db().selectFrom('clicks').select(['id', 'counted', 'is_suspended']).where('link_id', '=', link.id).orderBy('id').execute();
}

/** The brand's (or affiliate's) clicks over everything, with the uncounted ones by reason, once the rollups hold `expected` of reason `reason`. */
async function uncounted(side: 'affiliate' | 'advertiser', key: string, query: Record<string, string>, reason: 'suspended', expected: number) {
  const read = async () => {
    const res = await h.get(`/${side}/analytics${qs({ interval: 'all', include: 'uncounted', ...query })}`, key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ data: Array<{ clicks: number; uncounted: Record<string, number> }> }>().data;
  };
  const rows = await pollUntil(read, (r) => r.reduce((n, row) => n + row.uncounted[reason]!, 0) === expected, { timeoutMs: 10_000 });
  assert.equal(rows.reduce((n, row) => n + row.uncounted[reason]!, 0), expected);
  return rows;
}

const mailOf = (template: string) => db().selectFrom('mail_messages').select(['to_address', 'locale', 'params']).where('template', '=', template).orderBy('to_address').execute();
const auditOf = (action: string) => db().selectFrom('audit_entries').selectAll().where('action', '=', action).orderBy('id').execute();

describe('an affiliate suspended', () => {
  let before: string;
  let during: string;

  test('is suspended with a reason: audited (before → after), its owners mailed in their language', async () => {
    before = (await clickLink(h, acmeLink)).clickId;
    const standing = await services().suspensions.suspend(OPERATOR, { affiliateId: 'aff-1' }, `  ${REASON}  `);
    assert.deepEqual({ ...standing, suspendedAt: undefined }, { kind: 'affiliate', id: 'aff-1', name: 'Affiliate One', suspended: true, suspendedAt: undefined, reason: REASON });
    assert.match(standing.suspendedAt!, /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual(await services().suspensions.standing({ affiliateId: 'aff-1' }), standing);

    const [entry] = await auditOf('affiliate.suspended');
    assert.ok(entry);
    assert.deepEqual(
      { actor: [entry.actor_kind, entry.actor_id, entry.address], subject: [entry.subject_kind, entry.subject_id], member: entry.affiliate_id, reason: entry.reason },
      { actor: ['operator', 'usr_operator1', '203.0.113.7'], subject: ['affiliate', 'aff-1'], member: 'aff-1', reason: REASON },
    );
    assert.deepEqual(JSON.parse(entry.before!), { status: 'active' });
    assert.deepEqual(JSON.parse(entry.after!), { status: 'suspended', suspendedAt: standing.suspendedAt });

    const mail = await mailOf('account-suspended');
    assert.deepEqual(mail.map((m) => [m.to_address, m.locale]), [['dona@aff1.example', 'pt-BR'], ['owner@aff1.example', 'en']], 'the owners, not the member');
    const [portuguese, english] = mail.map((m) => renderMail('account-suspended', m.locale, { network: 'affnet', ...(JSON.parse(m.params!) as object) }));
    assert.match(english!.subject, /Affiliate One is suspended on affnet/);
    assert.match(english!.text, new RegExp(`The reason: ${REASON}`));
    assert.match(english!.text, /count no click, your orders earn no commission, payouts wait/);
    assert.match(portuguese!.subject, /Affiliate One está suspensa na affnet/);
    assert.match(portuguese!.text, new RegExp(`O motivo: ${REASON}`));
  });

  test('a second suspension, a missing reason, an unknown affiliate are refused, saying why', async () => {
    await assert.rejects(services().suspensions.suspend(OPERATOR, { affiliateId: 'aff-1' }, 'again'), (e: Error & { code?: string }) => e.code === 'already_suspended' && /suspended already \(since /.test(e.message));
    await assert.rejects(services().suspensions.suspend(OPERATOR, { affiliateId: 'aff-2' }, '   '), (e: Error & { code?: string }) => e.code === 'invalid_reason' && /give a reason/.test(e.message));
    await assert.rejects(services().suspensions.suspend(OPERATOR, { affiliateId: 'aff-2' }, 'x'.repeat(501)), (e: Error & { code?: string }) => e.code === 'invalid_reason' && /at most 500/.test(e.message));
    await assert.rejects(services().suspensions.suspend(OPERATOR, { affiliateId: 'aff-2' }, 'two\nlines'), (e: Error & { code?: string }) => e.code === 'invalid_reason');
    await assert.rejects(services().suspensions.suspend(OPERATOR, { affiliateId: 'nobody' }, REASON), (e: Error & { code?: string }) => e.code === 'affiliate_not_found');
    await assert.rejects(services().suspensions.reactivate(OPERATOR, { affiliateId: 'aff-2' }, 'not suspended'), (e: Error & { code?: string }) => e.code === 'not_suspended');
    assert.equal((await auditOf('affiliate.suspended')).length, 1, 'a refused change writes nothing');
  });

  test('its links still redirect to the brand, with a click id, and count no click: uncounted, reason suspended', async () => {
    const { clickId, location } = await clickLink(h, acmeLink);
    during = clickId;
    assert.equal(`${location.origin}${location.pathname}`, 'https://www.acme.com/p/sneakers', 'a visitor is never stranded');
    const clicks = await clicksOf(acmeLink);
    assert.deepEqual(clicks.map((c) => [c.id, c.counted, c.is_suspended]), [[before, 1, 0], [during, 0, 1]].sort());
    // The brand reads the affiliate's uncounted clicks: the rollups say why.
    const rows = await uncounted('advertiser', acme, { groupBy: 'affiliates', affiliateId: 'aff-1' }, 'suspended', 1);
    assert.deepEqual(rows.map((r) => [r.clicks, r.uncounted.suspended]), [[1, 1]]);
  });

  test('its API keys and sessions are refused with account_suspended; its people still sign in and read their session', async () => {
    const byKey = assertError(await h.get('/affiliate/brands', aff1), 403, 'account_suspended');
    assert.match(byKey.message, /^This API key's affiliate is suspended by the network \(since .+\): its keys are refused until the network reactivates it; its owners were mailed the reason$/);
    const bySession = assertError(await h.request(withSession({ method: 'GET', url: '/affiliate/orders' }, member)), 403, 'account_suspended');
    assert.match(bySession.message, /^Your affiliate account is suspended by the network/);
    assertError(await h.request(withSession({ method: 'GET', url: '/affiliate/keys' }, owner)), 403, 'account_suspended');
    // Signing in still works: the portal can tell the person why everything else is refused.
    const signIn = await h.request({ method: 'POST', url: '/session', payload: { email: 'member@aff1.example', password: PASSWORD } });
    assert.equal(signIn.statusCode, 200, signIn.body);
    const session = await h.request(withSession({ method: 'GET', url: '/session' }, { cookie: cookieOf(signIn)! }));
    assert.equal(session.statusCode, 200, session.body);
    assert.match(session.json<{ data: { accountSuspendedAt?: string } }>().data.accountSuspendedAt ?? '', /^\d{4}-/);
    // Another affiliate is untouched.
    assert.equal((await h.get('/affiliate/brands', h.world.keys.aff2)).statusCode, 200);
  });

  test('its conversions earn nothing: commission 0, canceled, commissionReason affiliate_suspended, whether clicked before or during', async () => {
    for (const [orderId, clickId] of [['susp-before', before], ['susp-during', during]] as const) {
      const conversion = conversionOf(await report(h, acme, { clickId, orderId, value: 10_000, items: [item(10_000)] }), 201);
      assert.deepEqual([conversion.commission, conversion.commissionStatus, conversion.commissionReason], [0, 'canceled', 'affiliate_suspended'], orderId);
    }
    const approved = await h.request({ method: 'PATCH', url: '/advertiser/conversions/susp-before', payload: { status: 'approved' }, headers: { 'x-api-key': acme } });
    assert.equal(approved.statusCode, 200, approved.body);
    const { data } = approved.json<{ data: { status: string; commission: number; commissionStatus: string } }>();
    assert.deepEqual([data.status, data.commission, data.commissionStatus], ['approved', 0, 'canceled'], 'the brand approving the order leaves the commission canceled');
  });

  test('reactivated with a reason: keys and sessions work again, clicks count, conversions earn; audited and mailed', async () => {
    const standing = await services().suspensions.reactivate({ kind: 'cli' }, { affiliateId: 'aff-1' }, 'Traffic checked: the clicks were real');
    assert.deepEqual(standing, { kind: 'affiliate', id: 'aff-1', name: 'Affiliate One', suspended: false });
    const [entry] = await auditOf('affiliate.reactivated');
    assert.deepEqual([entry?.actor_kind, entry?.actor_id, JSON.parse(entry!.after!), entry?.reason], ['cli', null, { status: 'active' }, 'Traffic checked: the clicks were real']);
    assert.equal((await mailOf('account-reactivated')).length, 2);

    assert.equal((await h.get('/affiliate/brands', aff1)).statusCode, 200);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/affiliate/orders' }, member))).statusCode, 200);
    const { clickId } = await clickLink(h, acmeLink);
    assert.deepEqual((await clicksOf(acmeLink)).find((c) => c.id === clickId), { id: clickId, counted: 1, is_suspended: 0 });
    const conversion = conversionOf(await report(h, acme, { clickId, orderId: 'after-reactivation', value: 10_000, items: [item(10_000)] }), 201);
    assert.deepEqual([conversion.commission, conversion.commissionStatus, conversion.commissionReason], [750, 'pending', undefined]);
    // A click made while suspended still earns nothing once reactivated: it did not count.
    const late = conversionOf(await report(h, acme, { clickId: during, orderId: 'late-for-suspended-click', value: 10_000, items: [item(10_000)] }), 201);
    assert.equal(late.commissionReason, 'affiliate_suspended');
    // The affiliate reads its own suspended click among the uncounted ones.
    await uncounted('affiliate', aff1, { groupBy: 'links', linkCode: acmeLink }, 'suspended', 1);
  });
});

describe('a brand suspended', () => {
  let link: string;
  let token: string;

  test("is out of affiliates' sight: lists, searches, its page (404), its products and campaigns, new links", async () => {
    link = (await createLink(h, aff1, BRANDS.globex, { type: 'Custom', url: 'https://globex.com/headphones?color=black' })).code;
    token = (await services().access.rotatePostbackToken(BRANDS.globex)).token;
    const visible = async () => ({
      brands: (await h.get('/affiliate/brands?limit=20', aff1)).json<{ data: Array<{ id: string }> }>().data.map((b) => b.id),
      // The items, not the totals: a total that took long to count is remembered for a few seconds (storage/repositories/totals.ts).
      searched: (await h.get('/affiliate/brands?search=glob', aff1)).json<{ data: unknown[] }>().data.length,
      page: (await h.get(`/affiliate/brands/${BRANDS.globex}`, aff1)).statusCode,
      products: (await h.get('/affiliate/products?limit=100', aff1)).json<{ data: Array<{ id: string }> }>().data.map((p) => p.id),
      found: (await h.get('/affiliate/products?search=headphones', aff1)).json<{ data: unknown[] }>().data.length,
      campaigns: (await h.get('/affiliate/campaigns?limit=20', aff1)).json<{ data: Array<{ id: string }> }>().data.map((c) => c.id),
    });
    const shown = await visible();
    assert.ok(shown.brands.includes(BRANDS.globex) && shown.products.includes('p-globex-1') && shown.campaigns.includes('c-globex-coupon'));
    assert.deepEqual([shown.searched, shown.page, shown.found], [1, 200, 1]);

    await services().suspensions.suspend(OPERATOR, { brandId: BRANDS.globex }, 'Statements unpaid for three months');
    const hidden = await visible();
    assert.ok(!hidden.brands.includes(BRANDS.globex), 'not in the brand list');
    assert.ok(!hidden.products.includes('p-globex-1'), 'its products are hidden');
    assert.ok(!hidden.campaigns.includes('c-globex-coupon'), 'its campaigns are hidden');
    assert.deepEqual([hidden.searched, hidden.page, hidden.found], [0, 404, 0]);
    assert.deepEqual(hidden.brands, shown.brands.filter((id) => id !== BRANDS.globex), 'the other brands stay');
    assertError(await h.post('/affiliate/shortener/url', { organizationId: BRANDS.globex, type: 'Home' }, aff1), 404);
    const [entry] = await auditOf('brand.suspended');
    assert.deepEqual([entry?.subject_kind, entry?.subject_id, entry?.brand_id, entry?.affiliate_id], ['brand', BRANDS.globex, BRANDS.globex, null]);
    assert.deepEqual((await mailOf('account-suspended')).filter((m) => m.to_address === 'owner@globex.example').length, 1);
  });

  test('its links lead to its home page, without a click id, and count no click (reason suspended)', async () => {
    const res = await h.request({ method: 'GET', url: `/${link}?utm_source=news`, headers: { 'user-agent': BROWSER_UA }, remoteAddress: '198.51.100.250' });
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, 'https://globex.com/', 'the home page: its site, nothing the network tracks');
    const clicks = await clicksOf(link);
    assert.deepEqual(clicks.map((c) => [c.counted, c.is_suspended]), [[0, 1]]);
    await uncounted('affiliate', aff1, { groupBy: 'links', linkCode: link }, 'suspended', 1);
  });

  test('its API keys, postback token and sessions are refused with account_suspended', async () => {
    const byKey = assertError(await h.get('/advertiser/conversions', globex), 403, 'account_suspended');
    assert.match(byKey.message, /^This API key's brand is suspended by the network/);
    const byToken = assertError(await postback(h, { clickId: 'a'.repeat(32), orderId: 'pb-1', value: 1000, token }), 403, 'account_suspended');
    assert.match(byToken.message, /^This postback token's brand is suspended by the network/);
    assertError(await h.request(withSession({ method: 'GET', url: '/advertiser/conversions' }, brandOwner)), 403, 'account_suspended');
    assert.equal((await h.get('/advertiser/conversions', acme)).statusCode, 200, 'another brand is untouched');
  });

  test('reactivated: back in the lists, its links lead where they did and count, its credentials work', async () => {
    await services().suspensions.reactivate(OPERATOR, { brandId: BRANDS.globex }, 'Statements paid');
    assert.equal((await h.get(`/affiliate/brands/${BRANDS.globex}`, aff1)).statusCode, 200);
    assert.ok((await h.get('/affiliate/products?limit=100', aff1)).json<{ data: Array<{ id: string }> }>().data.some((p) => p.id === 'p-globex-1'));
    const { clickId, location } = await clickLink(h, link);
    assert.equal(`${location.origin}${location.pathname}${location.search.replace(/&clickId=.*$/, '')}`, 'https://globex.com/headphones?color=black');
    assert.deepEqual((await clicksOf(link)).find((c) => c.id === clickId)?.counted, 1);
    assert.equal((await h.get('/advertiser/conversions', globex)).statusCode, 200);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/advertiser/conversions' }, brandOwner))).statusCode, 200);
    const reported = await postback(h, { clickId, orderId: 'pb-after', value: 1000, token });
    assert.equal(reported.statusCode, 201, reported.body);
  });
});
