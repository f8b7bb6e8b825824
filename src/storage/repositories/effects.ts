// What a write carries along in its own transaction: ledger entries, webhook events, postbacks, mail, audit entries.
import type { Transaction } from 'kysely';
import type { DB, NewMailMessage, NewWebhookEvent } from '../tables.js';
import { writeLedger, type LedgerEntry } from './ledger.js';
import { writeOutbox } from './webhooks.js';
import { writePostbacks, type PostbackTrigger } from './postbacks.js';
import { writeMail } from './mail.js';
import { writeAudit, type NewAuditEntry } from './audit.js';

export interface Effects {
  ledger?: readonly LedgerEntry[];
  events?: readonly NewWebhookEvent[];
  /** Postbacks of events that have no webhook event of their own (a commission paid, per order). */
  postbacks?: readonly PostbackTrigger[];
  mail?: readonly NewMailMessage[];
  audit?: readonly NewAuditEntry[];
}

export async function writeEffects(trx: Transaction<DB>, effects: Effects, now: string): Promise<void> {
  await writeLedger(trx, effects.ledger ?? [], now);
  await writeOutbox(trx, effects.events ?? [], now);
  await writePostbacks(trx, effects.postbacks ?? [], now);
  await writeMail(trx, effects.mail ?? [], now);
  await writeAudit(trx, effects.audit ?? [], now);
}
