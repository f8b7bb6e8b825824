// Links for the channels the affiliate picks (channelIds), and the channel kinds a brand accepts,
// told before any link is asked for (allowedChannels on the brand).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';

interface ChannelView {
  id: string;
  shortUrls: string[];
  message?: string;
}

let h: Harness;
let aff1: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

describe('POST /affiliate/shortener/url with channelIds', () => {
  test('only the channels named get a link, and only they are answered', async () => {
    const res = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'BrandPage', channelIds: ['ch-aff1-insta'] }, aff1);
    assert.equal(res.statusCode, 200, res.body);
    const channels = res.json<ChannelView[]>();
    assert.deepEqual(channels.map((c) => c.id), ['ch-aff1-insta']);
    assert.equal(channels[0]!.shortUrls.length, 1);
    // Without channelIds every channel is answered, the one made before with the same link.
    const all = (await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'BrandPage' }, aff1)).json<ChannelView[]>();
    assert.deepEqual(all.map((c) => c.id).sort(), ['ch-aff1-insta', 'ch-aff1-site']);
    assert.deepEqual(all.find((c) => c.id === 'ch-aff1-insta')!.shortUrls, channels[0]!.shortUrls);
  });

  test('a channel the brand refuses is answered with its reason, and gets no link', async () => {
    const res = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.umbrella, type: 'BrandPage', channelIds: ['ch-aff1-insta'] }, aff1);
    const [channel] = res.json<ChannelView[]>();
    assert.deepEqual(channel!.shortUrls, []);
    assert.match(channel!.message ?? '', /does not accept links from Instagram channels/);
  });

  test('another affiliate’s channel, or none at all, is refused', async () => {
    const other = assertError(await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'BrandPage', channelIds: ['ch-aff2-wa'] }, aff1), 400, 'invalid_body');
    assert.match(other.message, /ch-aff2-wa is not one of your channels/);
    assertError(await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'BrandPage', channelIds: [] }, aff1), 400, 'invalid_body');
  });
});

describe('GET /affiliate/brands: allowedChannels', () => {
  test('a brand that takes some kinds only lists them; one that takes every kind leaves the field out', async () => {
    const umbrella = (await h.get(`/affiliate/brands/${BRANDS.umbrella}`, aff1)).json<{ data: { allowedChannels?: string[] } }>().data;
    assert.deepEqual(umbrella.allowedChannels, ['site']);
    const acme = (await h.get(`/affiliate/brands/${BRANDS.acme}`, aff1)).json<{ data: { allowedChannels?: string[] } }>().data;
    assert.equal('allowedChannels' in acme, false);
    const listed = (await h.get('/affiliate/brands?search=Umbrella', aff1)).json<{ data: Array<{ id: string; allowedChannels?: string[] }> }>().data;
    assert.deepEqual(listed.find((b) => b.id === BRANDS.umbrella)?.allowedChannels, ['site']);
  });
});
