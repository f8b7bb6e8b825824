// What a brand must send to write a product or a campaign: what matters (a product's name, page,
// availability and price; a campaign's name, type, period and what its type needs), everything
// else taking its documented default, while affiliates read the same full shape as ever.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey } from '../helpers/tracking.js';

type Pricing = { listPrice: number; price: number; metadata: unknown[] };
type Option = { id: string; available: boolean; pricing: Pricing[] } & Record<string, unknown>;
type Product = { id: string; name: string; available: boolean; description: string; images: unknown[]; metadata: unknown[]; options: Option[]; createdAt: string; updatedAt: string };
type Campaign = { id: string; url: string; categories: string[]; description: string; isHighlight: boolean; mediaKit: unknown; code?: string; offerType?: string } & Record<string, unknown>;

let h: Harness;
let aff1: string;
let acme: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
});
after(async () => {
  await h.close();
});

const write = (method: 'PUT' | 'PATCH', path: string, payload: object, key = acme) => h.request({ method, url: path, headers: { 'x-api-key': key }, payload });
const putProduct = (id: string, payload: object) => write('PUT', `/advertiser/products/${id}`, payload);
const patchProduct = (id: string, payload: object) => write('PATCH', `/advertiser/products/${id}`, payload);
const putCampaign = (id: string, payload: object) => write('PUT', `/advertiser/campaigns/${id}`, payload);

/** The product as affiliates find it, without its timestamps. */
async function found(id: string, query = ''): Promise<Omit<Product, 'createdAt' | 'updatedAt'> | undefined> {
  const res = await h.get(`/affiliate/products?organizationIds=${BRANDS.acme}&limit=100${query}`, aff1);
  assert.equal(res.statusCode, 200, res.body);
  const product = res.json<{ data: Product[] }>().data.find((p) => p.id === id);
  if (!product) return undefined;
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = product;
  return rest;
}

const pricesOf = (res: Awaited<ReturnType<typeof patchProduct>>) => {
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Product }>().data.options.map((o) => ({ id: o.id, available: o.available, pricing: o.pricing.map(({ listPrice, price }) => ({ listPrice, price })) }));
};

const SHORT = { name: 'Canvas tote', url: 'https://www.acme.com/p/tote', available: true, price: 4_990 };

/** One option of a product written with price, as the spec's read model has it. */
const priceOption = (id: string, price: number, listPrice = price, available = true) => ({
  id,
  ean: '',
  name: '',
  available,
  seller: '',
  images: [],
  categories: [],
  brands: [],
  pricing: [{ listPrice, price, metadata: [] }],
  stocks: [],
  metadata: [],
});

