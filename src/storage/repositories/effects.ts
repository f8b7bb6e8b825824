// What a money write carries along in its own transaction: ledger entries, webhook events, mail.
import type { Transaction } from 'kysely';
import type { DB, NewMailMessage, NewWebhookEvent } from '../tables.js';
import { writeLedger, type LedgerEntry } from './ledger.js';
import { writeOutbox } from './webhooks.js';
import { writeMail } from './mail.js';

export interface Effects {
  ledger?: readonly LedgerEntry[];
  events?: readonly NewWebhookEvent[];
  mail?: readonly NewMailMessage[];
}

export async function writeEffects(trx: Transaction<DB>, effects: Effects, now: string): Promise<void> {
  await writeLedger(trx, effects.ledger ?? [], now);
  await writeOutbox(trx, effects.events ?? [], now);
  await writeMail(trx, effects.mail ?? [], now);
}
