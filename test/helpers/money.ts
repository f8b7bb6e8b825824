// Money as the operator moves it, for tests: an affiliate's payout details saved by an owner through
// the API, and the whole way from a month's locked commissions to payouts sent.
import assert from 'node:assert/strict';
import type { Harness } from './harness.js';
import type { Database } from '../../src/storage/database.js';
import type { Services } from '../../src/services.js';
import type { Payout } from '../../src/schemas/payout.js';
import { PASSWORD, signedUp, withSession } from './sessions.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

let owners = 0;

/** PIX by CPF: valid check digits. */
export const PIX_CPF = { legalName: 'Ana Lima', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'cpf', key: '529.982.247-25' } };

/**
 * An owner of the affiliate saves its payout details (PIX by CPF unless given). Payouts are held
 * after a change (PAYEE_CHANGE_HOLD_HOURS): a test moves its clock past that, or starts with 0.
 */
export async function givePayeeDetails(h: Harness, affiliateId: string, details: object = PIX_CPF): Promise<void> {
  const owner = await signedUp(h, `payee-${++owners}@${affiliateId}.example`, { affiliateId }, 'owner');
  const res = await h.request(withSession({ method: 'PUT', url: '/affiliate/payee', payload: { ...details, password: PASSWORD } }, owner));
  assert.equal(res.statusCode, 200, res.body);
}

/**
 * Bills the month's locked commissions, records each brand's payment in full, runs the payouts and
 * exports the run (the payouts are sent, their commissions paid): the payouts made.
 */
export async function payMonth(services: Pick<Services, 'statements' | 'payoutRuns' | 'payouts'>, month: string, affiliateId?: string): Promise<Payout[]> {
  for (const statement of await services.statements.issue(month)) await services.statements.recordPayment(statement.id, statement.total, `TX-${statement.id}`, CLI);
  const run = await services.payoutRuns.run({ ...(affiliateId && { affiliateId }), actor: CLI });
  if (!run.batchId) return [];
  const exported = await services.payoutRuns.export(run.batchId, CLI);
  return Promise.all(exported.map(async (p) => (await services.payouts.get(p.affiliateId, p.payoutId, { page: 1, limit: 1 })).payout));
}

/** Moves the lock date of the affiliate's approved, unbilled orders into `month` (as if its days had passed), so its statement bills them. */
export async function lockedIn(database: Database, orderIds: readonly string[], month: string): Promise<void> {
  await database.db.updateTable('orders').set({ lock_at: `${month}-15T12:00:00.000Z` }).where('id', 'in', orderIds).execute();
}

/** Ends the hold that follows saving payout details, for tests that are not about the hold. */
export async function releasePayeeHold(database: Database, affiliateId: string): Promise<void> {
  await database.db.updateTable('payee_details').set({ held_until: new Date(Date.now() - 1000).toISOString() }).where('affiliate_id', '=', affiliateId).execute();
}
