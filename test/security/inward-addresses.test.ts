// The network's own machines are out of reach of the URLs members give it: every spelling of a
// loopback, private, link-local, metadata or otherwise special address that an attacker tried is
// refused when a webhook endpoint or a product feed is saved, and a name that resolves to one is
// refused when it is fetched, telling the member what is wrong and not where it led.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';

/** Each written as someone trying to reach inside would write it; the URL parser reads several as 127.0.0.1. */
const INWARD = [
  'https://127.0.0.1/x',
  'https://127.1/x',
  'https://2130706433/x',
  'https://0x7f000001/x',
  'https://0177.0.0.1/x',
  'https://0x7f.0.0.1/x',
  'https://0/x',
  'https://0.0.0.0/x',
  'https://[::1]/x',
  'https://[::]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[0:0:0:0:0:ffff:7f00:1]/x',
  'https://[::127.0.0.1]/x',
  'https://[2002:7f00:1::]/x',
  'https://[64:ff9b::a9fe:a9fe]/x',
  'https://169.254.169.254/latest/meta-data',
  'https://[fd00:ec2::254]/latest/meta-data',
  'https://[fe80::1]/x',
  'https://10.1.2.3/x',
  'https://172.16.0.1/x',
  'https://192.168.1.1/x',
  'https://100.64.0.1/x',
  'https://localhost/x',
  'https://api.localhost/x',
];

let h: Harness;
let affiliateKey: string;
let acmeKey: string;

before(async () => {
  // Local targets not allowed (the default); inside.test resolves to a private address, as a hostile DNS answer would.
  h = await startHarness({ WEBHOOK_POLL_MS: '0' }, { resolveHost: async (name) => (name === 'inside.test' ? ['10.0.0.5'] : ['93.184.216.34']) });
  affiliateKey = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acmeKey = await brandKey(h, BRANDS.acme);
});
after(() => h?.close());

test('every spelling of an inward address is refused when a webhook endpoint or a feed is saved', async () => {
  for (const [index, url] of INWARD.entries()) {
    const webhook = await h.request({ method: 'POST', url: '/affiliate/webhooks', headers: { 'x-api-key': affiliateKey }, payload: { url, events: ['order.created'] } });
    assertError(webhook, 400, 'invalid_url');
    const feed = await h.request({ method: 'PUT', url: `/advertiser/feeds/inward-${index}`, headers: { 'x-api-key': acmeKey }, payload: { url, format: 'google-xml', schedule: 'daily' } });
    assertError(feed, 400, 'invalid_url');
  }
});

test('a name that resolves inward is saved, then refused at the fetch without saying where it led', async () => {
  const saved = await h.request({ method: 'PUT', url: '/advertiser/feeds/by-name', headers: { 'x-api-key': acmeKey }, payload: { url: 'https://inside.test/feed.xml', format: 'google-xml', schedule: 'daily' } });
  assert.ok([200, 201].includes(saved.statusCode), saved.body);
  await h.service.services.jobs.runOnce('feeds');
  const runs = await h.request({ method: 'GET', url: '/advertiser/feeds/by-name/runs', headers: { 'x-api-key': acmeKey } });
  const reason = runs.json<{ data: Array<{ reason?: string }> }>().data[0]?.reason ?? '';
  assert.match(reason, /not public/);
  assert.doesNotMatch(reason, /10\.0\.0\.5|private/);
});
