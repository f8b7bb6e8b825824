// LinksRepository against a real database: insertOrGet is idempotent per (channel, request key);
// list pages an affiliate's links of one type newest first (id breaking ties) with their channel
// and a total; forResources finds plain links; findRedirectTarget joins the brand's click id
// parameter; setActive (nothing for an unknown code) and codeOf; changesSince answers the codes
// changed at or after a time, or 'everything' once a brand changed (the last tests of the file: a
// brand change answers every later question with 'everything').
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewLink } from '../../src/storage/repositories/links.js';
import { ManualClock } from '../../src/lib/clock.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { ALL, idsOf, openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

const OWNER: Record<string, string> = { 'ch-site': 'aff-1', 'ch-insta': 'aff-1', 'ch-wa': 'aff-2' };

const link = (id: string, channelId: string, extra: Partial<NewLink> = {}): NewLink => ({
  id,
  code: `code-${id}`,
  affiliate_id: OWNER[channelId]!,
  channel_id: channelId,
  organization_id: 'b-acme',
  link_type: 'BrandPage',
  feature_id: null,
  request_key: `key-${id}`,
  original_url: `https://acme.example.com/${id}`,
  mdasc: null,
  ...extra,
});

const at = (day: string) => `2026-${day}T00:00:00.000Z`;

// Brands and channels are written in 2025; links from January 2026 on.
before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database, new ManualClock('2025-01-01T00:00:00.000Z'));
  await services.imports.upsertBrand(brandInput({ id: 'b-acme', name: 'Acme', slug: 'acme', site: 'https://acme.example.com' }));
  await services.imports.upsertBrand(brandInput({ id: 'b-globex', name: 'Globex', slug: 'globex', site: 'https://globex.example.com', clickIdParam: 'utm_click' }));
  await services.access.upsertAffiliate('aff-1', 'One');
  await services.access.upsertAffiliate('aff-2', 'Two');
  await services.channels.add('aff-1', 'site', 'My blog', 'ch-site');
  await services.channels.add('aff-1', 'instagram', '@aff1', 'ch-insta');
  await services.channels.add('aff-2', 'whatsapp', 'Deals', 'ch-wa');
  const { links } = f.repos;
  await links.insertOrGet(link('l1', 'ch-site'), at('01-01'));
  await links.insertOrGet(link('l2', 'ch-insta', { organization_id: 'b-globex', original_url: 'https://globex.example.com/' }), at('01-02'));
  await links.insertOrGet(link('l3', 'ch-site', { link_type: 'Coupon', feature_id: 'c-1' }), at('01-03'));
  await links.insertOrGet(link('l4', 'ch-site', { link_type: 'Coupon', feature_id: 'c-2' }), at('01-03'));
  await links.insertOrGet(link('l5', 'ch-insta', { mdasc: 'camp-x' }), at('01-04'));
  await links.insertOrGet(link('l6', 'ch-wa'), at('01-05'));
});

after(async () => {
  await f?.close();
});