describe('a product with what matters only', () => {
  test('name, url, available and price (its id in the path) make a product affiliates find in the full shape', async () => {
    const created = await putProduct('short-tote', SHORT);
    assert.equal(created.statusCode, 201, created.body);
    const expected = {
      organizationId: BRANDS.acme,
      id: 'short-tote',
      available: true,
      name: 'Canvas tote',
      description: '',
      url: 'https://www.acme.com/p/tote',
      images: [],
      options: [priceOption('short-tote', 4_990)],
      metadata: [],
      currency: 'BRL',
      brandName: 'Acme',
    };
    assert.deepEqual(await found('short-tote'), expected);
    assert.deepEqual(await found('short-tote', '&price=4990:4990'), expected, 'the price filter reads the price');
    assert.deepEqual(await found('short-tote', '&search=tote'), expected, 'search reads the name');
  });

  test('listPrice goes with price: a discount', async () => {
    assert.equal((await putProduct('short-sale', { ...SHORT, price: 3_990, listPrice: 4_990 })).statusCode, 201);
    assert.deepEqual((await found('short-sale'))?.options, [priceOption('short-sale', 3_990, 4_990)]);
  });

  test('options need only id, available and pricing; the rest of each is empty', async () => {
    const res = await putProduct('short-sizes', { ...SHORT, price: undefined, options: [{ id: 'tote-s', available: true, pricing: [{ listPrice: 5_990, price: 4_990 }] }, { id: 'tote-l', available: false, pricing: [], stocks: [{ value: 0 }] }] });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual((await found('short-sizes'))?.options, [
      { ...priceOption('tote-s', 4_990, 5_990) },
      { ...priceOption('tote-l', 0, 0, false), pricing: [], stocks: [{ value: 0, metadata: [] }] },
    ]);
  });

  test('a PUT replaces the product: a field left out takes its default, not the stored value', async () => {
    await putProduct('short-replaced', { ...SHORT, description: '<p>Roomy</p>', images: [{ url: 'https://cdn.example.com/tote.jpg' }], metadata: [{ key: 'a', value: 'b' }] });
    assert.equal((await putProduct('short-replaced', SHORT)).statusCode, 200);
    const product = await found('short-replaced');
    assert.deepEqual([product?.description, product?.images, product?.metadata], ['', [], []]);
  });

  test('a product without a price, with two, or missing what matters is refused, saying what to fix', async () => {
    const { price: _price, ...unpriced } = SHORT;
    assert.match(assertError(await putProduct('short-bad', unpriced), 400, 'invalid_body').message, /needs a price: price, in integer cents, or options/);
    assert.match(assertError(await putProduct('short-bad', { ...SHORT, options: [] }), 400, 'invalid_body').message, /either price .* or options .*not both/);
    assert.match(assertError(await putProduct('short-bad', { ...unpriced, listPrice: 100 }), 400, 'invalid_body').message, /listPrice goes with price/);
    assert.match(assertError(await putProduct('short-bad', { ...SHORT, name: undefined }), 400, 'invalid_body').message, /^body field name is required/);
    assert.match(assertError(await putProduct('short-bad', { ...unpriced, options: [{ id: 'o', available: true }] }), 400, 'invalid_body').message, /options\[0\]\.pricing is required/);
    assert.match(assertError(await putProduct('short-bad', { ...SHORT, price: 9.99 }), 400, 'invalid_body').message, /^price must be an integer/);
    assert.equal(await found('short-bad'), undefined, 'nothing was stored');
  });

  test('the NDJSON upload takes the same short line', async () => {
    const res = await h.request({ method: 'POST', url: '/advertiser/products/bulk', headers: { 'x-api-key': acme, 'content-type': 'application/x-ndjson' }, payload: [{ id: 'short-bulk', ...SHORT }, { id: 'short-bulk-bad', ...SHORT, price: undefined }].map((l) => JSON.stringify(l)).join('\n') });
    assert.equal(res.statusCode, 200, res.body);
    const results = res.json<{ data: { results: Array<{ status: string; reason?: string }> } }>().data.results;
    assert.deepEqual(results.map((r) => r.status), ['inserted', 'rejected']);
    assert.match(results[1]!.reason!, /needs a price/);
    assert.deepEqual((await found('short-bulk'))?.options, [priceOption('short-bulk', 4_990)]);
  });
});

