// One succeeding request per API route, shared by the tests that walk every route: the route rules
// (route-rules.test.ts) and the hostile inputs (openapi-fuzz.test.ts). The table exists before the
// service starts, so tests can be declared from its names; its requests read the harness and the
// keys only when they are built.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { InjectOptions } from 'light-my-request';
import type { Harness } from './harness.js';
import { BRANDS, brandInput, campaignInput, productInput } from './world.js';
import { newKey } from './api.js';
import { brandKey, createLink, freshClick, item, report } from './tracking.js';
import { servicesFor } from './databases.js';
import { givePayeeDetails, payMonth, releasePayeeHold } from './money.js';
import { operatorSession } from './operators.js';
import { hashKey } from '../../src/domain/access/access-service.js';

/** Whose route: an affiliate's or a brand's (keys and owners' sessions), or the network's operators' (their sessions only). */
export type Side = 'affiliate' | 'brand' | 'operator';
/** The members' sides: they have keys, accounts, webhooks. */
export type MemberSide = Exclude<Side, 'operator'>;

export interface Sample {
  side: Side;
  /** What the route takes: an API key of its side (the default), or only an owner's portal session. */
  credential?: 'session';
  /** A request that succeeds with `key` (a credential: see credentialHeaders); `key` undefined sends no credential at all. */
  request(key: string | undefined): Promise<InjectOptions> | InjectOptions;
  /**
   * Isolation: the same request with another affiliate's (or brand's) key. `status` where the
   * request names something of the caller's (another caller gets that status, learning nothing);
   * otherwise why there is nothing of the caller's to reach (its own tests prove the lists).
   */
  foreign: { status: number; code: string } | { reason: string };
}

const WALK_FEED = { url: 'https://www.acme.com/feeds/google.xml', format: 'google-xml', schedule: 'daily' } as const;
const WALK_FEED_FILE =
  '<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:id>walk-feed-item</g:id><title>Walked shoe</title><link>https://www.acme.com/p/walked</link><g:price>99.90 BRL</g:price><g:availability>in_stock</g:availability></item></channel></rss>';
/** A Shopify export of one order no brand has: a preview with one unknown line. */
const WALK_EXPORT = 'Name,Financial Status,Fulfillment Status,Currency,Total,Created at,Cancelled at,Refunded Amount\r\n#walk-1,paid,fulfilled,BRL,99.90,2026-11-20 14:03:11 -0300,,0.00\r\n';
const OWN_LIST = { reason: "lists the caller's own only (its test file proves another caller's never appear)" };
const OWN_MONTH = { reason: "a month of the caller's own money: another affiliate reads its own (statements-documents.test.ts)" };
/** The current UTC month, YYYY-MM. */
const thisMonth = () => new Date().toISOString().slice(0, 7);
const CATALOGUE = { reason: 'the catalogue: the same public brands for every affiliate, private ones by approval (brands.test.ts)' };

let seq = 0;
/** An id no earlier call returned. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;
/** A portal session as a credential string, so samples take keys and sessions alike. */
export const sessionCredential = (session: { sessionToken: string; csrfToken: string }): string => `session:${session.sessionToken}:${session.csrfToken}`;

/** The headers that present a credential: a session's cookie and CSRF token, or an API key (any other string). */
export function credentialHeaders(credential: string | undefined): Record<string, string> {
  if (credential === undefined) return {};
  const [kind, token, csrf] = credential.split(':');
  if (kind === 'session') return { cookie: `affnet_session=${token}`, 'x-csrf-token': csrf! };
  return { 'x-api-key': credential };
}
const withKey = credentialHeaders;

/** A product as a brand puts it: the test world's shape without organizationId and id. */
function walkProduct() {
  const { organizationId: _o, id: _i, ...rest } = productInput('walk-sku', BRANDS.acme, 'Walk shoe', 1_000);
  return rest;
}

/** A campaign as a brand puts it: the test world's shape without organizationId and id. */
function walkCampaign() {
  const { organizationId: _o, id: _i, ...rest } = campaignInput({ id: 'walk-camp', organizationId: BRANDS.acme, type: 'GenericCoupon' });
  return rest;
}

export interface RouteSamples {
  /** By route as Fastify names it: `GET /affiliate/brands/:id`. */
  samples: Record<string, Sample>;
  /** What the samples succeed with once `start` ran: aff-1's key and the Acme brand's, both limited to 100,000 requests a minute. */
  keys: Record<Side, string>;
  /** Sessions of an owner of aff-1 and of Acme (the harness must raise USER_RATE_LIMIT for walks). */
  sessions: Record<Side, string>;
  /** What a sample succeeds with: its side's key or session. */
  credentialOf: (sample: Sample, side?: Side) => string;
  /** Makes the keys, a link of aff-1 on Acme for the brand's clicks, and a payout of aff-1 to read. */
  start: (h: Harness) => Promise<void>;
}

/** The side's account in the test world, as users belong to it: aff-1, or the Acme brand. */
const ownerAccount = (side: Side) => (side === 'affiliate' ? { affiliateId: 'aff-1' } : { brandId: BRANDS.acme });

/** The password of the owners the walk signs in as. */
const WALK_PASSWORD = 'walking every route';

/** A session (as a credential string) of a new owner of the account. */
export async function ownerSession(h: Harness, account: { affiliateId?: string; brandId?: string }): Promise<string> {
  const { link } = await h.service.services.users.create(account, `${unique('owner')}@walk.example`, 'owner');
  return sessionCredential(await h.service.services.users.setPassword(new URL(link).searchParams.get('token')!, WALK_PASSWORD));
}

