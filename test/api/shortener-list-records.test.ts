// GET /affiliate/shortener/urls: what each record adds to the spec's fields so that links which
// differ only by code can be told apart (channel, mdasc, featureId, createdAt). A field without a
// value is omitted, never null.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { newKey, qs, sleep } from '../helpers/api.js';
import type { ShortUrl } from '../../src/schemas/short-url.js';

/** A record of the list, as its schema types it. */
type ShortUrlRecord = ShortUrl;

const SPEC_FIELDS = ['active', 'count', 'linkType', 'organizationId', 'originalUrl', 'shortUrl', 'urlCode'];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let h: Harness;
let aff1: string;
let startedAt: string;
let finishedAt: string;
/** Short URLs made for aff-1, by what they were made for. */
const made: Record<string, string[]> = {};

async function create(body: Record<string, unknown>): Promise<string[]> {
  const res = await h.post('/affiliate/shortener/url', body, aff1);
  assert.equal(res.statusCode, 200, res.body);
  await sleep(5);
  return (res.json<Array<{ shortUrls: string[] }>>()).flatMap((c) => c.shortUrls);
}

async function list(query: Record<string, string | number>): Promise<ShortUrlRecord[]> {
  const res = await h.get(`/affiliate/shortener/urls${qs({ limit: 100, ...query })}`, aff1);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json<Array<{ data: ShortUrlRecord[] }>>())[0]!.data;
}

const only = (records: ShortUrlRecord[], urls: string[]) => records.filter((r) => urls.includes(r.shortUrl));

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  startedAt = new Date().toISOString();
  made.plain = await create({ organizationId: BRANDS.acme, type: 'BrandPage' });
  made.tagged = await create({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: 'newsletter-42' });
  made.coupon = await create({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-coupon' });
  made.offer = await create({ organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-acme-offer-sheet', mdasc: 'x1' });
  finishedAt = new Date().toISOString();
});
after(async () => {
  await h.close();
});

describe('GET /affiliate/shortener/urls: records say which link they are', () => {
  test('the world has what this file expects', () => {
    for (const name of ['plain', 'tagged', 'coupon', 'offer']) assert.equal(made[name]!.length, 2, `${name}: one link per channel of aff-1`);
  });

  test('two channels give two records with different channel ids, names and kinds', async () => {
    const records = only(await list({ type: 'BrandPage' }), made.plain!);
    assert.equal(records.length, 2);
    const channels = records.map((r) => r.channel).sort((a, b) => String(a?.kind).localeCompare(String(b?.kind)));
    assert.deepEqual(channels, [
      { id: h.world.channels.aff1Instagram, name: '@aff1', kind: 'instagram' },
      { id: h.world.channels.aff1Site, name: 'My blog', kind: 'site' },
    ]);
    // Otherwise the two records are the same but for their codes.
    const [a, b] = records;
    assert.notEqual(a!.urlCode, b!.urlCode);
    assert.equal(a!.originalUrl, b!.originalUrl);
  });

  test('a link with an mdasc shows it; a link without one has no mdasc key at all', async () => {
    const records = await list({ type: 'BrandPage' });
    const tagged = only(records, made.tagged!);
    const plain = only(records, made.plain!);
    assert.equal(tagged.length, 2);
    assert.equal(plain.length, 2);
    for (const r of tagged) assert.equal(r.mdasc, 'newsletter-42');
    for (const r of plain) assert.ok(!('mdasc' in r), `a link without mdasc must omit the field, not send null: ${JSON.stringify(r)}`);
  });

  test('featureId is shown on Coupon and Offer links and absent on the others', async () => {
    for (const r of only(await list({ type: 'Coupon', featureId: 'c-acme-coupon' }), made.coupon!)) {
      assert.equal(r.featureId, 'c-acme-coupon');
      assert.ok(!('mdasc' in r), JSON.stringify(r));
    }
    const offers = only(await list({ type: 'Offer', featureId: 'c-acme-offer-sheet' }), made.offer!);
    assert.equal(offers.length, 2);
    for (const r of offers) {
      assert.equal(r.featureId, 'c-acme-offer-sheet');
      assert.equal(r.mdasc, 'x1');
    }
    for (const r of await list({ type: 'BrandPage' })) assert.ok(!('featureId' in r), `a BrandPage link has no featureId: ${JSON.stringify(r)}`);
  });

  test('createdAt is a UTC ISO 8601 date-time: when the link was made', async () => {
    const records = await list({ type: 'BrandPage' });
    assert.equal(records.length, 4);
    for (const r of records) {
      assert.match(String(r.createdAt), ISO_UTC);
      assert.equal(new Date(r.createdAt).toISOString(), r.createdAt);
      assert.ok(r.createdAt >= startedAt && r.createdAt <= finishedAt, `${r.createdAt} is between ${startedAt} and ${finishedAt}`);
    }
    const times = records.map((r) => r.createdAt);
    assert.deepEqual(times, [...times].sort().reverse(), 'the list is newest first by createdAt');
  });

  test('every record has the spec’s fields plus channel and createdAt, and mdasc and featureId only when set', async () => {
    for (const r of [...(await list({ type: 'BrandPage' })), ...(await list({ type: 'Offer', featureId: 'c-acme-offer-sheet' }))]) {
      const expected = [...SPEC_FIELDS, 'brandName', 'channel', 'createdAt'];
      if (r.mdasc !== undefined) expected.push('mdasc');
      if (r.featureId !== undefined) expected.push('featureId');
      assert.deepEqual(Object.keys(r).sort(), expected.sort());
      for (const [key, value] of Object.entries(r)) assert.notEqual(value, null, `${key} is null`);
    }
  });
});

describe('the OpenAPI document describes the additions', () => {
  test('ShortUrl: channel and createdAt required, mdasc and featureId optional, all described as additions to the spec', async () => {
    const res = await h.request({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const schema = (res.json<{ components: { schemas: Record<string, { description?: string; required?: string[]; properties: Record<string, { description?: string; format?: string }> }> } }>())
      .components.schemas.ShortUrl!;
    assert.match(String(schema.description), /additions to (it|the spec)/i);
    for (const field of SPEC_FIELDS) assert.ok(schema.required?.includes(field), `${field} is required`);
    for (const field of ['channel', 'createdAt']) assert.ok(schema.required?.includes(field), `${field} is required`);
    for (const field of ['mdasc', 'featureId']) assert.ok(!schema.required?.includes(field), `${field} is optional`);
    for (const field of ['channel', 'mdasc', 'featureId', 'createdAt']) {
      assert.match(String(schema.properties[field]?.description), /^Addition to the spec/, `${field} is described as an addition to the spec`);
    }
    assert.equal(schema.properties.createdAt!.format, 'date-time');
  });
});
