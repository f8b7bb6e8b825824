// Statements on the demo data, for the pages that show them (the portal's fit test, the
// screenshots): the demo's approved commissions lock in the coming weeks, so the statements are
// issued as the network would two months from now, one paid in full, one in part.
import type { Database } from '../../src/storage/database.js';
import { ManualClock } from '../../src/lib/clock.js';
import { monthOf } from '../../src/domain/time.js';
import { servicesFor } from './databases.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const DAY = 86_400_000;

export async function issueDemoStatements(database: Database): Promise<void> {
  const now = new Date();
  const clock = new ManualClock(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1, 1));
  const { statements } = servicesFor(database, clock);
  for (const month of [monthOf(now.toISOString()), monthOf(new Date(now.getTime() + 31 * DAY).toISOString())]) await statements.issue(month);
  const issued = await statements.listAll(true);
  const [first, second] = issued;
  if (first) await statements.recordPayment(first.id, first.total, 'DEMO-PAID', CLI);
  if (second && second.total > 1) await statements.recordPayment(second.id, Math.floor(second.total / 2), 'DEMO-PART', CLI);
}
