import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, campaignInput, iso } from '../helpers/world.js';
import { assertError, newKey, qs, startWithKeys } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';

const PATH = '/affiliate/campaigns';
const SHORTEN = '/affiliate/shortener/url';
const SHORT_URL = /^http:\/\/go\.test\/[0-9A-Za-z]{7,}$/;

interface ChannelView {
  id: string;
  name: string;
  availableChannel: { id: string; name: string };
  shortUrls: string[];
  message?: string | null;
}

interface CampaignView {
  id: string;
  name: string;
  period: { startAt: string; endAt: string };
  type: string;
  offerType?: string;
  categories: string[];
  description: string;
  code?: string;
  url: string;
  organizationId: string;
  isHighlight: boolean;
  status: string;
  createdAt: string;
  channels: ChannelView[];
  mediaKit: { banners: string[]; emailMarketing?: string };
}

interface Meta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

interface CampaignList {
  data: CampaignView[];
  meta: Meta;
}

let h: Harness;
let aff1: string;
let aff2: string;
let aff3: string;

before(async () => {
  ({ h, aff1, aff2, aff3 } = await startWithKeys());
});
after(async () => {
  await h.close();
});

async function list(query: string, key: string, harness: Harness = h): Promise<CampaignList> {
  const res = await harness.get(`${PATH}${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<CampaignList>();
}

async function ids(query: string, key: string): Promise<string[]> {
  return (await list(query, key)).data.map((c) => c.id);
}

async function campaign(id: string, key: string): Promise<CampaignView> {
  const found = (await list(qs({ limit: 20 }), key)).data.find((c) => c.id === id);
  assert.ok(found, `${id} is not listed`);
  return found;
}

/** Every campaign aff-1 may see, newest first (createdAt 2025-05-06 … 2025-05-01). */
const ALL_AFF1 = ['c-globex-coupon', 'c-acme-scheduled', 'c-acme-expired', 'c-acme-offer-sheet', 'c-acme-offer-url', 'c-acme-coupon'];
const ACME = ['c-acme-scheduled', 'c-acme-expired', 'c-acme-offer-sheet', 'c-acme-offer-url', 'c-acme-coupon'];
const ALL_AFF2 = ['c-initech-offer', ...ACME];

const STATUS: Record<string, string> = {
  'c-acme-coupon': 'onTime',
  'c-acme-offer-url': 'onTime',
  'c-acme-offer-sheet': 'onTime',
  'c-acme-expired': 'expired',
  'c-acme-scheduled': 'scheduled',
  'c-globex-coupon': 'onTime',
  'c-initech-offer': 'onTime',
};

const byId = (channels: ChannelView[]) => [...channels].sort((a, b) => a.id.localeCompare(b.id));

describe('GET /affiliate/campaigns: envelope, order and visibility', () => {
  test('answers { data, meta } with the default limit 10', async () => {
    const res = await h.get(PATH, aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /application\/json/);
    const body = res.json<CampaignList>();
    assert.deepEqual(Object.keys(body).sort(), ['data', 'meta']);
    assert.deepEqual(body.meta, { total: 6, page: 1, limit: 10, totalPages: 1 });
  });

  test('lists campaigns of visible brands, newest first', async () => {
    assert.deepEqual(await ids('', aff1), ALL_AFF1);
    assert.deepEqual(await ids('', aff2), ALL_AFF2);
    assert.deepEqual(await ids('', aff3), ACME);
  });

  test("a brand's campaigns stay hidden from affiliates who cannot see the brand, even when asked for", async () => {
    const hidden = await list(qs({ organizationId: BRANDS.initech }), aff1);
    assert.deepEqual(hidden.data, []);
    assert.deepEqual(hidden.meta, { total: 0, page: 1, limit: 10, totalPages: 0 });
    assert.deepEqual(await ids(qs({ organizationIds: `${BRANDS.initech},${BRANDS.globex}` }), aff1), ['c-globex-coupon']);
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.globex }), aff2), []);
    assert.deepEqual(await ids(qs({ types: 'Offer', offerType: 'Url' }), aff1), ['c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.globex }), aff3), []);
  });
});

describe('GET /affiliate/campaigns: limit and page', () => {
  test('limit cuts pages; meta counts them', async () => {
    const first = await list(qs({ limit: 4 }), aff1);
    assert.deepEqual(
      first.data.map((c) => c.id),
      ALL_AFF1.slice(0, 4),
    );
    assert.deepEqual(first.meta, { total: 6, page: 1, limit: 4, totalPages: 2 });
    const second = await list(qs({ limit: 4, page: 2 }), aff1);
    assert.deepEqual(
      second.data.map((c) => c.id),
      ALL_AFF1.slice(4),
    );
    assert.deepEqual(second.meta, { total: 6, page: 2, limit: 4, totalPages: 2 });
  });

  test('a page past the end answers an empty list with correct totals', async () => {
    const page = await list(qs({ limit: 4, page: 3 }), aff1);
    assert.deepEqual(page.data, []);
    assert.deepEqual(page.meta, { total: 6, page: 3, limit: 4, totalPages: 2 });
  });

  test('limit 20 is the maximum; 21 answers 400 invalid_query naming limit', async () => {
    assert.deepEqual((await list(qs({ limit: 20 }), aff1)).meta, { total: 6, page: 1, limit: 20, totalPages: 1 });
    const body = assertError(await h.get(`${PATH}?limit=21`, aff1), 400, 'invalid_query');
    assert.match(body.message, /limit/);
  });

  test('limit and page must be positive integers', async () => {
    for (const query of ['limit=0', 'limit=-1', 'limit=ten', 'page=0', 'page=1.5']) {
      const body = assertError(await h.get(`${PATH}?${query}`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(query.split('=')[0]!), body.message);
    }
  });
});

describe('GET /affiliate/campaigns: status', () => {
  test("each campaign's status is derived from its period", async () => {
    for (const [key, expected] of [
      [aff1, ALL_AFF1],
      [aff2, ALL_AFF2],
    ] as const) {
      const { data } = await list('', key);
      assert.deepEqual(
        data.map((c) => c.id),
        expected,
      );
      const now = Date.now();
      for (const c of data) {
        assert.equal(c.status, STATUS[c.id], c.id);
        const start = Date.parse(c.period.startAt);
        const end = Date.parse(c.period.endAt);
        const derived = now < start ? 'scheduled' : now > end ? 'expired' : 'onTime';
        assert.equal(c.status, derived, `${c.id} ${c.period.startAt}..${c.period.endAt}`);
      }
    }
  });

  test('the status filter agrees with the status field', async () => {
    const all = (await list('', aff1)).data;
    for (const status of ['onTime', 'expired', 'scheduled']) {
      const filtered = await list(qs({ status }), aff1);
      assert.deepEqual(
        filtered.data.map((c) => c.id),
        all.filter((c) => c.status === status).map((c) => c.id),
        status,
      );
      for (const c of filtered.data) assert.equal(c.status, status);
      assert.equal(filtered.meta.total, filtered.data.length);
    }
  });

  test('status values one by one', async () => {
    assert.deepEqual(await ids(qs({ status: 'expired' }), aff1), ['c-acme-expired']);
    assert.deepEqual(await ids(qs({ status: 'scheduled' }), aff1), ['c-acme-scheduled']);
    assert.deepEqual(await ids(qs({ status: 'onTime' }), aff1), ['c-globex-coupon', 'c-acme-offer-sheet', 'c-acme-offer-url', 'c-acme-coupon']);
  });

  test('status takes a comma list or the parameter repeated', async () => {
    assert.deepEqual(await ids(qs({ status: 'expired,scheduled' }), aff1), ['c-acme-scheduled', 'c-acme-expired']);
    assert.deepEqual(await ids(qs({ status: ['scheduled', 'expired'] }), aff1), ['c-acme-scheduled', 'c-acme-expired']);
    assert.deepEqual(await ids(qs({ status: 'onTime,expired,scheduled' }), aff1), ALL_AFF1);
  });

  test('an unknown status answers 400', async () => {
    for (const status of ['active', 'ontime', 'onTime,finished']) {
      const body = assertError(await h.get(`${PATH}${qs({ status })}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /status/);
    }
  });
});

