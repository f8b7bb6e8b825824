// Upgrading to statements and the ledger: the network funded the approved commissions under the
// old rule, so those not yet paid become payable (with opening ledger lines), payouts already made
// are settled, and the ledger check passes on the upgraded database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrate.js';
import { freshDatabase, servicesFor } from '../helpers/databases.js';

test('approved, unpaid commissions become payable with opening ledger lines; payouts made before are settled; the ledger reconciles', async () => {
  const target = await freshDatabase();
  const database = openDatabase(target.url);
  try {
    await migrateTo(database, '0042-lock-dates');
    // Rows as the schema of then holds them: today's services write today's columns.
    const since = '2026-01-01T00:00:00.000Z';
    await sql`insert into brands (id, name, name_key, slug, logo, site, segment, created_at, updated_at)
      values ('b-acme', 'Acme', 'acme', 'acme', 'https://acme.example.com/logo.png', 'https://acme.example.com', 'Retail', ${since}, ${since})`.execute(database.db);
    for (const id of ['aff-1', 'aff-2']) await database.db.insertInto('affiliates').values({ id, name: id, created_at: '2026-01-01T00:00:00.000Z' }).execute();
    const at = '2026-05-01T10:00:00.000Z';
    const order = (id: string, affiliateId: string, commissionStatus: string, commission: number, extra: Record<string, unknown> = {}) => ({
      id,
      order_id: `brand-${id}`,
      organization_id: 'b-acme',
      affiliate_id: affiliateId,
      status: commissionStatus === 'pending' ? 'pending' : 'approved',
      commission_status: commissionStatus,
      value: 10_000,
      commission,
      commission_transfer: 'cpa',
      commission_value: commission,
      currency: 'BRL',
      items: '[]',
      lock_at: '2026-06-01T00:00:00.000Z',
      created_at: at,
      updated_at: at,
      ...extra,
    });
    await database.db.insertInto('payouts').values({ id: 'po-old', affiliate_id: 'aff-1', currency: 'BRL', period_start: at, period_end: at, total: 100, order_count: 1, created_at: at }).execute();
    for (const row of [
      order('o1', 'aff-1', 'approved', 750),
      order('o2', 'aff-1', 'approved', 250),
      order('o3', 'aff-1', 'paid', 100, { payout_id: 'po-old', paid_at: at }),
      order('o4', 'aff-2', 'approved', 300),
      order('o5', 'aff-2', 'pending', 500),
    ]) {
      await database.db.insertInto('orders').values(row).execute();
    }
    await migrateToLatest(database);

    const orders = new Map((await database.db.selectFrom('orders').select(['id', 'commission_status', 'payable_at']).execute()).map((o) => [o.id, o]));
    for (const id of ['o1', 'o2', 'o4']) {
      assert.equal(orders.get(id)?.commission_status, 'payable', id);
      assert.ok(orders.get(id)?.payable_at, `${id} has payableAt`);
    }
    assert.equal(orders.get('o3')?.commission_status, 'paid');
    assert.equal(orders.get('o5')?.commission_status, 'pending');
    const payout = await database.db.selectFrom('payouts').select(['status', 'sent_at', 'settled_at']).where('id', '=', 'po-old').executeTakeFirstOrThrow();
    assert.deepEqual(payout, { status: 'settled', sent_at: at, settled_at: at });
    const history = await database.db.selectFrom('order_events').select(['order_id', 'from_value', 'to_value', 'actor']).orderBy('order_id').execute();
    assert.deepEqual(history, ['o1', 'o2', 'o4'].map((id) => ({ order_id: id, from_value: 'approved', to_value: 'payable', actor: 'network' })));

    const services = servicesFor(database);
    assert.deepEqual(await services.ledger.check(), []);
    const balances = await services.ledger.report('2099-01');
    const payable = balances.get('BRL')!.filter((line) => line.account.endsWith(':payable'));
    assert.deepEqual(payable.map((line) => [line.account, line.closing]), [['affiliate:aff-1:payable', -1_000], ['affiliate:aff-2:payable', -300]]);
  } finally {
    await database.close();
    await target.drop();
  }
});
