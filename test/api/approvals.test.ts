// Private brands and their affiliates through the API: an affiliate asks to promote a brand, the
// brand lists who promotes it with their figures, approves, and withdraws the approval, after
// which the affiliate sees the brand no more and its links stop redirecting.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { signedUp } from '../helpers/sessions.js';
import { brandKey, BROWSER_UA, createLink } from '../helpers/tracking.js';

type Promoter = { affiliateId: string; approval: string; orders: number; sales: number; commission: number; clicks: number; requestedAt?: string };

let h: Harness;
let aff1: string;
let aff2: string;
let globex: string;
let initech: string;

before(async () => {
  // No delivery is attempted here: the brand's endpoint (hooks.example.com) only makes the event kept.
  h = await startHarness({ WEBHOOK_POLL_MS: '0' });
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  globex = await brandKey(h, BRANDS.globex);
  initech = await brandKey(h, BRANDS.initech);
});
after(async () => {
  await h.close();
});

const ask = (key: string, brandId: string) => h.request({ method: 'POST', url: `/affiliate/brands/${brandId}/approval-request`, headers: { 'x-api-key': key } });
const promoters = async (key: string, query = '') => {
  const res = await h.get(`/advertiser/affiliates${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Promoter[]; meta: { total: number } }>();
};
const approval = (method: 'POST' | 'DELETE', key: string, affiliateId: string) => h.request({ method, url: `/advertiser/affiliates/${affiliateId}/approval`, headers: { 'x-api-key': key } });

describe('approval requests and answers', () => {
  test('an affiliate asks a private brand; the brand hears of it and sees it pending', async () => {
    await h.service.services.webhooks.create({ kind: 'brand', id: BRANDS.globex }, { url: 'https://hooks.example.com/globex', events: ['affiliate.approval.requested'] });
    const first = await ask(aff2, BRANDS.globex);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json<{ data: { status: string } }>().data.status, 'pending');
    const again = await ask(aff2, BRANDS.globex);
    assert.equal(again.statusCode, 200);
    const events = await h.service.database.db.selectFrom('webhook_events').selectAll().where('owner_id', '=', BRANDS.globex).where('type', '=', 'affiliate.approval.requested').execute();
    assert.equal(events.length, 1, 'one event for the brand, not one per ask');
    assert.equal((JSON.parse(events[0]!.payload) as { data: { affiliateId: string } }).data.affiliateId, 'aff-2');
    const pending = await promoters(globex, '?status=pending');
    assert.deepEqual(pending.data.map((p) => [p.affiliateId, p.approval]), [['aff-2', 'pending']]);
  });

  test('a public brand needs no approval (409), an unknown one is a 404, an approved affiliate is told so', async () => {
    assertError(await ask(aff1, BRANDS.acme), 409, 'approval_not_needed');
    assertError(await ask(aff1, BRANDS.unknown), 404, 'not_found');
    const approved = await ask(aff1, BRANDS.globex);
    assert.equal(approved.statusCode, 200);
    assert.equal(approved.json<{ data: { status: string } }>().data.status, 'approved');
  });

  test("the brand lists its affiliates with orders, sales and commission in a range; never another brand's", async () => {
    const march = await promoters(globex, '?from=2026-03-01&to=2026-03-31');
    const aff1Row = march.data.find((p) => p.affiliateId === 'aff-1')!;
    assert.deepEqual({ approval: aff1Row.approval, orders: aff1Row.orders, sales: aff1Row.sales, commission: aff1Row.commission }, { approval: 'approved', orders: 1, sales: 1_999, commission: 150 });
    const april = await promoters(globex, '?from=2026-04-01&to=2026-04-30');
    assert.equal(april.data.find((p) => p.affiliateId === 'aff-1')!.orders, 0);
    const theirs = await promoters(initech);
    assert.deepEqual(theirs.data.map((p) => p.affiliateId), ['aff-2'], 'Initech sees only its own affiliate');
    assertError(await h.get('/advertiser/affiliates', aff1), 403, 'forbidden');
  });

  test('approving lets the affiliate see and promote the brand; withdrawing stops its links at once', async () => {
    assertError(await h.get(`/affiliate/brands/${BRANDS.globex}`, aff2), 404, 'not_found');
    const approved = await approval('POST', globex, 'aff-2');
    assert.equal(approved.statusCode, 200, approved.body);
    assert.equal((await h.get(`/affiliate/brands/${BRANDS.globex}`, aff2)).statusCode, 200);
    assert.equal((await promoters(globex)).data.find((p) => p.affiliateId === 'aff-2')!.approval, 'approved');

    const { code } = await createLink(h, aff2, BRANDS.globex, { type: 'Home' });
    const follow = () => h.request({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA } });
    assert.equal((await follow()).statusCode, 302);

    const revoked = await approval('DELETE', globex, 'aff-2');
    assert.equal(revoked.statusCode, 204, revoked.body);
    assertError(await follow(), 404, 'link_not_found');
    assertError(await h.get(`/affiliate/brands/${BRANDS.globex}`, aff2), 404, 'not_found');
    const created = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.globex, type: 'Home' }, aff2);
    const channels = created.json<Array<{ shortUrls: string[]; message?: string }>>();
    assert.ok(channels.every((c) => c.shortUrls.length === 0 && c.message === 'Organization approval is required to generate links'), created.body);

    assert.equal((await approval('POST', globex, 'aff-2')).statusCode, 200);
    assert.equal((await follow()).statusCode, 302, 'approved again, the link redirects again');
  });

  test("approving mails the affiliate's owners once, in their language; approving again mails nobody", async () => {
    await signedUp(h, 'owner@aff3.example', { affiliateId: 'aff-3' }, 'owner');
    await signedUp(h, 'member@aff3.example', { affiliateId: 'aff-3' }, 'member');
    const told = () => h.service.database.db.selectFrom('mail_messages').select(['to_address', 'template', 'params']).where('template', '=', 'brand-approved').execute();
    assert.equal((await approval('POST', globex, 'aff-3')).statusCode, 200);
    assert.equal((await approval('POST', globex, 'aff-3')).statusCode, 200);
    const mail = await told();
    assert.deepEqual(
      mail.map((m) => m.to_address),
      ['owner@aff3.example'],
    );
    assert.match(mail[0]!.params ?? '', /Globex/);
  });

  test('an affiliate with orders of the brand and no link to it is listed, with its figures', async () => {
    const acme = await brandKey(h, BRANDS.acme);
    const umbrella = await brandKey(h, BRANDS.umbrella);
    const links = await h.service.database.db.selectFrom('short_links').select('id').where('affiliate_id', '=', 'aff-1').where('organization_id', 'in', [BRANDS.acme, BRANDS.umbrella]).execute();
    assert.deepEqual(links, [], 'aff-1 has orders of Acme and Umbrella, and no link to either');
    const theirs = await promoters(acme);
    assert.deepEqual(
      theirs.data.map(({ affiliateId, approval, orders, sales, commission }) => ({ affiliateId, approval, orders, sales, commission })),
      [{ affiliateId: 'aff-1', approval: 'none', orders: 2, sales: 20_000, commission: 1_500 }],
    );
    assert.equal(theirs.meta.total, 1);
    const february = await promoters(acme, '?from=2026-02-01&to=2026-02-28');
    assert.deepEqual(february.data.map((p) => [p.affiliateId, p.orders]), [['aff-1', 1]], 'listed whatever the range; its figures are the range\'s');
    // Only a canceled order: listed, with nothing counted.
    assert.deepEqual((await promoters(umbrella)).data.map((p) => [p.affiliateId, p.orders, p.commission]), [['aff-1', 0, 0]]);
    assert.deepEqual((await promoters(acme, '?status=approved')).data, [], 'the status filters still list approvals and requests only');
  });

  test('withdrawing what does not exist is a 404; approving an unknown affiliate too', async () => {
    assertError(await approval('DELETE', initech, 'aff-1'), 404, 'approval_not_found');
    assertError(await approval('POST', initech, 'nobody'), 404, 'affiliate_not_found');
  });
});