describe('GET /affiliate/campaigns: type filters', () => {
  test('types, one value each', async () => {
    assert.deepEqual(await ids(qs({ types: 'GenericCoupon' }), aff1), ['c-globex-coupon', 'c-acme-scheduled', 'c-acme-coupon']);
    assert.deepEqual(await ids(qs({ types: 'PersonalCoupon' }), aff1), ['c-acme-expired']);
    assert.deepEqual(await ids(qs({ types: 'Offer' }), aff1), ['c-acme-offer-sheet', 'c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ types: 'Offer' }), aff2), ['c-initech-offer', 'c-acme-offer-sheet', 'c-acme-offer-url']);
  });

  test('types takes a comma list or the parameter repeated', async () => {
    assert.deepEqual(await ids(qs({ types: 'PersonalCoupon,Offer' }), aff1), ['c-acme-expired', 'c-acme-offer-sheet', 'c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ types: ['PersonalCoupon', 'Offer'] }), aff1), ['c-acme-expired', 'c-acme-offer-sheet', 'c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ types: 'PersonalCoupon,GenericCoupon,Offer' }), aff1), ALL_AFF1);
  });

  test('every listed campaign has the requested type', async () => {
    for (const type of ['PersonalCoupon', 'GenericCoupon', 'Offer']) {
      for (const c of (await list(qs({ types: type }), aff1)).data) assert.equal(c.type, type, c.id);
    }
  });

  test('an unknown type answers 400 naming types', async () => {
    for (const types of ['Coupon', 'offer', 'Offer,Banner']) {
      const body = assertError(await h.get(`${PATH}${qs({ types })}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /types/);
    }
  });

  test('offerType Url and Spreadsheet', async () => {
    assert.deepEqual(await ids(qs({ offerType: 'Url' }), aff1), ['c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ offerType: 'Spreadsheet' }), aff1), ['c-acme-offer-sheet']);
    assert.deepEqual(await ids(qs({ offerType: 'Url' }), aff2), ['c-initech-offer', 'c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ types: 'Offer', offerType: 'Spreadsheet' }), aff1), ['c-acme-offer-sheet']);
  });

  test('an unknown offerType answers 400', async () => {
    for (const offerType of ['url', 'Csv', '']) {
      const body = assertError(await h.get(`${PATH}?offerType=${offerType}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /offerType/);
    }
  });
});

describe('GET /affiliate/campaigns: brand filters', () => {
  test('organizationId', async () => {
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.acme }), aff1), ACME);
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.globex }), aff1), ['c-globex-coupon']);
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.umbrella }), aff1), []);
  });

  test('organizationIds, comma list and repeated', async () => {
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.globex }), aff1), ['c-globex-coupon']);
    assert.deepEqual(await ids(qs({ organizationIds: `${BRANDS.acme},${BRANDS.globex}` }), aff1), ALL_AFF1);
    assert.deepEqual(await ids(qs({ organizationIds: [BRANDS.globex, BRANDS.acme] }), aff1), ALL_AFF1);
    assert.deepEqual(await ids(qs({ organizationIds: [BRANDS.initech, BRANDS.acme] }), aff2), ALL_AFF2);
  });

  test('organizationId and organizationIds together list campaigns of any of them', async () => {
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.acme, organizationIds: BRANDS.globex }), aff1), ALL_AFF1);
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.globex, organizationIds: BRANDS.umbrella }), aff1), ['c-globex-coupon']);
    assert.deepEqual(await ids(qs({ organizationId: BRANDS.acme, organizationIds: BRANDS.acme }), aff1), ACME);
  });

  test('a bad UUID answers 400 invalid_query naming the parameter', async () => {
    let body = assertError(await h.get(`${PATH}${qs({ organizationId: 'acme' })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /organizationId/);
    body = assertError(await h.get(`${PATH}${qs({ organizationIds: `${BRANDS.acme},acme` })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /organizationIds/);
  });
});