describe('LinksRepository.insertOrGet', () => {
  test('inserts an active link with no clicks, at the time given', async () => {
    const row = await f.repos.links.insertOrGet(link('i1', 'ch-wa', { link_type: 'Offer', request_key: 'same-request' }), at('02-01'));
    assert.deepEqual(row, { ...link('i1', 'ch-wa', { link_type: 'Offer', request_key: 'same-request' }), active: 1, click_count: 0, created_at: at('02-01'), updated_at: at('02-01') });
  });

  test('a second request of the channel for the same key answers the first link, even with another id and code', async () => {
    const again = await f.repos.links.insertOrGet(
      link('i2', 'ch-wa', { link_type: 'Offer', request_key: 'same-request', code: 'other-code', original_url: 'https://elsewhere.example.com/' }),
      at('02-02'),
    );
    assert.equal(again.id, 'i1');
    assert.equal(again.code, 'code-i1');
    assert.equal(again.original_url, 'https://acme.example.com/i1');
    assert.equal(again.created_at, at('02-01'));
    const rows = await f.database.db.selectFrom('short_links').select('id').where('channel_id', '=', 'ch-wa').where('request_key', '=', 'same-request').execute();
    assert.deepEqual(idsOf(rows), ['i1']);
    assert.equal(await f.repos.links.codeOf('i2'), undefined);
  });

  test('the same request on another channel makes a link of its own', async () => {
    const other = await f.repos.links.insertOrGet(link('i3', 'ch-site', { link_type: 'Offer', request_key: 'same-request' }), at('02-03'));
    assert.equal(other.id, 'i3');
    assert.equal(other.channel_id, 'ch-site');
  });

  test('concurrent identical requests make one link', async () => {
    const tries = ['k1', 'k2', 'k3', 'k4'].map((id) => f.repos.links.insertOrGet(link(id, 'ch-insta', { link_type: 'Offer', request_key: 'raced' }), at('02-04')));
    const rows = await Promise.all(tries);
    assert.equal(new Set(rows.map((r) => r.id)).size, 1);
    const stored = await f.database.db.selectFrom('short_links').select('id').where('channel_id', '=', 'ch-insta').where('request_key', '=', 'raced').execute();
    assert.deepEqual(idsOf(stored), [rows[0]!.id]);
  });
});

describe('LinksRepository.list', () => {
  test("pages the affiliate's links of one type newest first, with their channel and the total", async () => {
    const page = await f.repos.links.list('aff-1', { linkType: 'BrandPage' }, ALL);
    assert.deepEqual(idsOf(page.rows), ['l5', 'l2', 'l1']);
    assert.equal(page.total, 3);
    assert.deepEqual(
      page.rows.map((r) => [r.channel_name, r.channel_kind]),
      [
        ['@aff1', 'instagram'],
        ['@aff1', 'instagram'],
        ['My blog', 'site'],
      ],
    );
    const second = await f.repos.links.list('aff-1', { linkType: 'BrandPage' }, { limit: 1, offset: 1 });
    assert.deepEqual({ ids: idsOf(second.rows), total: second.total }, { ids: ['l2'], total: 3 });
  });

  test('links created at the same time are ordered by id, descending', async () => {
    const page = await f.repos.links.list('aff-1', { linkType: 'Coupon' }, ALL);
    assert.deepEqual({ ids: idsOf(page.rows), total: page.total }, { ids: ['l4', 'l3'], total: 2 });
  });

  test('feature and brand filters, and another affiliate sees only its own', async () => {
    const byFeature = await f.repos.links.list('aff-1', { linkType: 'Coupon', featureId: 'c-1' }, ALL);
    assert.deepEqual({ ids: idsOf(byFeature.rows), total: byFeature.total }, { ids: ['l3'], total: 1 });
    const byBrand = await f.repos.links.list('aff-1', { linkType: 'BrandPage', organizationId: 'b-acme' }, ALL);
    assert.deepEqual({ ids: idsOf(byBrand.rows), total: byBrand.total }, { ids: ['l5', 'l1'], total: 2 });
    const theirs = await f.repos.links.list('aff-2', { linkType: 'BrandPage' }, ALL);
    assert.deepEqual({ ids: idsOf(theirs.rows), total: theirs.total }, { ids: ['l6'], total: 1 });
  });
});

describe('LinksRepository.forResources', () => {
  test("answers the affiliate's plain links (no mdasc) of the brands or features asked for, oldest first", async () => {
    const byBrand = await f.repos.links.forResources('aff-1', { brandIds: ['b-acme'], linkTypes: ['BrandPage', 'Coupon'] });
    assert.deepEqual(idsOf(byBrand), ['l1', 'l3', 'l4']);
    const byFeature = await f.repos.links.forResources('aff-1', { featureIds: ['c-2'], linkTypes: ['Coupon'] });
    assert.deepEqual(idsOf(byFeature), ['l4']);
    assert.deepEqual(await f.repos.links.forResources('aff-1', { brandIds: [], linkTypes: ['BrandPage'] }), []);
    assert.deepEqual(await f.repos.links.forResources('aff-1', { featureIds: [], linkTypes: ['Coupon'] }), []);
  });
});