describe('PATCH with price', () => {
  test("on a one-option product changes that option's price; listPrice follows when it was equal, else it is kept", async () => {
    await putProduct('patch-plain', SHORT);
    assert.deepEqual(pricesOf(await patchProduct('patch-plain', { price: 3_990 })), [{ id: 'patch-plain', available: true, pricing: [{ listPrice: 3_990, price: 3_990 }] }]);
    await putProduct('patch-sale', { ...SHORT, price: 3_990, listPrice: 4_990 });
    assert.deepEqual(pricesOf(await patchProduct('patch-sale', { price: 2_990 })), [{ id: 'patch-sale', available: true, pricing: [{ listPrice: 4_990, price: 2_990 }] }]);
    assert.deepEqual(pricesOf(await patchProduct('patch-sale', { listPrice: 2_990 })), [{ id: 'patch-sale', available: true, pricing: [{ listPrice: 2_990, price: 2_990 }] }]);
    assert.deepEqual(pricesOf(await patchProduct('patch-sale', { price: 5_000, listPrice: 6_000 })), [{ id: 'patch-sale', available: true, pricing: [{ listPrice: 6_000, price: 5_000 }] }]);
    assert.deepEqual((await found('patch-sale'))?.options, [priceOption('patch-sale', 5_000, 6_000)], 'affiliates read the new price');
  });

  test("the option of a one-option product follows its availability; the other fields are kept", async () => {
    await putProduct('patch-stock', { ...SHORT, description: 'kept' });
    assert.deepEqual(pricesOf(await patchProduct('patch-stock', { available: false })), [{ id: 'patch-stock', available: false, pricing: [{ listPrice: 4_990, price: 4_990 }] }]);
    const product = await found('patch-stock');
    assert.deepEqual([product?.available, product?.description], [false, 'kept']);
  });

  test('on a product with several options answers 400 naming them; with options too, 400', async () => {
    await putProduct('patch-sizes', { ...SHORT, price: undefined, options: ['s', 'm'].map((size) => ({ id: `patch-${size}`, available: true, pricing: [{ listPrice: 100, price: 100 }] })) });
    const error = assertError(await patchProduct('patch-sizes', { price: 90 }), 400, 'invalid_body');
    assert.match(error.message, /"patch-sizes" has 2 \("patch-s", "patch-m"\): send options, each with its pricing/);
    assertError(await patchProduct('patch-sizes', { price: 90, options: [] }), 400, 'invalid_body');
    assert.deepEqual((await found('patch-sizes'))?.options.map((o) => o.pricing[0]!.price), [100, 100], 'nothing changed');
  });

  test('gives a product without options its one option, as PUT with price does', async () => {
    await putProduct('patch-none', { ...SHORT, price: undefined, options: [] });
    assert.match(assertError(await patchProduct('patch-none', { listPrice: 10 }), 400, 'invalid_body').message, /listPrice goes with price/);
    assert.deepEqual(pricesOf(await patchProduct('patch-none', { price: 1_000 })), [{ id: 'patch-none', available: true, pricing: [{ listPrice: 1_000, price: 1_000 }] }]);
  });

  test('a PATCH without price keeps what it does not name (no defaults filled in)', async () => {
    await putProduct('patch-keep', { ...SHORT, description: 'kept', images: [{ url: 'https://cdn.example.com/kept.jpg' }] });
    assert.equal((await patchProduct('patch-keep', { name: 'Renamed' })).statusCode, 200);
    const product = await found('patch-keep');
    assert.deepEqual([product?.name, product?.description, product?.images], ['Renamed', 'kept', [{ url: 'https://cdn.example.com/kept.jpg' }]]);
  });
});

describe('a campaign with what matters only', () => {
  const PERIOD = { startAt: '2020-01-01T00:00:00Z', endAt: '2099-12-31T23:59:59Z' };
  const seen = async (id: string) => {
    const res = await h.get(`/affiliate/campaigns?organizationId=${BRANDS.acme}&limit=20&name=${encodeURIComponent('Short ')}`, aff1);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ data: Campaign[] }>().data.find((c) => c.id === id);
  };

  test('a coupon with name, type, period and code reads back with the defaults, and affiliates see it', async () => {
    const res = await putCampaign('short-coupon', { name: 'Short coupon', type: 'GenericCoupon', period: PERIOD, code: 'SHORT10' });
    assert.equal(res.statusCode, 201, res.body);
    const { createdAt: _createdAt, ...campaign } = res.json<{ data: Campaign }>().data;
    assert.deepEqual(campaign, {
      id: 'short-coupon',
      name: 'Short coupon',
      period: { startAt: '2020-01-01T00:00:00.000Z', endAt: '2099-12-31T23:59:59.000Z' },
      type: 'GenericCoupon',
      categories: [],
      description: '',
      code: 'SHORT10',
      url: 'https://www.acme.com/',
      organizationId: BRANDS.acme,
      isHighlight: false,
      status: 'onTime',
      mediaKit: { banners: [] },
    });
    const affiliate = await seen('short-coupon');
    assert.deepEqual([affiliate?.url, affiliate?.categories, affiliate?.isHighlight, affiliate?.code], ['https://www.acme.com/', [], false, 'SHORT10']);
  });

  test('a Url offer needs its url; a Spreadsheet offer leads to the home page without one', async () => {
    assert.match(assertError(await putCampaign('short-offer', { name: 'Short offer', type: 'Offer', offerType: 'Url', period: PERIOD }), 400, 'invalid_campaign').message, /offerType Url needs url/);
    assert.equal((await putCampaign('short-offer', { name: 'Short offer', type: 'Offer', offerType: 'Url', period: PERIOD, url: 'https://www.acme.com/sale' })).statusCode, 201);
    assert.equal((await seen('short-offer'))?.url, 'https://www.acme.com/sale');
    const sheet = await putCampaign('short-sheet', { name: 'Short sheet', type: 'Offer', offerType: 'Spreadsheet', period: PERIOD });
    assert.equal(sheet.statusCode, 201, sheet.body);
    assert.equal(sheet.json<{ data: Campaign }>().data.url, 'https://www.acme.com/');
  });

  test('what the type needs, or the name, type or period, missing is refused, saying what to fix', async () => {
    const coupon = { name: 'Short bad', type: 'GenericCoupon', period: PERIOD, code: 'X' };
    assert.match(assertError(await putCampaign('short-bad', { ...coupon, code: undefined }), 400, 'invalid_campaign').message, /needs a coupon code/);
    assert.match(assertError(await putCampaign('short-bad', { ...coupon, type: 'Offer', code: undefined }), 400, 'invalid_campaign').message, /needs offerType/);
    for (const field of ['name', 'type', 'period'] as const) {
      assert.match(assertError(await putCampaign('short-bad', { ...coupon, [field]: undefined }), 400, 'invalid_body').message, new RegExp(`^body field ${field} is required`));
    }
    assert.equal(await seen('short-bad'), undefined);
  });

  test('a PUT replaces the campaign: a field left out takes its default; a PATCH keeps what it does not name', async () => {
    await putCampaign('short-replaced', { name: 'Short replaced', type: 'GenericCoupon', period: PERIOD, code: 'R', categories: ['Bags'], description: 'Roomy', isHighlight: true, url: 'https://www.acme.com/bags' });
    assert.equal((await write('PATCH', '/advertiser/campaigns/short-replaced', { name: 'Short replaced 2' })).statusCode, 200);
    const patched = await seen('short-replaced');
    assert.deepEqual([patched?.categories, patched?.description, patched?.isHighlight, patched?.url], [['Bags'], 'Roomy', true, 'https://www.acme.com/bags']);
    assert.equal((await putCampaign('short-replaced', { name: 'Short replaced', type: 'GenericCoupon', period: PERIOD, code: 'R' })).statusCode, 200);
    const replaced = await seen('short-replaced');
    assert.deepEqual([replaced?.categories, replaced?.description, replaced?.isHighlight, replaced?.url], [[], '', false, 'https://www.acme.com/']);
  });
});