describe('GET /affiliate/campaigns: name, isHighlight and categories', () => {
  test('name is a case-insensitive text of the campaign name', async () => {
    // Names are "Campaign <id>".
    assert.deepEqual(await ids(qs({ name: 'OFFER' }), aff1), ['c-acme-offer-sheet', 'c-acme-offer-url']);
    assert.deepEqual(await ids(qs({ name: 'c-acme-coupon' }), aff1), ['c-acme-coupon']);
    assert.deepEqual(await ids(qs({ name: 'globex' }), aff1), ['c-globex-coupon']);
    assert.deepEqual(await ids(qs({ name: 'initech' }), aff1), []);
    assert.deepEqual(await ids(qs({ name: 'initech' }), aff2), ['c-initech-offer']);
    assert.deepEqual(await ids(qs({ name: 'no such campaign' }), aff1), []);
  });

  test('name treats LIKE wildcards as plain text', async () => {
    assert.deepEqual(await ids(qs({ name: '%' }), aff1), []);
    assert.deepEqual(await ids(qs({ name: 'c_acme' }), aff1), []);
  });

  test('isHighlight true and false', async () => {
    assert.deepEqual(await ids(qs({ isHighlight: true }), aff1), ['c-acme-coupon']);
    assert.deepEqual(await ids(qs({ isHighlight: false }), aff1), ALL_AFF1.filter((id) => id !== 'c-acme-coupon'));
  });

  test('isHighlight other than true or false answers 400', async () => {
    const body = assertError(await h.get(`${PATH}?isHighlight=yes`, aff1), 400, 'invalid_query');
    assert.match(body.message, /isHighlight/);
  });

  test('categories, case-insensitive, comma list or repeated', async () => {
    assert.deepEqual(await ids(qs({ categories: 'summer' }), aff1), ['c-acme-scheduled']);
    assert.deepEqual(await ids(qs({ categories: 'SHOES' }), aff1), ALL_AFF1.filter((id) => id !== 'c-acme-scheduled'));
    assert.deepEqual(await ids(qs({ categories: 'Summer,shoes' }), aff1), ALL_AFF1);
    assert.deepEqual(await ids(qs({ categories: ['summer', 'winter'] }), aff1), ['c-acme-scheduled']);
    assert.deepEqual(await ids(qs({ categories: 'winter' }), aff1), []);
  });
});

