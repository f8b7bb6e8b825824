// Affiliates' claims of sales the tracking missed: filing one (at most one open per brand and
// order id), the lists of each side, and the answers, each in one transaction with what it
// causes (the order an acceptance makes, its audit entry and rollups, webhook events, mail).
import type { Database } from '../database.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';
import type { ClaimRow, ClaimsTable, NewMailMessage, NewOrderRow, NewWebhookEvent } from '../tables.js';
import { insertOrderOnce, type Author } from './orders.js';
import { writeOutbox } from './webhooks.js';
import { writeMail } from './mail.js';
import { writeAudit, type NewAuditEntry } from './audit.js';

export interface ClaimFilters {
  statuses?: string[];
}

/** What goes out with a change of a claim: webhook events and mail, written in its transaction, and an answer's audit entry. */
export interface ClaimEffects {
  events: readonly NewWebhookEvent[];
  mail: readonly NewMailMessage[];
  audit?: readonly NewAuditEntry[];
}

/** How an acceptance ended: made (or found) the order, or the claim was no longer open, or the order id was taken meanwhile. */
export type AcceptOutcome = 'accepted' | 'not_open' | 'order_exists';

class OrderExists extends Error {}

export class ClaimsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Files a claim with what it sends; false (nothing written) when an open claim of the brand's
   * order id is already there (the partial unique index decides, also between concurrent filings).
   */
  file(row: ClaimsTable, effects: ClaimEffects, now: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('claims')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      await writeOutbox(trx, effects.events, now);
      await writeMail(trx, effects.mail, now);
      return true;
    });
  }

  find(id: string): Promise<ClaimRow | undefined> {
    return this.database.db.selectFrom('claims').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The open claim of the brand's order id, whoever filed it. */
  openFor(brandId: string, orderId: string): Promise<ClaimRow | undefined> {
    return this.database.db.selectFrom('claims').selectAll().where('organization_id', '=', brandId).where('order_id', '=', orderId).where('status', '=', 'open').executeTakeFirst();
  }

  /** A page of one side's claims, newest first (id breaks ties), and the total. */
  list(owner: { affiliateId: string } | { brandId: string }, f: ClaimFilters, page: PageWindow): Promise<Page<ClaimRow>> {
    const filtered = () => {
      let q = this.database.db.selectFrom('claims');
      q = 'affiliateId' in owner ? q.where('affiliate_id', '=', owner.affiliateId) : q.where('organization_id', '=', owner.brandId);
      if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
      return q;
    };
    return pageWithTotal(
      this.database,
      filtered().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /**
   * Accepts an open claim: records the answer and, with `order`, stores the order it makes (its
   * 'created' audit entry by `author`, its rollups), all in one transaction with `effects`; without
   * `order`, the claim points at `orderNetworkId` (an order already there). Exactly one of two
   * concurrent answers wins: the other finds the claim no longer open.
   */
  accept(claim: ClaimRow, answer: { value: number; by: string; orderNetworkId: string; order?: NewOrderRow }, author: Author, now: string, effects: ClaimEffects): Promise<AcceptOutcome> {
    return this.database.db
      .transaction()
      .execute(async (trx) => {
        const updated = await trx
          .updateTable('claims')
          .set({ status: 'accepted', accepted_value: answer.value, resolved_by: answer.by, resolved_at: now, network_order_id: answer.orderNetworkId, updated_at: now })
          .where('id', '=', claim.id)
          .where('status', '=', 'open')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return 'not_open' as const;
        const { order } = answer;
        if (order) {
          // The brand reported the order meanwhile: undo the answer.
          if (!(await insertOrderOnce(trx, order, author, now))) throw new OrderExists();
        }
        await writeOutbox(trx, effects.events, now);
        await writeMail(trx, effects.mail, now);
        await writeAudit(trx, effects.audit ?? [], now);
        return 'accepted' as const;
      })
      .catch((error: unknown) => {
        if (error instanceof OrderExists) return 'order_exists' as const;
        throw error;
      });
  }

  /** Declines an open claim with its reason; false when it was no longer open. */
  decline(claim: ClaimRow, answer: { reason: string; by: string }, now: string, effects: ClaimEffects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('claims')
        .set({ status: 'declined', reason: answer.reason, resolved_by: answer.by, resolved_at: now, updated_at: now })
        .where('id', '=', claim.id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await writeOutbox(trx, effects.events, now);
      await writeMail(trx, effects.mail, now);
      await writeAudit(trx, effects.audit ?? [], now);
      return true;
    });
  }

  /** Up to `limit` open claims whose auto-accept time has come by `now`, the earliest first. */
  openDueBy(now: string, limit: number): Promise<ClaimRow[]> {
    return this.database.db.selectFrom('claims').selectAll().where('status', '=', 'open').where('auto_accept_at', '<=', now).orderBy('auto_accept_at').orderBy('id').limit(limit).execute();
  }
}
