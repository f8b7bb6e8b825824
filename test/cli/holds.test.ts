// affnet holds, run as a separate process against the database of a running service: the queue of
// held conversions with the facts of each, and releasing or declining several at once (actor cli).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { affiliateOrder, brandKey, conversionOf, freshClick, item, report, type Conversion } from '../helpers/tracking.js';

let h: Harness;
let env: Record<string, string>;
const held: Conversion[] = [];

before(async () => {
  h = await startHarness({ FRAUD_MIN_CLICK_TO_ORDER_SECONDS: '3600' });
  env = { DATABASE_URL: h.config.databaseUrl, ...(h.config.payeeEncryptionKey && { PAYEE_ENCRYPTION_KEY: h.config.payeeEncryptionKey }) };
  const acme = await brandKey(h, BRANDS.acme);
  for (let i = 1; i <= 3; i++) {
    const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
    held.push(conversionOf(await report(h, acme, { clickId, orderId: `cli-hold-${i}`, value: 10_000, items: [item(10_000)] }), 201));
  }
});
after(() => h?.close());

const cli = (...args: string[]) => runCli(args, env);

test('holds list shows each held conversion with its click, its rule and numbers, and the affiliate’s record', async () => {
  assert.deepEqual(held.map((c) => c.commissionStatus), ['held', 'held', 'held']);
  const listed = await cli('holds', 'list');
  assert.equal(listed.code, 0, listed.stderr);
  for (const c of held) assert.match(listed.stdout, new RegExp(`^${c.id}  order ${c.orderId} of Acme, affiliate`, 'm'));
  assert.match(listed.stdout, /click_to_order_too_fast: ordered [\d.]+ s after the click \(under 3600 s\)/);
  assert.match(listed.stdout, /affiliate's record: \d+ order\(s\) \(.*3 held/);
  const json = await cli('holds', 'list', '--format', 'json', '--brand', BRANDS.acme);
  assert.equal(json.code, 0, json.stderr);
  assert.equal((JSON.parse(json.stdout) as { total: number }).total, 3);
  assert.match((await cli('holds', 'list', '--brand', BRANDS.globex)).stdout, /No conversion is held/);
});

test('holds release and decline decide several at once and say what became of each', async () => {
  const [a, b, c] = held as [Conversion, Conversion, Conversion];
  const noReason = await cli('holds', 'decline', b.id);
  assert.notEqual(noReason.code, 0);
  assert.match(noReason.stderr, /--reason/);

  const released = await cli('holds', 'release', a.id, '--reason', 'the customer confirmed');
  assert.equal(released.code, 0, released.stderr);
  assert.match(released.stdout, new RegExp(`${a.id}: released, pending until \\d{4}-`));
  const declined = await cli('holds', 'decline', b.id, c.id, a.id, '--reason', 'orders from the affiliate’s own device');
  assert.equal(declined.code, 1, 'one of them was not held');
  assert.match(declined.stdout, new RegExp(`${b.id}: declined\\.\\n${c.id}: declined\\.`));
  assert.match(declined.stderr, new RegExp(`${a.id}: not held \\(its commission is pending\\)`));

  assert.equal((await affiliateOrder(h, h.world.keys.aff1, a.id)).commissionStatus, 'pending');
  const view = await affiliateOrder(h, h.world.keys.aff1, b.id);
  assert.equal(view.commissionStatus, 'canceled');
  assert.equal(view.commissionReason, 'fraud_declined');
  const audit = await h.service.database.db.selectFrom('audit_entries').select(['action', 'actor_kind', 'reason']).where('subject_id', 'in', [a.id, b.id]).where('action', 'like', 'order.hold_%').orderBy('id').execute();
  assert.deepEqual(audit, [
    { action: 'order.hold_released', actor_kind: 'cli', reason: 'the customer confirmed' },
    { action: 'order.hold_declined', actor_kind: 'cli', reason: 'orders from the affiliate’s own device' },
  ]);
  const history = await h.service.database.db.selectFrom('order_events').select(['field', 'to_value', 'actor']).where('order_id', '=', b.id).where('field', '=', 'commissionStatus').execute();
  assert.deepEqual(history, [{ field: 'commissionStatus', to_value: 'canceled', actor: 'operator:cli' }]);
  assert.match((await cli('holds', 'list')).stdout, /No conversion is held/);
});