describe('GET /affiliate/campaigns: period', () => {
  test('startAt and endAt list the campaigns whose period overlaps the range', async () => {
    assert.deepEqual(await ids(qs({ startAt: iso(-40), endAt: iso(-20) }), aff1), ['c-acme-expired']);
    assert.deepEqual(await ids(qs({ startAt: iso(15), endAt: iso(20) }), aff1), ['c-acme-scheduled']);
    assert.deepEqual(await ids(qs({ startAt: iso(-0.5), endAt: iso(0.5) }), aff1), ['c-globex-coupon', 'c-acme-offer-sheet', 'c-acme-offer-url', 'c-acme-coupon']);
    assert.deepEqual(await ids(qs({ startAt: iso(-100), endAt: iso(100) }), aff1), ALL_AFF1);
    assert.deepEqual(await ids(qs({ startAt: iso(40), endAt: iso(50) }), aff1), []);
  });

  test('the bounds of the range are inclusive', async () => {
    const expired = await campaign('c-acme-expired', aff1);
    // A range that only touches the end of the expired campaign's period still lists it.
    const touching = await ids(qs({ startAt: expired.period.endAt, endAt: expired.period.endAt }), aff1);
    assert.ok(touching.includes('c-acme-expired'), touching.join());
    const scheduled = await campaign('c-acme-scheduled', aff1);
    const atStart = await ids(qs({ startAt: iso(-100), endAt: scheduled.period.startAt }), aff1);
    assert.ok(atStart.includes('c-acme-scheduled'), atStart.join());
  });

  test('dates alone are whole UTC days: the range runs from the first instant of startAt to the last of endAt', async () => {
    const expired = await campaign('c-acme-expired', aff1);
    const lastDay = expired.period.endAt.slice(0, 10);
    // A range of that single day overlaps the period even though the period ended within it.
    assert.ok((await ids(qs({ startAt: lastDay, endAt: lastDay }), aff1)).includes('c-acme-expired'));
    const dayAfter = new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    assert.ok(!(await ids(qs({ startAt: dayAfter, endAt: dayAfter }), aff1)).includes('c-acme-expired'));
    // A date and a date-time mix.
    assert.deepEqual(await ids(qs({ startAt: iso(-100).slice(0, 10), endAt: iso(100) }), aff1), ALL_AFF1);
  });

  test('startAt without endAt, or endAt without startAt, answers 400', async () => {
    let body = assertError(await h.get(`${PATH}${qs({ startAt: iso(-1) })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /endAt/);
    body = assertError(await h.get(`${PATH}${qs({ endAt: iso(1) })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /startAt/);
  });

  test('startAt after endAt answers 400', async () => {
    const body = assertError(await h.get(`${PATH}${qs({ startAt: iso(2), endAt: iso(1) })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /startAt/);
  });

  test('a bad date answers 400 naming the parameter', async () => {
    let body = assertError(await h.get(`${PATH}${qs({ startAt: 'last week', endAt: iso(1) })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /startAt/);
    body = assertError(await h.get(`${PATH}${qs({ startAt: iso(-1), endAt: '2025-02-30T00:00:00Z' })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /endAt/);
  });

  test('a date-time that is not a real instant (leap second) answers 400, not 500', async () => {
    assertError(await h.get(`${PATH}${qs({ startAt: '2016-12-31T23:59:60Z', endAt: iso(1) })}`, aff1), 400, 'invalid_query');
  });
});

describe('GET /affiliate/campaigns: combined filters and other input', () => {
  test('every filter must hold', async () => {
    assert.deepEqual(await ids(qs({ types: 'GenericCoupon', status: 'onTime', organizationId: BRANDS.acme }), aff1), ['c-acme-coupon']);
    assert.deepEqual(await ids(qs({ isHighlight: false, categories: 'shoes', types: 'GenericCoupon' }), aff1), ['c-globex-coupon']);
    assert.deepEqual(await ids(qs({ name: 'acme', status: 'expired,scheduled' }), aff1), ['c-acme-scheduled', 'c-acme-expired']);
    assert.deepEqual(await ids(qs({ types: 'Offer', offerType: 'Url', status: 'expired' }), aff1), []);
    assert.deepEqual(
      await ids(qs({ organizationIds: [BRANDS.acme, BRANDS.globex], types: 'GenericCoupon,PersonalCoupon', startAt: iso(-40), endAt: iso(-20) }), aff1),
      ['c-acme-expired'],
    );
    assert.deepEqual(await ids(qs({ isHighlight: true, status: 'expired' }), aff1), []);
  });

  test('filters combine with pages: meta counts the filtered campaigns', async () => {
    const page = await list(qs({ status: 'onTime', limit: 3, page: 2 }), aff1);
    assert.deepEqual(
      page.data.map((c) => c.id),
      ['c-acme-coupon'],
    );
    assert.deepEqual(page.meta, { total: 4, page: 2, limit: 3, totalPages: 2 });
  });

  test('an unknown query parameter answers 400 naming it', async () => {
    for (const name of ['type', 'organization', 'search']) {
      const body = assertError(await h.get(`${PATH}?${name}=x`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(name));
    }
  });
});

describe('GET /affiliate/campaigns: the Campaign object', () => {
  test('a coupon carries every field', async () => {
    const coupon = await campaign('c-acme-coupon', aff1);
    const { period, channels, ...rest } = coupon;
    assert.deepEqual(rest, {
      id: 'c-acme-coupon',
      name: 'Campaign c-acme-coupon',
      type: 'GenericCoupon',
      categories: ['Shoes'],
      description: 'A campaign',
      code: 'SAVE10',
      url: 'https://www.acme.com/promo',
      organizationId: BRANDS.acme,
      isHighlight: true,
      status: 'onTime',
      createdAt: '2025-05-01T00:00:00.000Z',
      mediaKit: { banners: ['https://cdn.example.com/banner.png'] },
    });
    assert.ok(!('offerType' in coupon), 'a coupon has no offerType key at all (never null)');
    assert.ok(!('emailMarketing' in coupon.mediaKit), 'no e-mail supplied: the key is omitted, not null');
    assert.deepEqual(Object.keys(period).sort(), ['endAt', 'startAt']);
    assert.ok(Date.parse(period.startAt) < Date.now() && Date.now() < Date.parse(period.endAt));
    assert.equal(channels.length, 2);
  });

  test('an offer carries its offerType and url', async () => {
    const offer = await campaign('c-acme-offer-url', aff1);
    assert.equal(offer.type, 'Offer');
    assert.equal(offer.offerType, 'Url');
    assert.equal(offer.url, 'https://www.acme.com/sale');
    assert.ok(!('code' in offer), 'an offer has no code key at all (never null)');
    const sheet = await campaign('c-acme-offer-sheet', aff1);
    assert.equal(sheet.offerType, 'Spreadsheet');
  });
});

describe('GET /affiliate/campaigns: channels', () => {
  test("channels are the caller's own channels", async () => {
    const coupon = await campaign('c-acme-coupon', aff1);
    assert.deepEqual(byId(coupon.channels), [
      { id: h.world.channels.aff1Instagram, name: '@aff1', availableChannel: { id: 'instagram', name: 'Instagram' }, shortUrls: [] },
      { id: h.world.channels.aff1Site, name: 'My blog', availableChannel: { id: 'site', name: 'Site' }, shortUrls: [] },
    ]);
    const forAff2 = await campaign('c-acme-coupon', aff2);
    assert.deepEqual(forAff2.channels, [
      { id: h.world.channels.aff2Whatsapp, name: 'Deals group', availableChannel: { id: 'whatsapp', name: 'WhatsApp' }, shortUrls: [] },
    ]);
    for (const c of (await list('', aff3)).data) assert.deepEqual(c.channels, [], c.id);
  });

  test('the Url offer gets a link on every allowed channel automatically', async () => {
    const offer = await campaign('c-acme-offer-url', aff1);
    assert.equal(offer.channels.length, 2);
    for (const channel of offer.channels) {
      assert.equal(channel.message ?? null, null, channel.id);
      assert.equal(channel.shortUrls.length, 1, channel.id);
      assert.match(channel.shortUrls[0]!, SHORT_URL);
    }
    const [a, b] = offer.channels;
    assert.notEqual(a!.shortUrls[0], b!.shortUrls[0]);
  });

  test('the automatic links are stable from one request to the next', async () => {
    const first = byId((await campaign('c-acme-offer-url', aff1)).channels);
    const second = byId((await campaign('c-acme-offer-url', aff1)).channels);
    assert.deepEqual(first, second);
    const filtered = byId((await list(qs({ offerType: 'Url' }), aff1)).data[0]!.channels);
    assert.deepEqual(filtered, first);
  });

  test("each affiliate gets its own automatic links for the Url offer", async () => {
    const aff1Urls = (await campaign('c-acme-offer-url', aff1)).channels.flatMap((c) => c.shortUrls);
    const forAff2 = await campaign('c-acme-offer-url', aff2);
    assert.equal(forAff2.channels.length, 1);
    assert.equal(forAff2.channels[0]!.shortUrls.length, 1);
    assert.match(forAff2.channels[0]!.shortUrls[0]!, SHORT_URL);
    assert.ok(!aff1Urls.includes(forAff2.channels[0]!.shortUrls[0]!));
    const initech = await campaign('c-initech-offer', aff2);
    assert.equal(initech.channels[0]!.shortUrls.length, 1);
    assert.match(initech.channels[0]!.shortUrls[0]!, SHORT_URL);
  });

  test('the automatic link is listed among the short URLs of type Offer and leads to the offer url', async () => {
    const offer = await campaign('c-acme-offer-url', aff1);
    const res = await h.get(`/affiliate/shortener/urls${qs({ type: 'Offer', featureId: 'c-acme-offer-url' })}`, aff1);
    assert.equal(res.statusCode, 200, res.body);
    const [page] = res.json<Array<{ data: Array<{ shortUrl: string; originalUrl: string }> }>>();
    assert.deepEqual(page!.data.map((r) => r.shortUrl).sort(), offer.channels.flatMap((c) => c.shortUrls).sort());
    for (const record of page!.data) assert.equal(record.originalUrl, 'https://www.acme.com/sale');
  });

  test('coupons and Spreadsheet offers have no links until they are created', async () => {
    for (const id of ['c-acme-coupon', 'c-acme-offer-sheet', 'c-acme-scheduled', 'c-globex-coupon']) {
      const c = await campaign(id, aff1);
      for (const channel of c.channels) {
        assert.deepEqual(channel.shortUrls, [], `${id} ${channel.id}`);
        assert.equal(channel.message ?? null, null, `${id} ${channel.id}`);
      }
    }
  });

  test("the expired coupon's channels carry a message and no links", async () => {
    for (const key of [aff1, aff2]) {
      const expired = await campaign('c-acme-expired', key);
      assert.ok(expired.channels.length > 0);
      for (const channel of expired.channels) {
        assert.equal(typeof channel.message, 'string', channel.id);
        assert.ok(channel.message!.length > 0);
        assert.deepEqual(channel.shortUrls, []);
      }
    }
  });

  test('coupon links created with POST /affiliate/shortener/url show on the coupon', async () => {
    const res = await h.post(SHORTEN, { organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-coupon' }, aff1);
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json<ChannelView[]>();
    assert.ok(created.every((c) => c.shortUrls.length === 1));
    const coupon = await campaign('c-acme-coupon', aff1);
    assert.deepEqual(
      byId(coupon.channels).map((c) => [c.id, c.shortUrls]),
      byId(created).map((c) => [c.id, c.shortUrls]),
    );
    // Other campaigns and other affiliates are unaffected.
    for (const channel of (await campaign('c-acme-scheduled', aff1)).channels) assert.deepEqual(channel.shortUrls, []);
    for (const channel of (await campaign('c-acme-coupon', aff2)).channels) assert.deepEqual(channel.shortUrls, []);
  });

  test('Spreadsheet offer links created with POST /affiliate/shortener/url show on the offer', async () => {
    const res = await h.post(SHORTEN, { organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-acme-offer-sheet' }, aff1);
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json<ChannelView[]>();
    assert.ok(created.every((c) => c.shortUrls.length === 1 && SHORT_URL.test(c.shortUrls[0]!)));
    const sheet = await campaign('c-acme-offer-sheet', aff1);
    assert.deepEqual(
      byId(sheet.channels).map((c) => [c.id, c.shortUrls]),
      byId(created).map((c) => [c.id, c.shortUrls]),
    );
  });
});

describe("GET /affiliate/campaigns: the brand's rules on each channel", () => {
  let rules: Harness;
  let key: string;

  before(async () => {
    rules = await startHarness();
    const imports = servicesFor(rules.service.database).imports;
    await imports.upsertCampaign(campaignInput({ id: 'c-umbrella-coupon', organizationId: BRANDS.umbrella, type: 'GenericCoupon', url: 'https://umbrella.com/promo' }));
    await imports.upsertCampaign(campaignInput({ id: 'c-hooli-coupon', organizationId: BRANDS.hooli, type: 'GenericCoupon', url: 'https://hooli.com/promo' }));
    key = (await newKey(rules, 'aff-1')).key;
  });
  after(async () => {
    await rules.close();
  });

  test('a channel kind the brand does not accept carries a message; the others none', async () => {
    const [umbrella] = (await list(qs({ organizationId: BRANDS.umbrella }), key, rules)).data;
    const [instagram, site] = byId(umbrella!.channels);
    assert.equal(instagram!.availableChannel.id, 'instagram');
    assert.match(instagram!.message ?? '', /instagram/i);
    assert.deepEqual(instagram!.shortUrls, []);
    assert.equal(site!.availableChannel.id, 'site');
    assert.equal(site!.message ?? null, null);
  });

  test("an inactive brand's campaign carries a message on every channel", async () => {
    const [hooli] = (await list(qs({ organizationId: BRANDS.hooli }), key, rules)).data;
    assert.equal(hooli!.channels.length, 2);
    for (const channel of hooli!.channels) {
      assert.ok((channel.message ?? '').length > 0, channel.id);
      assert.deepEqual(channel.shortUrls, []);
    }
  });
});

describe('GET /affiliate/campaigns: security', () => {
  test('no key answers 401 unauthorized', async () => {
    assertError(await h.get(PATH), 401, 'unauthorized');
  });

  test('a wrong key answers 401 unauthorized', async () => {
    assertError(await h.get(PATH, 'afn_thisKeyDoesNotExist0000000000000'), 401, 'unauthorized');
  });

  test('a key without campaigns:read answers 403 forbidden', async () => {
    const body = assertError(await h.get(PATH, h.world.keys.aff1BrandsOnly), 403, 'forbidden');
    assert.match(body.message, /campaigns:read/);
  });

  test('the scope is checked before the query', async () => {
    assertError(await h.get(`${PATH}?limit=21`, h.world.keys.aff1BrandsOnly), 403, 'forbidden');
  });

  test('a key with campaigns:read only may list campaigns', async () => {
    const { key } = await newKey(h, 'aff-1', { scopes: ['campaigns:read'] });
    assert.deepEqual(await ids('', key), ALL_AFF1);
  });
});

describe('GET /affiliate/campaigns: more campaigns than one page', () => {
  let big: Harness;
  let key: string;
  /** c-extra-01 … c-extra-12, created 2024-01-01 … 2024-01-12: older than the world's campaigns. */
  const extra = Array.from({ length: 12 }, (_, i) => `c-extra-${String(i + 1).padStart(2, '0')}`);
  const newestFirst = [...ALL_AFF1, ...[...extra].reverse(), 'c-epoca'];

  before(async () => {
    big = await startHarness();
    const db = big.service.database;
    for (const [i, id] of extra.entries()) {
      await servicesFor(db).imports.upsertCampaign(campaignInput({ id, organizationId: BRANDS.acme, type: 'GenericCoupon', createdAt: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z` }));
    }
    await servicesFor(db).imports.upsertCampaign(
      campaignInput({ id: 'c-epoca', organizationId: BRANDS.acme, type: 'GenericCoupon', name: 'Época de Ofertas', createdAt: '2023-01-01T00:00:00.000Z' }),
    );
    key = (await newKey(big, 'aff-1', { rateLimit: 100_000 })).key;
  });
  after(async () => {
    await big.close();
  });

  test('limit defaults to 10', async () => {
    const body = await list('', key, big);
    assert.deepEqual(body.meta, { total: 19, page: 1, limit: 10, totalPages: 2 });
    assert.deepEqual(
      body.data.map((c) => c.id),
      newestFirst.slice(0, 10),
    );
  });

  test('pages walk the whole list, each campaign once', async () => {
    const second = await list(qs({ page: 2 }), key, big);
    assert.deepEqual(second.meta, { total: 19, page: 2, limit: 10, totalPages: 2 });
    assert.deepEqual(
      second.data.map((c) => c.id),
      newestFirst.slice(10),
    );
    const max = await list(qs({ limit: 20 }), key, big);
    assert.deepEqual(
      max.data.map((c) => c.id),
      newestFirst,
    );
  });

  test('name search ignores the case of accented letters', async () => {
    for (const name of ['ofertas', 'Época', 'época', 'ÉPOCA']) {
      assert.deepEqual(
        (await list(qs({ name }), key, big)).data.map((c) => c.id),
        ['c-epoca'],
        name,
      );
    }
  });
});
