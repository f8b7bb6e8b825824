// Affiliates' payee details, as the service stores them (encrypted: this repository never sees
// them in clear), with the mail a change sends, written in the same transaction.
import type { Database } from '../database.js';
import type { NewMailMessage, PayeeDetailsRow } from '../tables.js';
import { writeMail } from './mail.js';

export class PayeesRepository {
  constructor(private readonly database: Database) {}

  find(affiliateId: string): Promise<PayeeDetailsRow | undefined> {
    return this.database.db.selectFrom('payee_details').selectAll().where('affiliate_id', '=', affiliateId).executeTakeFirst();
  }

  /** Stores an affiliate's details (replacing any), and queues the messages that tell its owners, together. */
  async save(row: Omit<PayeeDetailsRow, 'created_at'>, mail: readonly NewMailMessage[], now: string): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      const { affiliate_id: _id, ...changes } = row;
      await trx
        .insertInto('payee_details')
        .values({ ...row, created_at: now })
        .onConflict((oc) => oc.column('affiliate_id').doUpdateSet(changes))
        .execute();
      await writeMail(trx, mail, now);
    });
  }

  /** Up to `limit` rows encrypted under another key than `keyId`, by affiliate id after `after` (what a rotation re-encrypts). */
  notUnderKey(keyId: string, after: string, limit: number): Promise<PayeeDetailsRow[]> {
    return this.database.db.selectFrom('payee_details').selectAll().where('key_id', '!=', keyId).where('affiliate_id', '>', after).orderBy('affiliate_id').limit(limit).execute();
  }

  /** Replaces a row's ciphertext, unless the row changed since it was read (a save meanwhile wins); whether it did. */
  async reencrypt(affiliateId: string, from: string, to: { details: string; key_id: string }): Promise<boolean> {
    const result = await this.database.db.updateTable('payee_details').set(to).where('affiliate_id', '=', affiliateId).where('details', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** How many rows each key encrypts. */
  async countByKey(): Promise<Array<{ keyId: string; rows: number }>> {
    const rows = await this.database.db.selectFrom('payee_details').select(['key_id', (eb) => eb.fn.countAll<number | string>().as('rows')]).groupBy('key_id').orderBy('key_id').execute();
    return rows.map((r) => ({ keyId: r.key_id, rows: Number(r.rows) }));
  }
}
