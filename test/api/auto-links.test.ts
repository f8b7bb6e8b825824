// Links made automatically on an affiliate's own site: a site channel's public link key and the
// sites it works on (each on the channel's domain), the script (GET /links.js), the domains of the
// brands the channel may promote (GET /links/domains) and the channel's link to a page a visitor
// followed (POST /links/auto): made once, the same after, listed and counted as any link; refused
// from another site, for a brand the affiliate may not promote, with an unknown or replaced key,
// and past the limits per address and per key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { clickLink, clicksSummed, createLink } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { LinkScript } from '../../src/schemas/link-script.js';

const BLOG = 'https://www.travelblog.example';
const PAGE = `${BLOG}/best-sneakers`;
const CHANNEL = 'ch-aff1-site';
const MINUTE = 60_000;
const PER_ADDRESS = 8;
const PER_KEY = 25;
const clock = new ManualClock();
let h: Harness;
let key = '';
let visitors = 0;

interface ErrorAnswer {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

before(async () => {
  h = await startHarness({ AUTO_LINK_LIMIT_PER_ADDRESS: String(PER_ADDRESS), AUTO_LINK_LIMIT_PER_KEY: String(PER_KEY) }, { clock });
});
after(() => h?.close());

/** A visitor of its own (the script's requests are limited per client address). */
const visitor = () => `198.18.${Math.floor(++visitors / 250)}.${visitors % 250}`;

const script = async (channelId = CHANNEL, apiKey = h.world.keys.aff1) => h.request({ method: 'GET', url: `/affiliate/link-script/${channelId}`, headers: { 'x-api-key': apiKey } });
const setSites = (sites: string[], channelId = CHANNEL, apiKey = h.world.keys.aff1) =>
  h.request({ method: 'PUT', url: `/affiliate/link-script/${channelId}`, headers: { 'x-api-key': apiKey }, payload: { sites } });
const newKey = async (channelId = CHANNEL, apiKey = h.world.keys.aff1): Promise<LinkScript> => {
  const res = await h.request({ method: 'POST', url: `/affiliate/link-script/${channelId}/key`, headers: { 'x-api-key': apiKey } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: LinkScript }>().data;
};
const setChannelSite = async (site: string, channelId = CHANNEL, apiKey = h.world.keys.aff1) => {
  const res = await h.request({ method: 'PATCH', url: `/affiliate/channels/${channelId}`, headers: { 'x-api-key': apiKey }, payload: { site } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { site?: string } }>().data;
};
const domains = (options: { key?: string; origin?: string; address?: string } = {}) =>
  h.request({ method: 'GET', url: `/links/domains?key=${options.key ?? key}`, headers: options.origin === '' ? {} : { origin: options.origin ?? BLOG }, remoteAddress: options.address ?? visitor() });
const auto = (body: { key?: string; page?: string; to: string }, options: { origin?: string; address?: string; plain?: boolean } = {}) => {
  const payload = { key: body.key ?? key, page: body.page ?? PAGE, to: body.to };
  return h.request({
    method: 'POST',
    url: '/links/auto',
    headers: { ...(options.origin !== '' && { origin: options.origin ?? BLOG }), 'content-type': options.plain ? 'text/plain' : 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: options.address ?? visitor(),
  });
};
const made = (res: LightMyRequestResponse) => {
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { shortUrl: string; urlCode: string; organizationId: string; brandName: string } }>().data;
};
const refused = (res: LightMyRequestResponse, status: number, code: string) => {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json<ErrorAnswer>();
  assert.equal(body.code, code, res.body);
  return body;
};
/** Past the minute the limits count in and the channel's domain list is kept. */
const nextMinute = () => clock.advance(MINUTE + 1000);

test('a site channel gets its link key when the affiliate makes it: shown in the snippet, never an API key', async () => {
  const before = await script();
  assert.equal(before.statusCode, 200, before.body);
  const empty = before.json<{ data: LinkScript }>().data;
  assert.equal(empty.key, undefined, 'no key until the affiliate makes one');
  assert.equal(empty.snippet, undefined);
  assert.deepEqual(empty.sites, []);
  assert.deepEqual(empty.links, []);
  assert.match(empty.scriptUrl, /^http:\/\/go\.test\/links\.js\?v=[0-9a-f]{12}$/);

  const first = await newKey();
  assert.match(first.key!, /^aflnk_[0-9A-Za-z]{24}$/);
  assert.equal(first.snippet, `<script defer src="${first.scriptUrl}" data-key="${first.key}"></script>`);
  key = first.key!;
  assert.equal((await script()).json<{ data: LinkScript }>().data.key, key, 'read again, the same key');

  const asApiKey = await h.get('/affiliate/brands', key);
  assert.equal(asApiKey.statusCode, 401, 'a link key is no API key');

  refused(await script('ch-aff1-insta'), 409, 'channel_not_a_site');
  refused(await script('ch-aff2-wa'), 404, 'channel_not_found');
  refused(await script(CHANNEL, h.world.keys.aff2), 404, 'channel_not_found');
  refused(await setSites([BLOG], CHANNEL, h.world.keys.aff2), 404, 'channel_not_found');
});

test('the sites the script works on must be on the channel’s domain: another is refused, naming it', async () => {
  refused(await setSites([BLOG]), 409, 'channel_site_missing');
  assert.equal((await setChannelSite('www.travelblog.example')).site, 'https://www.travelblog.example/', 'the channel’s address, written as people write it');

  const set = await setSites(['https://www.travelblog.example', 'travelblog.example', 'https://blog.travelblog.example/any-page', 'travelblog.example']);
  assert.equal(set.statusCode, 200, set.body);
  const view = set.json<{ data: LinkScript }>().data;
  assert.equal(view.domain, 'travelblog.example');
  assert.deepEqual([...view.sites].sort(), ['https://blog.travelblog.example', 'https://travelblog.example', 'https://www.travelblog.example'], 'each kept once, as its origin');

  const outside = refused(await setSites([BLOG, 'https://www.acme.com']), 422, 'site_outside_channel');
  assert.deepEqual(outside.details, { site: 'https://www.acme.com', domain: 'travelblog.example' });
  assert.match(outside.message, /https:\/\/www\.acme\.com is not on travelblog\.example/);
  refused(await setSites(['a site']), 400, 'invalid_site');
  refused(await setSites(['ftp://travelblog.example']), 400, 'invalid_site');
  assert.equal((await script()).json<{ data: LinkScript }>().data.sites.length, 3, 'a refused list changes nothing');

  // Only the blog itself stays: the tests below follow links from it.
  assert.deepEqual((await setSites([BLOG])).json<{ data: LinkScript }>().data.sites, [BLOG]);
});

test('GET /links.js: one file for every affiliate, at most 3 KB gzipped, kept a day under its versioned address', async () => {
  const { scriptUrl } = (await script()).json<{ data: LinkScript }>().data;
  const url = new URL(scriptUrl);
  const current = await h.request({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { origin: BLOG } });
  assert.equal(current.statusCode, 200);
  assert.match(String(current.headers['content-type']), /^text\/javascript/);
  assert.equal(current.headers['cache-control'], 'public, max-age=86400, immutable');
  const gzipped = gzipSync(current.rawPayload).length;
  assert.ok(gzipped <= 3072, `at most 3 KB gzipped, is ${gzipped} bytes`);
  assert.equal(current.headers['cross-origin-resource-policy'], 'cross-origin', 'sites load it from their own origin');
  assert.doesNotMatch(current.body, /aflnk_/, 'the key is the snippet’s, not the script’s');
  const unversioned = await h.request({ method: 'GET', url: '/links.js?v=an-old-one' });
  assert.equal(unversioned.headers['cache-control'], 'public, max-age=300', 'an old snippet’s version is kept minutes only');
  assert.equal(unversioned.body, current.body);
});

test('the domain list: the brands the channel may promote, for the key’s sites only', async () => {
  const res = await domains();
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['access-control-allow-origin'], BLOG);
  assert.match(String(res.headers.vary), /Origin/i);
  assert.equal(res.headers['cache-control'], 'public, max-age=600');
  const listed = res.json<{ data: { domains: string[] } }>().data.domains;
  // Acme is public, Globex private and approving aff-1, Umbrella public and taking site channels.
  for (const domain of ['acme.com', 'globex.com', 'umbrella.com']) assert.ok(listed.includes(domain), `${domain} in ${listed.join(', ')}`);
  // Initech is private and has not approved aff-1; Hooli is not active.
  for (const domain of ['initech.com', 'hooli.com']) assert.ok(!listed.includes(domain), `${domain} is not listed`);

  const elsewhere = await domains({ origin: 'https://copycat.example' });
  refused(elsewhere, 403, 'site_not_allowed');
  assert.equal(elsewhere.headers['access-control-allow-origin'], undefined, 'another site cannot read the answer');
  refused(await domains({ origin: '' }), 403, 'site_not_allowed');
  refused(await domains({ key: 'aflnk_000000000000000000000000' }), 403, 'invalid_link_key');
});

test('a followed link becomes the channel’s link to exactly that page: the same one every time, listed and counted as any link', async () => {
  const to = 'https://www.acme.com/store/p/red-sneakers?size=42&colour=red';
  const first = made(await auto({ to }));
  assert.equal(first.organizationId, BRANDS.acme);
  assert.equal(first.brandName, 'Acme');
  assert.match(first.shortUrl, /^http:\/\/go\.test\/[0-9A-Za-z]{7}$/);
  assert.equal(made(await auto({ to })).shortUrl, first.shortUrl, 'the same page: the same short link');
  assert.equal(made(await auto({ to, page: `${BLOG}/another-post` }, { plain: true })).shortUrl, first.shortUrl, 'from another page, as text/plain: the same link');
  assert.equal(made(await auto({ to: to.replace('https:', 'http:') })).shortUrl, first.shortUrl, 'an http link: the page’s https address');

  clock.advance(1000);
  const other = made(await auto({ to: 'https://shop.acme.com/boots' }));
  clock.advance(1000);
  assert.notEqual(other.shortUrl, first.shortUrl, 'another page: another link');
  const globex = made(await auto({ to: 'https://globex.com/headphones' }));
  assert.equal(globex.brandName, 'Globex', 'a private brand that approved the affiliate');

  const res = await auto({ to });
  assert.equal(res.headers['access-control-allow-origin'], BLOG, 'the blog reads the answer');

  // Listed with the affiliate's Custom links, on the key's channel.
  const list = await h.get(`/affiliate/shortener/urls?type=Custom&organizationId=${BRANDS.acme}`, h.world.keys.aff1);
  const links = list.json<Array<{ data: Array<{ shortUrl: string; originalUrl: string; channel: { id: string }; count: number }> }>>()[0]!.data;
  const listed = links.find((l) => l.shortUrl === first.shortUrl);
  assert.ok(listed, 'listed with the affiliate’s links');
  assert.equal(listed.originalUrl, to);
  assert.equal(listed.channel.id, CHANNEL);

  // A visitor follows it: the page itself, with the click's id, and the click counts.
  const { location } = await clickLink(h, first.urlCode);
  assert.equal(`${location.origin}${location.pathname}`, 'https://www.acme.com/store/p/red-sneakers');
  assert.equal(location.searchParams.get('size'), '42');
  await h.service.services.tracking.flushClicks();
  await clicksSummed(h);
  const view = (await script()).json<{ data: LinkScript }>().data;
  const shown = view.links.find((l) => l.shortUrl === first.shortUrl);
  assert.ok(shown, 'the channel’s page shows the links its script made');
  assert.equal(shown.count, 1);
  assert.equal(shown.brandName, 'Acme');
  assert.equal(shown.originalUrl, to);
  assert.equal(shown.page, PAGE, 'the page it was first followed from');
  assert.deepEqual(
    view.links.map((l) => l.brandName),
    ['Globex', 'Acme', 'Acme'],
    'newest first',
  );

  // A Custom link the affiliate made itself for the same page on the channel is that same link.
  const own = await createLink(h, h.world.keys.aff1, BRANDS.acme, { type: 'Custom', url: to, channelId: CHANNEL });
  assert.equal(own.shortUrl, first.shortUrl);
});

test('refused: another site, a brand the channel may not promote, an unknown or replaced key', async () => {
  const to = 'https://www.acme.com/store/p/blue-boots';
  const elsewhere = await auto({ to }, { origin: 'https://copycat.example' });
  const error = refused(elsewhere, 403, 'site_not_allowed');
  assert.deepEqual(error.details, { origin: 'https://copycat.example', sites: [BLOG] });
  assert.equal(elsewhere.headers['access-control-allow-origin'], undefined);
  refused(await auto({ to }, { origin: '' }), 403, 'site_not_allowed');
  refused(await auto({ to, page: 'https://copycat.example/post' }), 403, 'site_not_allowed');

  const initech = refused(await auto({ to: 'https://initech.com/stapler' }), 422, 'brand_not_promotable');
  assert.deepEqual(initech.details, { host: 'initech.com' });
  refused(await auto({ to: 'https://hooli.com/' }), 422, 'brand_not_promotable');
  refused(await auto({ to: 'https://www.wikipedia.org/wiki/Sneaker' }), 422, 'brand_not_promotable');
  refused(await auto({ to: 'javascript:alert(1)' }), 400, 'invalid_body');
  // A brand that stops taking site channels: refused once the channel's list is read again.
  made(await auto({ to: 'https://umbrella.com/masks' }));
  await h.service.database.db.updateTable('brands').set({ allowed_channel_kinds: '["instagram"]' }).where('id', '=', BRANDS.umbrella).execute();
  nextMinute();
  refused(await auto({ to: 'https://umbrella.com/masks' }), 422, 'brand_not_promotable');
  await h.service.database.db.updateTable('brands').set({ allowed_channel_kinds: '["site"]' }).where('id', '=', BRANDS.umbrella).execute();

  refused(await auto({ to, key: 'aflnk_000000000000000000000000' }), 403, 'invalid_link_key');
  const replaced = key;
  const renewed = await newKey();
  assert.notEqual(renewed.key, replaced);
  assert.deepEqual(renewed.sites, [BLOG], 'the sites stay with the channel');
  refused(await auto({ to, key: replaced }), 403, 'invalid_link_key');
  refused(await domains({ key: replaced }), 403, 'invalid_link_key');
  key = renewed.key!;
  made(await auto({ to }));
});

test('a suspended affiliate’s key makes no links', async () => {
  const aff3 = h.world.keys.aff3;
  const created = await h.request({ method: 'POST', url: '/affiliate/channels', headers: { 'x-api-key': aff3 }, payload: { availableChannelId: 'site', name: 'Cooking blog', site: 'https://cooking.example' } });
  assert.equal(created.statusCode, 201, created.body);
  const channel = created.json<{ data: { id: string; site: string } }>().data;
  assert.equal(channel.site, 'https://cooking.example/');
  assert.equal((await setSites(['https://cooking.example'], channel.id, aff3)).statusCode, 200);
  const theirs = (await newKey(channel.id, aff3)).key!;
  made(await auto({ key: theirs, page: 'https://cooking.example/pasta', to: 'https://www.acme.com/store/aprons' }, { origin: 'https://cooking.example' }));
  await h.service.services.suspensions.suspend({ kind: 'cli' }, { affiliateId: 'aff-3' }, 'Clicks from a click farm');
  refused(await auto({ key: theirs, page: 'https://cooking.example/pasta', to: 'https://www.acme.com/store/aprons' }, { origin: 'https://cooking.example' }), 403, 'account_suspended');
});

test('a channel’s address is checked as its kind’s', async () => {
  const res = await h.request({ method: 'PATCH', url: '/affiliate/channels/ch-aff1-insta', headers: { 'x-api-key': h.world.keys.aff1 }, payload: { site: 'https://www.tiktok.com/@aff1' } });
  refused(res, 400, 'website_network_mismatch');
  assert.equal((await setChannelSite('instagram.com/aff1', 'ch-aff1-insta')).site, 'https://www.instagram.com/aff1');
});

test('limited per client address and per key: 429 with Retry-After, in the error shape', async () => {
  nextMinute();
  const to = 'https://www.acme.com/store/p/red-sneakers?size=42&colour=red';
  const address = visitor();
  for (let i = 0; i < PER_ADDRESS; i++) made(await auto({ to }, { address }));
  const tooMany = await auto({ to }, { address });
  refused(tooMany, 429, 'too_many_requests');
  assert.ok(Number(tooMany.headers['retry-after']) >= 1, String(tooMany.headers['retry-after']));
  refused(await domains({ address }), 429, 'too_many_requests');
  made(await auto({ to })); // another visitor is not held back

  nextMinute();
  for (let i = 0; i < PER_KEY; i++) made(await auto({ to }));
  const keyLimit = await auto({ to });
  refused(keyLimit, 429, 'too_many_requests');
  assert.ok(Number(keyLimit.headers['retry-after']) >= 1);
  assert.equal(keyLimit.headers['access-control-allow-origin'], BLOG, 'the blog reads why');
  nextMinute();
  made(await auto({ to }));
});
