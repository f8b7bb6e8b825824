// The audit trail against a real database: entries are written and listed newest first with their
// filters, and the table itself refuses every change but one (the address dropped), and every
// deletion, whatever path tries it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { auditEntry } from '../../src/domain/audit/audit-entry.js';
import { openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;
const EARLY = '2026-01-01T00:00:00.000Z';
const LATE = '2026-03-01T00:00:00.000Z';

before(async () => {
  f = await openFixture();
  const operator = { kind: 'operator', userId: 'usr-op', address: '203.0.113.7' } as const;
  await f.repos.audit.record([auditEntry(operator, { action: 'affiliate.suspended', subject: { kind: 'affiliate', id: 'aff-1' }, members: { affiliateId: 'aff-1' }, before: { status: 'active' }, after: { status: 'suspended' }, reason: 'fraud' })], EARLY);
  await f.repos.audit.record([auditEntry({ kind: 'brand', brandId: 'b-1', id: 'key_1', address: '198.51.100.2' }, { action: 'claim.resolved', subject: { kind: 'claim', id: 'clm-1' }, members: { affiliateId: 'aff-2' } })], LATE);
});
after(() => f.close());

test('entries are listed newest first, with the members, actor and action they were written with', async () => {
  const all = await f.repos.audit.list({}, { limit: 10, offset: 0 });
  assert.equal(all.total, 2);
  assert.deepEqual(all.rows.map((r) => r.action), ['claim.resolved', 'affiliate.suspended']);
  assert.equal(all.rows[0]!.brand_id, 'b-1');
  assert.equal(all.rows[0]!.affiliate_id, 'aff-2');
  const suspended = all.rows[1]!;
  assert.deepEqual([suspended.actor_kind, suspended.actor_id, suspended.address, suspended.reason], ['operator', 'usr-op', '203.0.113.7', 'fraud']);
  assert.deepEqual(JSON.parse(suspended.after!), { status: 'suspended' });

  assert.deepEqual((await f.repos.audit.list({ affiliateId: 'aff-1' }, { limit: 10, offset: 0 })).rows.map((r) => r.action), ['affiliate.suspended']);
  assert.deepEqual((await f.repos.audit.list({ action: 'claim.' }, { limit: 10, offset: 0 })).rows.map((r) => r.action), ['claim.resolved']);
  assert.deepEqual((await f.repos.audit.list({ actorId: 'usr-op', from: EARLY, to: LATE }, { limit: 10, offset: 0 })).rows.map((r) => r.action), ['affiliate.suspended']);
  assert.equal((await f.repos.audit.list({ brandId: 'b-2' }, { limit: 10, offset: 0 })).total, 0);
});

test('no path updates or deletes an entry: the table refuses it', async () => {
  const db = f.database.db;
  await assert.rejects(db.updateTable('audit_entries').set({ reason: 'nothing happened' }).execute(), /append-only/);
  await assert.rejects(db.updateTable('audit_entries').set({ after: null }).where('action', '=', 'affiliate.suspended').execute(), /append-only/);
  await assert.rejects(db.updateTable('audit_entries').set({ address: '192.0.2.1' }).execute(), /append-only/);
  await assert.rejects(db.deleteFrom('audit_entries').execute(), /append-only/);
  await assert.rejects(sql`delete from audit_entries where action = 'claim.resolved'`.execute(db), /append-only/);
  assert.equal((await f.repos.audit.list({}, { limit: 10, offset: 0 })).total, 2);
});

test('addresses older than the cut-off are dropped, the only change an entry ever sees', async () => {
  assert.equal(await f.repos.audit.dropAddressesBefore('2026-02-01T00:00:00.000Z'), 1);
  const rows = (await f.repos.audit.list({}, { limit: 10, offset: 0 })).rows;
  assert.deepEqual(rows.map((r) => r.address), ['198.51.100.2', null]);
  assert.equal(rows[1]!.reason, 'fraud');
  assert.equal(await f.repos.audit.dropAddressesBefore('2026-02-01T00:00:00.000Z'), 0);
});

test('secrets are masked in the entry itself', () => {
  const entry = auditEntry({ kind: 'cli' }, { action: 'payee.changed', subject: { kind: 'affiliate', id: 'aff-1' }, after: { method: 'pix', pix: { keyType: 'cpf', key: '12345678909' }, iban: 'DE89370400440532013000', name: 'Ana' } });
  assert.deepEqual(JSON.parse(entry.after!), { method: 'pix', pix: '•••', iban: '•••', name: 'Ana' });
  assert.equal(entry.actor_id, null);
});