describe('the example requests of the OpenAPI document', () => {
  type Media = { examples?: Record<string, { value: unknown }> };
  type Document = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, Media> } }>> };
  const examplesOf = async (path: string, method: string) => {
    const document = (await h.request({ method: 'GET', url: '/openapi.json' })).json<Document>();
    const media = Object.values(document.paths[path]![method]!.requestBody!.content)[0]!;
    return Object.values(media.examples ?? {}).map((example) => example.value);
  };

  test('each example of the catalogue writes is accepted as sent', async () => {
    // The examples' pages are on www.example.com, standing for the brand's own domain.
    assert.equal((await write('PATCH', '/advertiser/brand', { domains: ['example.com'] })).statusCode, 200);
    const products = await examplesOf('/advertiser/products/{id}', 'put');
    assert.ok(products.length >= 2, 'a short product and one with options');
    for (const [i, example] of products.entries()) assert.equal((await putProduct(`example-${i}`, example as object)).statusCode, 201, `example ${i}`);
    for (const example of await examplesOf('/advertiser/products/{id}', 'patch')) assert.equal((await patchProduct('example-0', example as object)).statusCode, 200, JSON.stringify(example));
    for (const [i, example] of (await examplesOf('/advertiser/campaigns/{id}', 'put')).entries()) {
      const res = await putCampaign(`example-${i}`, example as object);
      assert.equal(res.statusCode, 201, res.body);
    }
    for (const example of await examplesOf('/advertiser/campaigns/{id}', 'patch')) assert.equal((await write('PATCH', '/advertiser/campaigns/example-0', example as object)).statusCode, 200, JSON.stringify(example));
    const [lines] = await examplesOf('/advertiser/products/bulk', 'post');
    const bulk = await h.request({ method: 'POST', url: '/advertiser/products/bulk', headers: { 'x-api-key': acme, 'content-type': 'application/x-ndjson' }, payload: lines as string });
    assert.deepEqual(bulk.json<{ data: { inserted: number; rejected: number } }>().data, { ...bulk.json<{ data: object }>().data, inserted: 2, rejected: 0 });
  });
});
