// What a member reads when a URL it gave (a webhook endpoint, a product feed) leads inside the
// network or nowhere: that the address is not public, or that the host could not be resolved;
// never which address a name resolves to, what kind of machine is there, or the resolver's own
// words. Names resolve as the test's resolver says, as a hostile DNS answer would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { newKey } from '../helpers/api.js';
import { brandKey, freshClick, item, report } from '../helpers/tracking.js';

/** Where each test name resolves: inside the network, or nowhere. */
const INSIDE: Record<string, string[]> = {
  'vm.example': ['127.0.0.1'],
  'db.example': ['10.0.0.5'],
  'mapped.example': ['::ffff:a00:5'],
  'relay.example': ['2002:a00:5::1'],
  'mixed.example': ['93.184.216.34', '169.254.169.254'],
};
/** What a member must never read: addresses of the network's machines, the kinds of them, the resolver's words. */
const LEAKS = /127\.0\.0\.1|10\.0\.0\.5|169\.254|::ffff|2002:|loopback|private|link-local|6to4|reserved|ENOTFOUND|getaddrinfo|resolves to/i;

let h: Harness;
let affiliate: string;
let acme: string;
let orderNumber = 0;

before(async () => {
  h = await startHarness(
    { WEBHOOK_POLL_MS: '0' },
    {
      resolveHost: async (name) => {
        const addresses = INSIDE[name];
        if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
        return addresses;
      },
    },
  );
  affiliate = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
});
after(() => h?.close());

const EXPECTED: Array<[host: string, told: string]> = [
  ['vm.example', 'refused: the address of vm.example is not public'],
  ['db.example', 'refused: the address of db.example is not public'],
  ['mapped.example', 'refused: the address of mapped.example is not public'],
  ['relay.example', 'refused: the address of relay.example is not public'],
  ['mixed.example', 'refused: the address of mixed.example is not public'],
  ['gone.example', 'refused: gone.example could not be resolved'],
];

test("a webhook endpoint's delivery log says the address is not public or could not be resolved, and no more", async () => {
  for (const [host, told] of EXPECTED) {
    const created = await h.post('/affiliate/webhooks', { url: `https://${host}/hook`, events: ['order.created'] }, affiliate);
    assert.equal(created.statusCode, 201, created.body);
    const hook = created.json<{ data: { id: string } }>().data;
    const reported = await report(h, acme, { clickId: await freshClick(h, affiliate, BRANDS.acme), orderId: `inside-${++orderNumber}`, value: 1_000, items: [item(1_000)] });
    assert.equal(reported.statusCode, 201, reported.body);
    await h.service.services.jobs.runOnce('webhooks');
    const log = await h.get(`/affiliate/webhooks/${hook.id}/deliveries`, affiliate);
    assert.equal(log.statusCode, 200, log.body);
    const errors = log.json<{ data: Array<{ error?: string }> }>().data.map((attempt) => attempt.error);
    assert.ok(errors.length > 0, host);
    for (const error of errors) assert.equal(error, told, host);
    assert.doesNotMatch(log.body, LEAKS, host);
    assert.equal((await h.request({ method: 'DELETE', url: `/affiliate/webhooks/${hook.id}`, headers: { 'x-api-key': affiliate } })).statusCode, 204);
  }
});

test("a product feed's run report says the address is not public or could not be resolved, and no more", async () => {
  for (const [i, [host, told]] of EXPECTED.entries()) {
    const saved = await h.request({ method: 'PUT', url: `/advertiser/feeds/inside-${i}`, headers: { 'x-api-key': acme }, payload: { url: `https://${host}/feed.xml`, format: 'google-xml', schedule: 'daily' } });
    assert.equal(saved.statusCode, 201, saved.body);
    await h.service.services.jobs.runOnce('feeds');
    const runs = await h.get(`/advertiser/feeds/inside-${i}/runs?limit=1`, acme);
    assert.equal(runs.statusCode, 200, runs.body);
    const [run] = runs.json<{ data: Array<{ status: string; reason?: string }> }>().data;
    assert.deepEqual([run?.status, run?.reason], ['failed', told], host);
    assert.doesNotMatch(runs.body, LEAKS, host);
  }
});
