// A webhook event survives the process: a real server records an order (and with it the event),
// is killed with SIGKILL before it delivers anything, and a server started afterwards on the same
// database delivers the event to the receiver. On both databases.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { freshDatabase, redisEnv, servicesFor, type TestDatabase } from '../helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { startReceiver, verify, type Receiver } from '../helpers/receiver.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA, item } from '../helpers/tracking.js';

let testDb: TestDatabase;
let database: Database;
let receiver: Receiver;
const servers: ServerProcess[] = [];

before(async () => {
  testDb = await freshDatabase({ migrated: true });
  database = openDatabase(testDb.url);
  await buildWorld(database);
  receiver = await startReceiver();
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await database.close();
  await testDb.drop();
  await receiver.close();
});

test('an order recorded by a server killed before delivering is delivered by the next server', async () => {
  const env = { DATABASE_URL: testDb.url, PUBLIC_URL: 'http://go.test', CLICK_FLUSH_MS: '50', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', ...redisEnv() };
  // The first server never looks for deliveries within the test.
  const first = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '3600000' });
  servers.push(first);
  const services = servicesFor(database);
  const { key } = await services.access.createApiKey({ affiliateId: 'aff-1' });
  const brandKey = (await services.access.createApiKey({ brandId: BRANDS.acme })).key;
  const json = { 'content-type': 'application/json' };

  const created = await fetch(`${first.url}/affiliate/webhooks`, { method: 'POST', headers: { 'x-api-key': key, ...json }, body: JSON.stringify({ url: receiver.url, events: ['order.created'] }) });
  assert.equal(created.status, 201, await created.clone().text());
  const { secret } = ((await created.json()) as { data: { secret: string } }).data;

  const linked = await fetch(`${first.url}/affiliate/shortener/url`, { method: 'POST', headers: { 'x-api-key': key, ...json }, body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }) });
  const code = ((await linked.json()) as Array<{ shortUrls: string[] }>).find((c) => c.shortUrls.length)!.shortUrls[0]!.split('/').pop()!;
  const clicked = await fetch(`${first.url}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
  const clickId = new URL(clicked.headers.get('location')!).searchParams.get('clickId')!;
  const reported = await fetch(`${first.url}/advertiser/conversions`, {
    method: 'POST',
    headers: { 'x-api-key': brandKey, ...json },
    body: JSON.stringify({ clickId, orderId: 'crash-1', value: 10_000, items: [item(10_000)] }),
  });
  assert.equal(reported.status, 201, await reported.clone().text());

  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  assert.equal(receiver.received.length, 0, 'nothing was delivered before the kill');

  const second = await startServerProcess({ ...env, WEBHOOK_POLL_MS: '100' });
  servers.push(second);
  await pollUntil(async () => receiver.received.length, (n) => n > 0, { timeoutMs: 15_000 });
  assert.equal(receiver.received.length, 1);
  const [delivery] = receiver.received;
  const payload = JSON.parse(delivery!.body) as { type: string; data: { orderId: string } };
  assert.deepEqual([payload.type, payload.data.orderId], ['order.created', 'crash-1']);
  assert.ok(verify(delivery!, secret, Math.floor(Date.now() / 1000)));
  const stored = await database.db.selectFrom('webhook_events').select('id').where('type', '=', 'order.created').execute();
  assert.deepEqual(stored.map((e) => e.id), [delivery!.headers['webhook-id']], 'the event written with the order, by the first server');
});
