// Postback tokens of brands: the SQL behind rotating a brand's token and resolving a presented one.
import type { Database } from '../database.js';
import type { NewPostbackTokenRow, PostbackTokenRow } from '../tables.js';
import { isUniqueViolation } from '../../lib/unique-violation.js';

export class PostbackTokensRepository {
  constructor(private readonly database: Database) {}

  /**
   * Makes `token` the brand's only active postback token: in one transaction the active one, if
   * any, is marked revoked and replaced by the new one, and the new one is inserted. Returns the
   * prefix of the token it replaced (null for the brand's first).
   *
   * Two rotations at once: on PostgreSQL the later one may not see the earlier one's new token
   * and is refused by the one-active-token index; it runs again and replaces that token, so the
   * last rotation wins, as it would one after the other.
   */
  async replace(token: Omit<NewPostbackTokenRow, 'revoked_at' | 'replaced_by'>): Promise<{ replaced: string | null }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.database.db.transaction().execute(async (trx) => {
          const replaced = await trx
            .updateTable('postback_tokens')
            .set({ revoked_at: token.created_at, replaced_by: token.id })
            .where('brand_id', '=', token.brand_id)
            .where('revoked_at', 'is', null)
            .returning('token_prefix')
            .execute();
          await trx.insertInto('postback_tokens').values({ ...token, revoked_at: null, replaced_by: null }).execute();
          return { replaced: replaced[0]?.token_prefix ?? null };
        });
      } catch (error) {
        if (attempt >= 3 || !isUniqueViolation(error)) throw error;
      }
    }
  }

  /** The active (neither rotated nor revoked) token with this hash, with when its brand was suspended (null while active). */
  findActive(tokenHash: string): Promise<(PostbackTokenRow & { suspended_at: string | null }) | undefined> {
    return this.database.db
      .selectFrom('postback_tokens as t')
      .innerJoin('brands as b', 'b.id', 't.brand_id')
      .selectAll('t')
      .select('b.suspended_at')
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .executeTakeFirst();
  }
}