export function createRouteSamples(): RouteSamples {
  let h: Harness;
  let payoutId = '';
  let statementId = '';
  // Operators have no key: their routes are walked with an operator's session.
  const keys: Record<Side, string> = { affiliate: '', brand: '', operator: '' };
  const sessions: Record<Side, string> = { affiliate: '', brand: '', operator: '' };
  let applicants = 0;

  /** A sign-up whose address is confirmed: pending, waiting for an operator's decision. */
  async function pendingApplication(): Promise<string> {
    const { applications } = h.service.services;
    const email = `applicant${++applicants}-${Date.now().toString(36)}@walk.example`;
    await applications.signUp({ name: 'Walker', email, password: WALK_PASSWORD, country: 'BR', language: 'en', website: 'https://walker.example', acceptTerms: true }, '192.0.2.1');
    const [application] = (await applications.list({ status: 'unverified' }, 1000)).filter((a) => a.email === email);
    await applications.verify(new URL((await applications.issueVerifyLink(application!.id))!).searchParams.get('token')!);
    return application!.id;
  }
  /** A member of its own for a suspension sample (the walk's aff-1 and Acme must stay active), suspended already with `suspended`. */
  async function freshMember(kind: MemberSide, suspended = false): Promise<string> {
    const id = unique(kind === 'affiliate' ? 'aff-walk' : 'brand-walk');
    const { services } = h.service;
    if (kind === 'affiliate') await services.access.upsertAffiliate(id, 'Walked affiliate');
    else await services.imports.upsertBrand(brandInput({ id, name: 'Walked brand', slug: id, site: `https://${id}.example.com` }));
    const member = kind === 'affiliate' ? { affiliateId: id } : { brandId: id };
    if (suspended) await services.suspensions.suspend({ kind: 'cli' }, member, 'Walking the routes');
    return id;
  }
  /** The operator's session as having passed its second factor just now: money moves ask for it within 10 minutes. */
  async function freshlyVerified(credential: string | undefined): Promise<void> {
    const token = credential?.split(':')[1];
    if (!token) return;
    const now = new Date().toISOString();
    await h.service.database.db
      .insertInto('session_second_factors')
      .values({ token_hash: hashKey(token), verified_at: now })
      .onConflict((oc) => oc.column('token_hash').doUpdateSet({ verified_at: now }))
      .execute();
  }
  let openStatement = '';
  /** A statement of Acme's with plenty left to pay, made once: each payment sample pays a cent of it. */
  async function unpaidStatement(): Promise<string> {
    if (openStatement) return openStatement;
    openStatement = unique('st-walk');
    await h.service.database.db
      .insertInto('statements')
      .values({ id: openStatement, brand_id: BRANDS.acme, currency: 'USD', month: '2019-01', line_count: 0, commission: 1_000_000_000, fee: 0, total: 1_000_000_000, fee_basis_points: 0, issued_at: '2019-02-01T00:00:00.000Z', due_at: '2019-03-01T00:00:00.000Z', paid_at: null, overdue_notified_at: null })
      .execute();
    return openStatement;
  }
  /** The run that paid the walk's payout. */
  const payoutRun = async () => (await h.service.database.db.selectFrom('payouts').select('batch_id').where('id', '=', payoutId).executeTakeFirstOrThrow()).batch_id!;
  const NETWORK_WIDE = { reason: 'the network’s own: every operator reads and acts on all of it, and no member reaches it (the other side’s test)' };

  /** The side's own id in the test world: aff-1, or the Acme brand. */
  const ownerOf = (side: MemberSide) => ({ kind: side, id: side === 'affiliate' ? 'aff-1' : BRANDS.acme });

  /**
   * A webhook endpoint of the side's caller, made afresh (the walker sends each sample many times and
   * an owner may have 20 endpoints): its id, and, with `delivered`, a delivery of an event to it.
   */
  async function freshEndpoint(side: MemberSide, delivered = false): Promise<{ id: string; deliveryId?: string }> {
    const owner = ownerOf(side);
    const { db } = h.service.database;
    await db.deleteFrom('webhook_endpoints').where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id).execute();
    const events = side === 'affiliate' ? ['order.created'] : ['conversion.created'];
    // Never delivered here: the endpoint is switched off once its delivery exists.
    const { endpoint } = await h.service.services.webhooks.create(owner, { url: 'https://hooks.example.com/walk', events });
    if (!delivered) return { id: endpoint.id };
    const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId: unique('walk-hook'), value: 1000, items: [item(1000)] });
    assert.equal(created.statusCode, 201, created.body);
    await h.service.services.webhooks.update(owner, endpoint.id, { enabled: false });
    const delivery = await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    return { id: endpoint.id, deliveryId: delivery.id };
  }

  /**
   * A postback of aff-1, made afresh (the walker sends each sample many times and an affiliate may
   * have 10): its id. Never fired: no order of the walk is reported after it is made.
   */
  async function freshPostback(): Promise<string> {
    await h.service.database.db.deleteFrom('affiliate_postbacks').where('affiliate_id', '=', 'aff-1').execute();
    const id = unique('walk-pb');
    await h.service.services.postbacks.put('aff-1', id, { url: 'https://tracker.example.com/postback?cid={click_id}', events: ['conversion.created'], active: false });
    return id;
  }

  /**
   * A channel of aff-1, made afresh (renamed or removed by the sample); the walk's earlier ones are
   * removed first, so link creation elsewhere does not make a link for each of them.
   */
  async function freshChannel(): Promise<string> {
    await h.service.database.db
      .updateTable('affiliate_channels')
      .set({ removed_at: new Date().toISOString() })
      .where('affiliate_id', '=', 'aff-1')
      .where('name', 'like', 'walk-%')
      .where('removed_at', 'is', null)
      .execute();
    return servicesFor(h.service.database).channels.add('aff-1', 'site', unique('walk-channel'));
  }

  /** One succeeding request per API route: the walker's starting point for every rule. */
  const samples: Record<string, Sample> = {
    'GET /affiliate/brands': { side: 'affiliate', foreign: CATALOGUE, request: (key) => ({ method: 'GET', url: '/affiliate/brands', headers: withKey(key) }) },
    // Globex is private and approved for aff-1 only.
    'GET /affiliate/brands/:id': { side: 'affiliate', foreign: { status: 404, code: 'not_found' }, request: (key) => ({ method: 'GET', url: `/affiliate/brands/${BRANDS.globex}`, headers: withKey(key) }) },
    'GET /affiliate/brands/:id/commission-rules': {
      side: 'affiliate',
      foreign: { status: 404, code: 'not_found' },
      request: (key) => ({ method: 'GET', url: `/affiliate/brands/${BRANDS.globex}/commission-rules`, headers: withKey(key) }),
    },
    'GET /affiliate/brands/:id/earnings': {
      side: 'affiliate',
      foreign: { status: 404, code: 'not_found' },
      request: (key) => ({ method: 'GET', url: `/affiliate/brands/${BRANDS.globex}/earnings?products=p-globex-1`, headers: withKey(key) }),
    },
    'GET /affiliate/products': { side: 'affiliate', foreign: CATALOGUE, request: (key) => ({ method: 'GET', url: '/affiliate/products', headers: withKey(key) }) },
    'GET /affiliate/feeds/products.csv': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: (key) => ({ method: 'GET', url: `/affiliate/feeds/products.csv?channelId=${h.world.channels.aff1Site}`, headers: withKey(key) }),
    },
    'GET /affiliate/feeds/products.xml': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: (key) => ({ method: 'GET', url: `/affiliate/feeds/products.xml?channelId=${h.world.channels.aff1Site}`, headers: withKey(key) }),
    },
    'GET /affiliate/campaigns': { side: 'affiliate', foreign: CATALOGUE, request: (key) => ({ method: 'GET', url: '/affiliate/campaigns', headers: withKey(key) }) },
    'POST /affiliate/shortener/url': {
      side: 'affiliate',
      foreign: { reason: "creates the caller's own links; another affiliate gets links of its own channels (shortener-create.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/affiliate/shortener/url', headers: withKey(key), payload: { organizationId: BRANDS.acme, type: 'BrandPage' } }),
    },
    'GET /affiliate/shortener/urls': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/shortener/urls?type=BrandPage', headers: withKey(key) }) },
    'GET /affiliate/orders': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/orders', headers: withKey(key) }) },
    'GET /affiliate/orders.csv': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/orders.csv', headers: withKey(key) }) },
    'GET /affiliate/orders/:id': { side: 'affiliate', foreign: { status: 404, code: 'not_found' }, request: (key) => ({ method: 'GET', url: '/affiliate/orders/o-aff1-1', headers: withKey(key) }) },
    'GET /affiliate/orders/:id/commission': {
      side: 'affiliate',
      foreign: { status: 404, code: 'not_found' },
      request: (key) => ({ method: 'GET', url: '/affiliate/orders/o-aff1-1/commission', headers: withKey(key) }),
    },
    'GET /affiliate/balance': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/balance', headers: withKey(key) }) },
    'GET /affiliate/payouts': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/payouts', headers: withKey(key) }) },
    'GET /affiliate/payouts/:id': { side: 'affiliate', foreign: { status: 404, code: 'payout_not_found' }, request: (key) => ({ method: 'GET', url: `/affiliate/payouts/${payoutId}`, headers: withKey(key) }) },
    'GET /affiliate/channels': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/channels', headers: withKey(key) }) },
    'POST /affiliate/channels': {
      side: 'affiliate',
      foreign: { reason: "adds a channel of the caller's own (channel-management.test.ts)" },
      request: async (key) => {
        await freshChannel();
        return { method: 'POST', url: '/affiliate/channels', headers: withKey(key), payload: { availableChannelId: 'site', name: unique('walk-added') } };
      },
    },
    'PATCH /affiliate/channels/:id': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: async (key) => ({ method: 'PATCH', url: `/affiliate/channels/${await freshChannel()}`, headers: withKey(key), payload: { name: unique('walk-renamed') } }),
    },
    'DELETE /affiliate/channels/:id': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: async (key) => ({ method: 'DELETE', url: `/affiliate/channels/${await freshChannel()}`, headers: withKey(key) }),
    },
    'GET /affiliate/link-script/:channelId': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: (key) => ({ method: 'GET', url: '/affiliate/link-script/ch-aff1-site', headers: withKey(key) }),
    },
    'PUT /affiliate/link-script/:channelId': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: async (key) => {
        await h.service.services.channels.update('aff-1', 'ch-aff1-site', { site: 'https://blog.walk.example' });
        return { method: 'PUT', url: '/affiliate/link-script/ch-aff1-site', headers: withKey(key), payload: { sites: ['https://blog.walk.example'] } };
      },
    },
    'POST /affiliate/link-script/:channelId/key': {
      side: 'affiliate',
      foreign: { status: 404, code: 'channel_not_found' },
      request: (key) => ({ method: 'POST', url: '/affiliate/link-script/ch-aff1-site/key', headers: withKey(key) }),
    },
    'GET /affiliate/analytics': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/analytics?groupBy=countries&interval=all', headers: withKey(key) }) },
    'GET /affiliate/analytics/export': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/analytics/export?groupBy=links', headers: withKey(key) }) },
    'GET /advertiser/analytics': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/analytics?groupBy=affiliates&interval=all', headers: withKey(key) }) },
    'GET /advertiser/analytics/export': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/analytics/export?interval=7d', headers: withKey(key) }) },
    'POST /advertiser/conversions': {
      side: 'brand',
      foreign: { status: 404, code: 'click_not_found' },
      request: async (key) => ({
        method: 'POST',
        url: '/advertiser/conversions',
        headers: withKey(key),
        payload: { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId: unique('walk'), value: 1000, items: [item(1000)] },
      }),
    },
    'PATCH /advertiser/conversions/:orderId': {
      side: 'brand',
      foreign: { status: 404, code: 'not_found' },
      request: async (key) => {
        const orderId = unique('walk-patch');
        const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId, value: 1000, items: [item(1000)] });
        assert.equal(created.statusCode, 201, created.body);
        return { method: 'PATCH', url: `/advertiser/conversions/${orderId}`, headers: withKey(key), payload: { status: 'approved' } };
      },
    },
    'GET /advertiser/conversions': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/conversions', headers: withKey(key) }) },
    'GET /advertiser/conversions/:orderId': {
      side: 'brand',
      foreign: { status: 404, code: 'not_found' },
      request: async (key) => {
        const orderId = unique('walk-get');
        const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId, value: 1000, items: [item(1000)] });
        assert.equal(created.statusCode, 201, created.body);
        return { method: 'GET', url: `/advertiser/conversions/${orderId}`, headers: withKey(key) };
      },
    },
    'GET /advertiser/conversions/:orderId/commission': {
      side: 'brand',
      foreign: { status: 404, code: 'not_found' },
      request: async (key) => {
        const orderId = unique('walk-commission');
        const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId, value: 1000, items: [item(1000)] });
        assert.equal(created.statusCode, 201, created.body);
        return { method: 'GET', url: `/advertiser/conversions/${orderId}/commission`, headers: withKey(key) };
      },
    },
    'GET /advertiser/commission-rules': { side: 'brand', foreign: { reason: "reads the caller's own rules (commission-rules.test.ts)" }, request: (key) => ({ method: 'GET', url: '/advertiser/commission-rules', headers: withKey(key) }) },
    'PUT /advertiser/commission-rules': {
      side: 'brand',
      foreign: { reason: "replaces the caller's own rules (commission-rules.test.ts)" },
      request: (key) => ({
        method: 'PUT',
        url: '/advertiser/commission-rules',
        headers: withKey(key),
        payload: { rules: [{ name: 'Walked product', conditions: { productIds: ['walk-no-such-product'] }, transfer: 'cps', value: 5 }] },
      }),
    },
    'GET /advertiser/groups': { side: 'brand', foreign: { reason: "lists the caller's own groups (affiliate-groups.test.ts)" }, request: (key) => ({ method: 'GET', url: '/advertiser/groups', headers: withKey(key) }) },
    'PUT /advertiser/groups/:id': {
      side: 'brand',
      foreign: { reason: "creates or replaces a group of the caller's own (affiliate-groups.test.ts)" },
      request: (key) => ({ method: 'PUT', url: '/advertiser/groups/walk', headers: withKey(key), payload: { name: 'Walk', members: [] } }),
    },
    'DELETE /advertiser/groups/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'group_not_found' },
      request: async (key) => {
        await h.service.services.affiliateGroups.put(BRANDS.acme, 'walk-gone', { name: 'Gone', members: [] });
        return { method: 'DELETE', url: '/advertiser/groups/walk-gone', headers: withKey(key) };
      },
    },
    'POST /advertiser/commission-rules/preview': {
      side: 'brand',
      foreign: { reason: "previews with the caller's own rules and default, nothing stored (commission-rules-preview.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/advertiser/commission-rules/preview', headers: withKey(key), payload: { order: { items: [{ id: 'walk-preview', price: 1000, quantity: 1 }] } } }),
    },
    'POST /affiliate/claims': {
      side: 'affiliate',
      foreign: { reason: "files a claim of the caller's own (claims.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/affiliate/claims', headers: withKey(key), payload: { organizationId: BRANDS.acme, orderId: unique('walk-claim'), orderedAt: new Date(Date.now() - 86_400_000).toISOString(), value: 1000 } }),
    },
    'GET /affiliate/claims': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/claims?status=open', headers: withKey(key) }) },
    'GET /advertiser/statements': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/statements', headers: withKey(key) }) },
    'GET /advertiser/statements/:id': { side: 'brand', foreign: { status: 404, code: 'statement_not_found' }, request: (key) => ({ method: 'GET', url: `/advertiser/statements/${statementId}`, headers: withKey(key) }) },
    'GET /advertiser/statements/:id.csv': { side: 'brand', foreign: { status: 404, code: 'statement_not_found' }, request: (key) => ({ method: 'GET', url: `/advertiser/statements/${statementId}.csv`, headers: withKey(key) }) },
    'GET /advertiser/statements/:id.pdf': { side: 'brand', foreign: { status: 404, code: 'statement_not_found' }, request: (key) => ({ method: 'GET', url: `/advertiser/statements/${statementId}.pdf`, headers: withKey(key) }) },
    'GET /affiliate/statements/:month': { side: 'affiliate', foreign: OWN_MONTH, request: (key) => ({ method: 'GET', url: `/affiliate/statements/${thisMonth()}`, headers: withKey(key) }) },
    'GET /affiliate/statements/:month.csv': { side: 'affiliate', foreign: OWN_MONTH, request: (key) => ({ method: 'GET', url: `/affiliate/statements/${thisMonth()}.csv`, headers: withKey(key) }) },
    'GET /affiliate/statements/:month.pdf': { side: 'affiliate', foreign: OWN_MONTH, request: (key) => ({ method: 'GET', url: `/affiliate/statements/${thisMonth()}.pdf`, headers: withKey(key) }) },
    'GET /advertiser/claims': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/claims?status=open', headers: withKey(key) }) },
    'PATCH /advertiser/claims/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'claim_not_found' },
      request: async (key) => {
        const claim = await h.service.services.claims.file('aff-1', { organizationId: BRANDS.acme, orderId: unique('walk-answer'), orderedAt: new Date(Date.now() - 86_400_000).toISOString(), value: 1000 });
        return { method: 'PATCH', url: `/advertiser/claims/${claim.id}`, headers: withKey(key), payload: { status: 'accepted' } };
      },
    },
    'POST /affiliate/brands/:id/approval-request': {
      side: 'affiliate',
      foreign: { reason: "asks on the caller's own behalf (approvals.test.ts)" },
      request: (key) => ({ method: 'POST', url: `/affiliate/brands/${BRANDS.globex}/approval-request`, headers: withKey(key) }),
    },
    'GET /advertiser/affiliates': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/affiliates', headers: withKey(key) }) },
    'POST /advertiser/affiliates/:id/approval': {
      side: 'brand',
      foreign: { reason: "approves for the caller's own brand (approvals.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/advertiser/affiliates/aff-2/approval', headers: withKey(key) }),
    },
    'DELETE /advertiser/affiliates/:id/approval': {
      side: 'brand',
      foreign: { reason: "withdraws for the caller's own brand (approvals.test.ts)" },
      request: async (key) => {
        await h.service.services.approvals.approve(BRANDS.acme, 'aff-2');
        return { method: 'DELETE', url: '/advertiser/affiliates/aff-2/approval', headers: withKey(key) };
      },
    },
    'GET /advertiser/products': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/products', headers: withKey(key) }) },
    'GET /advertiser/product-categories': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/product-categories', headers: withKey(key) }) },
    'PUT /advertiser/products/:id': {
      side: 'brand',
      foreign: { reason: "puts the caller's own product: another brand's id is its own (brand-catalogue.test.ts)" },
      request: (key) => ({ method: 'PUT', url: '/advertiser/products/walk-sku', headers: withKey(key), payload: walkProduct() }),
    },
    'PATCH /advertiser/products/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'product_not_found' },
      request: async (key) => {
        await h.service.services.imports.putProduct(BRANDS.acme, 'walk-sku', walkProduct());
        return { method: 'PATCH', url: '/advertiser/products/walk-sku', headers: withKey(key), payload: { name: 'Walked' } };
      },
    },
    'DELETE /advertiser/products/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'product_not_found' },
      request: async (key) => {
        await h.service.services.imports.putProduct(BRANDS.acme, 'walk-sku', walkProduct());
        return { method: 'DELETE', url: '/advertiser/products/walk-sku', headers: withKey(key) };
      },
    },
    'POST /advertiser/products/bulk': {
      side: 'brand',
      foreign: { reason: "puts the caller's own products (brand-catalogue.test.ts)" },
      request: (key) => ({
        method: 'POST',
        url: '/advertiser/products/bulk',
        headers: { ...withKey(key), 'content-type': 'application/x-ndjson' },
        payload: JSON.stringify({ ...walkProduct(), id: 'walk-bulk' }),
      }),
    },
    'PUT /advertiser/feeds/:id': {
      side: 'brand',
      foreign: { reason: "puts the caller's own feed: another brand's id is its own (feeds.test.ts)" },
      request: (key) => ({ method: 'PUT', url: '/advertiser/feeds/walk-feed', headers: withKey(key), payload: WALK_FEED }),
    },
    'GET /advertiser/feeds': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/feeds', headers: withKey(key) }) },
    'GET /advertiser/feeds/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'feed_not_found' },
      request: async (key) => {
        await h.service.services.feeds.putFeed(BRANDS.acme, 'walk-feed', WALK_FEED);
        return { method: 'GET', url: '/advertiser/feeds/walk-feed', headers: withKey(key) };
      },
    },
    'DELETE /advertiser/feeds/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'feed_not_found' },
      request: async (key) => {
        await h.service.services.feeds.putFeed(BRANDS.acme, 'walk-feed', WALK_FEED);
        return { method: 'DELETE', url: '/advertiser/feeds/walk-feed', headers: withKey(key) };
      },
    },
    'GET /advertiser/feeds/:id/runs': {
      side: 'brand',
      foreign: { status: 404, code: 'feed_not_found' },
      request: async (key) => {
        await h.service.services.feeds.putFeed(BRANDS.acme, 'walk-feed', WALK_FEED);
        return { method: 'GET', url: '/advertiser/feeds/walk-feed/runs', headers: withKey(key) };
      },
    },
    'GET /advertiser/feeds/:id/runs/:runId': {
      side: 'brand',
      foreign: { status: 404, code: 'run_not_found' },
      request: async (key) => {
        await h.service.services.feeds.putFeed(BRANDS.acme, 'walk-feed', WALK_FEED);
        const run = await h.service.services.feeds.uploadRun(BRANDS.acme, 'walk-feed', Readable.from([WALK_FEED_FILE]));
        return { method: 'GET', url: `/advertiser/feeds/walk-feed/runs/${run.id}`, headers: withKey(key) };
      },
    },
    'POST /advertiser/feeds/:id/runs': {
      side: 'brand',
      foreign: { status: 404, code: 'feed_not_found' },
      request: async (key) => {
        await h.service.services.feeds.putFeed(BRANDS.acme, 'walk-feed', WALK_FEED);
        return { method: 'POST', url: '/advertiser/feeds/walk-feed/runs', headers: { ...withKey(key), 'content-type': 'application/xml' }, payload: WALK_FEED_FILE };
      },
    },
    'POST /advertiser/conversions/reconciliations': {
      side: 'brand',
      foreign: { reason: "reads the file against the caller's own orders (reconciliations.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/advertiser/conversions/reconciliations', headers: { ...withKey(key), 'content-type': 'text/csv' }, payload: WALK_EXPORT }),
    },
    'GET /advertiser/conversions/reconciliations/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'reconciliation_not_found' },
      request: async (key) => {
        const made = await h.service.services.reconciliations.preview({ brandId: BRANDS.acme }, Readable.from([WALK_EXPORT]), undefined);
        return { method: 'GET', url: `/advertiser/conversions/reconciliations/${made.id}`, headers: withKey(key) };
      },
    },
    'POST /advertiser/conversions/reconciliations/:id/apply': {
      side: 'brand',
      foreign: { status: 404, code: 'reconciliation_not_found' },
      request: async (key) => {
        const made = await h.service.services.reconciliations.preview({ brandId: BRANDS.acme }, Readable.from([WALK_EXPORT]), undefined);
        return { method: 'POST', url: `/advertiser/conversions/reconciliations/${made.id}/apply`, headers: withKey(key) };
      },
    },
    'GET /advertiser/brand': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/brand', headers: withKey(key) }) },
    'GET /advertiser/tag': {
      side: 'brand',
      foreign: { reason: "reads the caller's own tag install (tag-conversions.test.ts)" },
      request: (key) => ({ method: 'GET', url: '/advertiser/tag', headers: withKey(key) }),
    },
    'POST /advertiser/tag/publishable-key': {
      side: 'brand',
      foreign: { reason: "makes the caller's own key (tag-conversions.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/advertiser/tag/publishable-key', headers: withKey(key) }),
    },
    'POST /advertiser/tag/tests': {
      side: 'brand',
      foreign: { reason: "makes the caller's own test (tag-tests.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/advertiser/tag/tests', headers: withKey(key) }),
    },
    'GET /advertiser/tag/tests/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'tag_test_not_found' },
      request: async (key) => {
        const made = await h.service.services.tagTests.start(BRANDS.acme);
        return { method: 'GET', url: `/advertiser/tag/tests/${made.id}`, headers: withKey(key) };
      },
    },
    'GET /advertiser/brand/launch': {
      side: 'brand',
      foreign: { reason: "reads the caller's own brand (joining.test.ts)" },
      request: (key) => ({ method: 'GET', url: '/advertiser/brand/launch', headers: withKey(key) }),
    },
    'POST /advertiser/brand/launch': {
      side: 'brand',
      foreign: { reason: "launches the caller's own brand; a launched brand stays as it is (joining.test.ts)" },
      request: (key) => ({ method: 'POST', url: '/advertiser/brand/launch', headers: withKey(key) }),
    },
    'PATCH /advertiser/brand': {
      side: 'brand',
      foreign: { reason: "changes the caller's own brand (brand-catalogue.test.ts)" },
      request: (key) => ({ method: 'PATCH', url: '/advertiser/brand', headers: withKey(key), payload: { clickIdParam: 'clickId' } }),
    },
    'GET /advertiser/campaigns': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/campaigns', headers: withKey(key) }) },
    'PUT /advertiser/campaigns/:id': {
      side: 'brand',
      foreign: { reason: "puts the caller's own campaign: another brand's id is its own (brand-catalogue.test.ts)" },
      request: (key) => ({ method: 'PUT', url: '/advertiser/campaigns/walk-camp', headers: withKey(key), payload: walkCampaign() }),
    },
    'PATCH /advertiser/campaigns/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'campaign_not_found' },
      request: async (key) => {
        await h.service.services.imports.putCampaign(BRANDS.acme, 'walk-camp', walkCampaign());
        return { method: 'PATCH', url: '/advertiser/campaigns/walk-camp', headers: withKey(key), payload: { name: 'Walked' } };
      },
    },
    'DELETE /advertiser/campaigns/:id': {
      side: 'brand',
      foreign: { status: 404, code: 'campaign_not_found' },
      request: async (key) => {
        await h.service.services.imports.putCampaign(BRANDS.acme, 'walk-camp', walkCampaign());
        return { method: 'DELETE', url: '/advertiser/campaigns/walk-camp', headers: withKey(key) };
      },
    },
    'GET /advertiser/coupons': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/coupons', headers: withKey(key) }) },
    'PUT /advertiser/coupons/:code': {
      side: 'brand',
      foreign: { reason: "gives a code of the caller's own: another brand's same code is its own (coupons.test.ts)" },
      request: (key) => ({ method: 'PUT', url: '/advertiser/coupons/WALK10', headers: withKey(key), payload: { affiliateId: 'aff-1' } }),
    },
    'DELETE /advertiser/coupons/:code': {
      side: 'brand',
      foreign: { status: 404, code: 'coupon_not_found' },
      request: async (key) => {
        await h.service.services.coupons.give(BRANDS.acme, 'WALK10', { affiliateId: 'aff-1' });
        return { method: 'DELETE', url: '/advertiser/coupons/WALK10', headers: withKey(key) };
      },
    },
    'GET /affiliate/coupons': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/coupons', headers: withKey(key) }) },
    'GET /postback': {
      side: 'brand',
      foreign: { status: 404, code: 'click_not_found' },
      request: async (key) => {
        const clickId = await freshClick(h, keys.affiliate, BRANDS.acme);
        const token = key === undefined ? '' : `&token=${encodeURIComponent(key)}`;
        return { method: 'GET', url: `/postback?clickId=${clickId}&orderId=${unique('walk-pb')}&value=1000${token}` };
      },
    },
  };

  for (const [side, prefix] of [
    ['affiliate', '/affiliate'],
    ['brand', '/advertiser'],
  ] as const) {
    const events = side === 'affiliate' ? ['order.created'] : ['conversion.created'];
    const mine = { status: 404, code: 'webhook_not_found' };
    Object.assign(samples, {
      [`POST ${prefix}/webhooks`]: {
        side,
        foreign: { reason: "creates the caller's own endpoint (webhooks.test.ts)" },
        request: async (key: string | undefined) => {
          await h.service.database.db.deleteFrom('webhook_endpoints').where('owner_id', '=', ownerOf(side).id).execute();
          return { method: 'POST', url: `${prefix}/webhooks`, headers: withKey(key), payload: { url: 'https://hooks.example.com/walk', events } };
        },
      },
      [`GET ${prefix}/webhooks`]: { side, foreign: OWN_LIST, request: (key: string | undefined) => ({ method: 'GET', url: `${prefix}/webhooks`, headers: withKey(key) }) },
      [`GET ${prefix}/webhooks/:id`]: { side, foreign: mine, request: async (key: string | undefined) => ({ method: 'GET', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}`, headers: withKey(key) }) },
      [`PATCH ${prefix}/webhooks/:id`]: {
        side,
        foreign: mine,
        request: async (key: string | undefined) => ({ method: 'PATCH', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}`, headers: withKey(key), payload: { description: 'walked' } }),
      },
      [`DELETE ${prefix}/webhooks/:id`]: { side, foreign: mine, request: async (key: string | undefined) => ({ method: 'DELETE', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}`, headers: withKey(key) }) },
      [`POST ${prefix}/webhooks/:id/rotate-secret`]: {
        side,
        foreign: mine,
        request: async (key: string | undefined) => ({ method: 'POST', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}/rotate-secret`, headers: withKey(key) }),
      },
      [`GET ${prefix}/webhooks/:id/deliveries`]: {
        side,
        foreign: mine,
        request: async (key: string | undefined) => ({ method: 'GET', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}/deliveries`, headers: withKey(key) }),
      },
      [`POST ${prefix}/webhooks/:id/deliveries/:deliveryId/redeliver`]: {
        side,
        foreign: mine,
        request: async (key: string | undefined) => {
          const { id, deliveryId } = await freshEndpoint(side, true);
          return { method: 'POST', url: `${prefix}/webhooks/${id}/deliveries/${deliveryId!}/redeliver`, headers: withKey(key) };
        },
      },
    } satisfies Record<string, Sample>);

    if (side === 'affiliate') {
      const theirs = { status: 404, code: 'postback_not_found' };
      const postbackUrl = async (suffix = '') => `/affiliate/postbacks/${await freshPostback()}${suffix}`;
      Object.assign(samples, {
        'PUT /affiliate/postbacks/:id': {
          side,
          foreign: { reason: "puts the caller's own postback under its id: another affiliate's of the same id is its own (postbacks.test.ts)" },
          request: async (key: string | undefined) => {
            await h.service.database.db.deleteFrom('affiliate_postbacks').where('affiliate_id', '=', 'aff-1').execute();
            return { method: 'PUT', url: '/affiliate/postbacks/walk', headers: withKey(key), payload: { url: 'https://tracker.example.com/postback?cid={click_id}', events: ['conversion.created'], active: false } };
          },
        },
        'GET /affiliate/postbacks': { side, foreign: OWN_LIST, request: (key: string | undefined) => ({ method: 'GET', url: '/affiliate/postbacks', headers: withKey(key) }) },
        'GET /affiliate/postbacks/:id': { side, foreign: theirs, request: async (key: string | undefined) => ({ method: 'GET', url: await postbackUrl(), headers: withKey(key) }) },
        'DELETE /affiliate/postbacks/:id': { side, foreign: theirs, request: async (key: string | undefined) => ({ method: 'DELETE', url: await postbackUrl(), headers: withKey(key) }) },
        'GET /affiliate/postbacks/:id/deliveries': { side, foreign: theirs, request: async (key: string | undefined) => ({ method: 'GET', url: await postbackUrl('/deliveries'), headers: withKey(key) }) },
        // tracker.example.com resolves nowhere: the test answers 200 saying so.
        'POST /affiliate/postbacks/:id/test': { side, foreign: theirs, request: async (key: string | undefined) => ({ method: 'POST', url: await postbackUrl('/test'), headers: withKey(key) }) },
      } satisfies Record<string, Sample>);
    }

    // The account routes: an owner's session only.
    const account = ownerAccount(side);
    const freshUser = async () => (await h.service.services.users.create(account, `${unique('walk')}@walk.example`)).user.id;
    const freshKey = async () => (await h.service.services.access.createApiKey(account)).id;
    /** An owner of aff-1 (the walk's), by id. */
    const ownerId = async () => (await h.service.services.users.team({ affiliateId: 'aff-1' })).find((u) => u.role === 'owner')!.id;
    Object.assign(samples, {
      [`GET ${prefix}/team`]: { side, credential: 'session', foreign: OWN_LIST, request: (key: string | undefined) => ({ method: 'GET', url: `${prefix}/team`, headers: withKey(key) }) },
      [`GET ${prefix}/audit`]: { side, credential: 'session', foreign: OWN_LIST, request: (key: string | undefined) => ({ method: 'GET', url: `${prefix}/audit?limit=10`, headers: withKey(key) }) },
      [`POST ${prefix}/team`]: {
        side,
        credential: 'session',
        foreign: { reason: "adds to the caller's own team (account.test.ts)" },
        request: (key: string | undefined) => ({ method: 'POST', url: `${prefix}/team`, headers: withKey(key), payload: { email: `${unique('walk')}@walk.example` } }),
      },
      [`DELETE ${prefix}/team/:id`]: {
        side,
        credential: 'session',
        foreign: { status: 404, code: 'user_not_found' },
        request: async (key: string | undefined) => ({ method: 'DELETE', url: `${prefix}/team/${await freshUser()}`, headers: withKey(key) }),
      },
      [`POST ${prefix}/team/:id/password-link`]: {
        side,
        credential: 'session',
        foreign: { status: 404, code: 'user_not_found' },
        request: async (key: string | undefined) => ({ method: 'POST', url: `${prefix}/team/${await freshUser()}/password-link`, headers: withKey(key) }),
      },
      [`PUT ${prefix}/team/second-factor-required`]: {
        side,
        credential: 'session',
        foreign: { reason: "sets the caller's own team (second-factors.test.ts)" },
        request: (key: string | undefined) => ({ method: 'PUT', url: `${prefix}/team/second-factor-required`, headers: withKey(key), payload: { required: false } }),
      },
      [`GET ${prefix}/keys`]: { side, credential: 'session', foreign: OWN_LIST, request: (key: string | undefined) => ({ method: 'GET', url: `${prefix}/keys`, headers: withKey(key) }) },
      [`POST ${prefix}/keys`]: {
        side,
        credential: 'session',
        foreign: { reason: "creates the caller's own key (account.test.ts)" },
        request: (key: string | undefined) => ({ method: 'POST', url: `${prefix}/keys`, headers: withKey(key), payload: { name: 'walk' } }),
      },
      [`DELETE ${prefix}/keys/:id`]: {
        side,
        credential: 'session',
        foreign: { status: 404, code: 'key_not_found' },
        request: async (key: string | undefined) => ({ method: 'DELETE', url: `${prefix}/keys/${await freshKey()}`, headers: withKey(key) }),
      },
    } satisfies Record<string, Sample>);
    if (side === 'affiliate') {
      // Payee details: an owner's session only; the owners' sessions of the walk share this password.
      const payee = { legalName: 'Walk Payee', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix' as const, keyType: 'cpf' as const, key: '529.982.247-25' } };
      Object.assign(samples, {
        'GET /affiliate/payee': {
          side,
          credential: 'session',
          foreign: { reason: "reads the caller's own details only (payee.test.ts)" },
          request: async (key: string | undefined) => {
            await h.service.services.payees.save({ affiliateId: 'aff-1', userId: await ownerId(), sessionToken: '' }, { ...payee, password: WALK_PASSWORD });
            return { method: 'GET', url: '/affiliate/payee', headers: withKey(key) };
          },
        },
        'PUT /affiliate/payee': {
          side,
          credential: 'session',
          foreign: { reason: "sets the caller's own details (payee.test.ts)" },
          request: (key: string | undefined) => ({ method: 'PUT', url: '/affiliate/payee', headers: withKey(key), payload: { ...payee, password: WALK_PASSWORD } }),
        },
      } satisfies Record<string, Sample>);
    }
  }

  // The network's operators: their session only, network-wide data.
  Object.assign(samples, {
    'GET /operator/applications': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/applications?status=pending&kind=affiliate', headers: withKey(key) }) },
    'GET /operator/applications/:id': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: async (key) => ({ method: 'GET', url: `/operator/applications/${await pendingApplication()}`, headers: withKey(key) }) },
    'PATCH /operator/applications/:id': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'PATCH', url: `/operator/applications/${await pendingApplication()}`, headers: withKey(key), payload: { status: 'declined', reason: 'Walking the routes' } }),
    },
    'POST /operator/applications/decisions': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: '/operator/applications/decisions', headers: withKey(key), payload: { ids: [await pendingApplication()], status: 'declined', reason: 'Walking the routes' } }),
    },
    'GET /operator/affiliates': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/affiliates?q=aff', headers: withKey(key) }) },
    'GET /operator/affiliates/:id': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/affiliates/aff-1?from=2026-01-01&to=2026-03-01', headers: withKey(key) }) },
    'GET /operator/brands': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/brands?q=Acme', headers: withKey(key) }) },
    'GET /operator/brands/:id': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: `/operator/brands/${BRANDS.acme}`, headers: withKey(key) }) },
    'POST /operator/affiliates/:id/suspend': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: `/operator/affiliates/${await freshMember('affiliate')}/suspend`, headers: withKey(key), payload: { reason: 'Walking the routes' } }),
    },
    'POST /operator/affiliates/:id/reactivate': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: `/operator/affiliates/${await freshMember('affiliate', true)}/reactivate`, headers: withKey(key), payload: { reason: 'Walking the routes' } }),
    },
    'POST /operator/brands/:id/suspend': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: `/operator/brands/${await freshMember('brand')}/suspend`, headers: withKey(key), payload: { reason: 'Walking the routes' } }),
    },
    'POST /operator/brands/:id/reactivate': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: `/operator/brands/${await freshMember('brand', true)}/reactivate`, headers: withKey(key), payload: { reason: 'Walking the routes' } }),
    },
    'PUT /operator/brands/:id/terms': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'PUT', url: `/operator/brands/${await freshMember('brand')}/terms`, headers: withKey(key), payload: { feeBasisPoints: 1234, dueDays: 21, reason: 'Walking the routes' } }),
    },
    'GET /operator/statements': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/statements?status=unpaid', headers: withKey(key) }) },
    // A month with nothing to bill: issues nothing, answers [] (operator-money.test.ts issues real ones).
    'POST /operator/statements': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'POST', url: '/operator/statements', headers: withKey(key), payload: { month: '2019-06' } }) },
    'POST /operator/statements/:id/payments': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: `/operator/statements/${await unpaidStatement()}/payments`, headers: withKey(key), payload: { amount: 1, reference: 'WALK-1' } }),
    },
    'GET /operator/payout-runs': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/payout-runs', headers: withKey(key) }) },
    'GET /operator/payout-runs/:id': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: async (key) => ({ method: 'GET', url: `/operator/payout-runs/${await payoutRun()}`, headers: withKey(key) }) },
    'POST /operator/payout-runs': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'POST', url: '/operator/payout-runs', headers: withKey(key), payload: { dryRun: true } }) },
    // Exported and settled already: the file again, and "already settled".
    'POST /operator/payout-runs/:id/export': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => (await freshlyVerified(key), { method: 'POST', url: `/operator/payout-runs/${await payoutRun()}/export`, headers: withKey(key), payload: {} }),
    },
    'POST /operator/payout-runs/:id/settlement': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => ({ method: 'POST', url: `/operator/payout-runs/${await payoutRun()}/settlement`, headers: withKey(key), payload: { file: `payout_id,status,reason\r\n${payoutId},settled,\r\n` } }),
    },
    'GET /operator/adjustments': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/adjustments?affiliateId=aff-1', headers: withKey(key) }) },
    'POST /operator/adjustments': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: async (key) => (await freshlyVerified(key), { method: 'POST', url: '/operator/adjustments', headers: withKey(key), payload: { affiliateId: 'aff-3', amount: 1, currency: 'BRL', reason: 'Walking the routes' } }),
    },
    'GET /operator/ledger/check': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/ledger/check', headers: withKey(key) }) },
    'GET /operator/ledger/trial-balance': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/ledger/trial-balance?month=2026-02', headers: withKey(key) }) },
    'GET /operator/holds': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/holds?affiliateId=aff-1', headers: withKey(key) }) },
    'POST /operator/holds/decisions': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      // Nothing held in the walk's world: the order answers not_found (operator-holds.test.ts decides real holds).
      request: (key) => ({ method: 'POST', url: '/operator/holds/decisions', headers: withKey(key), payload: { orderIds: ['walk-not-held'], decision: 'decline', reason: 'Walking the routes' } }),
    },
    'GET /operator/audit': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/audit?action=application.&from=2020-01-01', headers: withKey(key) }) },
    'GET /operator/audit.csv': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/audit.csv?actorKind=operator', headers: withKey(key) }) },
    'POST /operator/affiliates/:id/view-as': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: (key) => ({ method: 'POST', url: '/operator/affiliates/aff-1/view-as', headers: withKey(key), payload: { reason: 'Walking the routes' } }),
    },
    'POST /operator/brands/:id/view-as': {
      side: 'operator',
      credential: 'session',
      foreign: NETWORK_WIDE,
      request: (key) => ({ method: 'POST', url: `/operator/brands/${BRANDS.acme}/view-as`, headers: withKey(key), payload: { reason: 'Walking the routes' } }),
    },
    'DELETE /operator/view-as': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'DELETE', url: '/operator/view-as', headers: withKey(key) }) },
    'GET /operator/figures': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/figures?from=2026-01-01&to=2026-03-31&interval=month&groupBy=brand', headers: withKey(key) }) },
    'GET /operator/figures.csv': { side: 'operator', credential: 'session', foreign: NETWORK_WIDE, request: (key) => ({ method: 'GET', url: '/operator/figures.csv?from=2026-01-01&to=2026-03-31&groupBy=affiliate', headers: withKey(key) }) },
  } satisfies Record<string, Sample>);

  return {
    samples,
    keys,
    sessions,
    credentialOf: (sample, side = sample.side) => (sample.credential === 'session' ? sessions : keys)[side],
    async start(harness) {
      h = harness;
      keys.affiliate = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
      keys.brand = await brandKey(h, BRANDS.acme);
      for (const side of ['affiliate', 'brand'] as const) sessions[side] = await ownerSession(h, ownerAccount(side));
      sessions.operator = (await operatorSession(h)).credential;
      await createLink(h, keys.affiliate, BRANDS.acme); // so the brand has a link to click
      // The world's o-aff1-2 locked in February 2026: Acme's statement of that month bills it; paid,
      // and aff-1's payout details saved, a payout run pays it: a statement and a payout to read.
      await givePayeeDetails(h, 'aff-1');
      await releasePayeeHold(h.service.database, 'aff-1');
      payoutId = (await payMonth(h.service.services, '2026-02', 'aff-1'))[0]!.id;
      statementId = (await h.service.services.statements.list(BRANDS.acme, { page: 1, limit: 1 })).items[0]!.id;
    },
  };
}
