// Users of the portal, their one-time links and their sessions: the SQL behind them.
import type { Database } from '../database.js';
import type { NewMailMessage, SessionRow, UserRow } from '../tables.js';
import { writeMail } from './mail.js';

export interface UserOwner {
  affiliateId?: string;
  brandId?: string;
}

export class UsersRepository {
  constructor(private readonly database: Database) {}

  /** Adds a user, with the mail telling them (an invitation) in the same transaction. */
  async insert(row: UserRow, mail: readonly NewMailMessage[] = []): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(row).execute();
      await writeMail(trx, mail, row.created_at);
    });
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** A user of this owner (undefined when the id is another owner's or unknown). */
  findOf(owner: UserOwner, id: string): Promise<UserRow | undefined> {
    return this.ofOwner(owner).where('id', '=', id).executeTakeFirst();
  }

  listOf(owner: UserOwner): Promise<UserRow[]> {
    return this.ofOwner(owner).orderBy('email').execute();
  }

  async setPassword(id: string, passwordHash: string, now: string): Promise<void> {
    await this.database.db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
  }

  async setLanguage(id: string, language: string, now: string): Promise<void> {
    await this.database.db.updateTable('users').set({ language, updated_at: now }).where('id', '=', id).execute();
  }

  async remove(id: string): Promise<void> {
    await this.database.db.deleteFrom('users').where('id', '=', id).execute();
  }

  async insertLink(row: { token_hash: string; user_id: string; purpose: 'sign_up' | 'reset'; expires_at: string; created_at: string }): Promise<void> {
    await this.database.db.insertInto('user_links').values({ ...row, used_at: null }).execute();
  }

  /** Uses a one-time link: its user, once; undefined when unknown, used or expired. */
  async takeLink(tokenHash: string, now: string): Promise<{ user: UserRow; purpose: 'sign_up' | 'reset' } | undefined> {
    return this.database.db.transaction().execute(async (trx) => {
      const link = await trx
        .updateTable('user_links')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['user_id', 'purpose'])
        .executeTakeFirst();
      if (!link) return undefined;
      const user = await trx.selectFrom('users').selectAll().where('id', '=', link.user_id).executeTakeFirst();
      return user && { user, purpose: link.purpose };
    });
  }

  async insertSession(row: Omit<SessionRow, 'revoked_at'>): Promise<void> {
    await this.database.db.insertInto('sessions').values({ ...row, revoked_at: null }).execute();
  }

  /** A session that was not revoked, with its user. */
  async findSession(tokenHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const session = await this.database.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
    if (!session) return undefined;
    const user = await this.database.db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
    return user && { session, user };
  }

  async touchSession(tokenHash: string, now: string): Promise<void> {
    await this.database.db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
  }

  async revokeSession(tokenHash: string, now: string): Promise<void> {
    await this.database.db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
  }

  /** Ends every session of a user (password changed, user removed). */
  async revokeSessionsOf(userId: string, now: string): Promise<void> {
    await this.database.db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }

  private ofOwner(owner: UserOwner) {
    let query = this.database.db.selectFrom('users').selectAll();
    if (owner.affiliateId) query = query.where('affiliate_id', '=', owner.affiliateId);
    else if (owner.brandId) query = query.where('brand_id', '=', owner.brandId);
    else throw new Error('a user owner is an affiliate or a brand');
    return query;
  }
}