describe('LinksRepository redirect lookup and activation', () => {
  test("findRedirectTarget answers the link with its brand's click id parameter", async () => {
    assert.deepEqual(await f.repos.links.findRedirectTarget('code-l2'), {
      linkId: 'l2',
      destination: 'https://globex.example.com/',
      active: true,
      affiliateId: 'aff-1',
      channelId: 'ch-insta',
      brandId: 'b-globex',
      mdasc: null,
      clickIdParam: 'utm_click',
    });
    const l5 = await f.repos.links.findRedirectTarget('code-l5');
    assert.equal(l5?.clickIdParam, 'clickId');
    assert.equal(l5?.mdasc, 'camp-x');
    assert.equal(await f.repos.links.findRedirectTarget('code-missing'), undefined);
  });

  test('setActive answers nothing for an unknown code, and switches a known link off and on', async () => {
    // Asserted as falsy/truthy: the answer for a known code is what the caller tests.
    assert.ok(!(await f.repos.links.setActive('code-missing', false, at('03-01'))));
    assert.equal(await f.database.db.selectFrom('short_links').select('id').where('updated_at', '=', at('03-01')).executeTakeFirst(), undefined);
    assert.ok(await f.repos.links.setActive('code-l6', false, at('03-01')));
    assert.equal((await f.repos.links.findRedirectTarget('code-l6'))?.active, false);
    const row = await f.database.db.selectFrom('short_links').select(['active', 'updated_at', 'created_at']).where('id', '=', 'l6').executeTakeFirstOrThrow();
    assert.deepEqual(row, { active: 0, updated_at: at('03-01'), created_at: at('01-05') });
    assert.ok(await f.repos.links.setActive('code-l6', true, at('03-02')));
    assert.equal((await f.repos.links.findRedirectTarget('code-l6'))?.active, true);
  });

  test('codeOf answers the code of a link id', async () => {
    assert.equal(await f.repos.links.codeOf('l3'), 'code-l3');
    assert.equal(await f.repos.links.codeOf('missing'), undefined);
  });
});

// Last in the file: everything above happens before 2027.
describe('LinksRepository.changesSince', () => {
  const sorted = (changes: string[] | 'everything') => (changes === 'everything' ? changes : [...changes].sort());

  test('answers the codes of links added or changed at or after the time', async () => {
    await f.repos.links.insertOrGet(link('cs-1', 'ch-site'), '2027-01-01T00:00:00.000Z');
    await f.repos.links.insertOrGet(link('cs-2', 'ch-wa'), '2027-01-02T00:00:00.000Z');
    assert.deepEqual(sorted(await f.repos.links.changesSince('2027-01-01T00:00:00.000Z')), ['code-cs-1', 'code-cs-2']);
    assert.deepEqual(sorted(await f.repos.links.changesSince('2027-01-01T00:00:00.001Z')), ['code-cs-2']);
    await f.repos.links.setActive('code-l1', false, '2027-01-03T00:00:00.000Z');
    assert.deepEqual(sorted(await f.repos.links.changesSince('2027-01-02T00:00:00.001Z')), ['code-l1']);
    assert.deepEqual(await f.repos.links.changesSince('2027-01-03T00:00:00.001Z'), []);
  });

  test("answers 'everything' when a brand changed at or after the time", async () => {
    await servicesFor(f.database, new ManualClock('2028-01-01T00:00:00.000Z')).imports.upsertBrand(
      brandInput({ id: 'b-globex', name: 'Globex', slug: 'globex', site: 'https://globex.example.com', clickIdParam: 'gclid' }),
    );
    assert.equal(await f.repos.links.changesSince('2027-06-01T00:00:00.000Z'), 'everything');
    assert.equal(await f.repos.links.changesSince('2028-01-01T00:00:00.000Z'), 'everything');
    assert.deepEqual(await f.repos.links.changesSince('2028-01-01T00:00:00.001Z'), []);
    assert.equal((await f.repos.links.findRedirectTarget('code-l2'))?.clickIdParam, 'gclid');
  });
});
