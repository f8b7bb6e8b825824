// Users of the portal, their one-time links and their sessions: the SQL behind them.
import type { Database } from '../database.js';
import type { NewMailMessage, SessionRow, UserRow } from '../tables.js';
import { writeMail } from './mail.js';

/** An open session as the API resolves it (see findSession). */
export interface FoundSession {
  session: SessionRow;
  user: UserRow;
  suspendedAt: string | null;
  /** The user has a confirmed authenticator app or a passkey. */
  hasFactor: boolean;
  /** When and how the session last passed a second factor; undefined if never. */
  factorPassed: { at: string; method: string | null } | undefined;
}

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

  /** Opens a session, with the mail it causes (a sign-in from a new device) in the same transaction. */
  async insertSession(row: Omit<SessionRow, 'revoked_at'>, mail: readonly NewMailMessage[] = []): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sessions').values({ ...row, revoked_at: null }).execute();
      await writeMail(trx, mail, row.created_at);
    });
  }

  /** Whether the user ever had a session (signed in before). */
  async hasSessions(userId: string): Promise<boolean> {
    return (await this.database.db.selectFrom('sessions').select('user_id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !== undefined;
  }

  /** Whether the browser whose device token hashes to `deviceHash` opened a session of this user (and was not signed out from elsewhere). */
  async knowsDevice(userId: string, deviceHash: string): Promise<boolean> {
    const found = await this.database.db.selectFrom('sessions').select('user_id').where('user_id', '=', userId).where('device_hash', '=', deviceHash).limit(1).executeTakeFirst();
    return found !== undefined;
  }

  /** Whether the browser is known to the user with this e-mail (see knowsDevice). */
  async knowsDeviceOf(email: string, deviceHash: string): Promise<boolean> {
    const found = await this.database.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.user_id')
      .where('users.email', '=', email)
      .where('sessions.device_hash', '=', deviceHash)
      .limit(1)
      .executeTakeFirst();
    return found !== undefined;
  }

  /** The user's sessions not revoked and used since `seenSince`, the most recently used first. */
  listSessions(userId: string, seenSince: string): Promise<SessionRow[]> {
    return this.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('last_seen_at', '>=', seenSince)
      .orderBy('last_seen_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  }

  /**
   * Ends the user's session with this id, and forgets its device for the user (a sign-in from
   * there is new again) unless it is `keptDeviceHash`, the device asking; false when the user has
   * no such session open.
   */
  async revokeSessionById(userId: string, id: string, keptDeviceHash: string | null, now: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const ended = await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('id', '=', id).where('revoked_at', 'is', null).returning('device_hash').executeTakeFirst();
      if (!ended) return false;
      if (ended.device_hash && ended.device_hash !== keptDeviceHash) {
        await trx.updateTable('sessions').set({ device_hash: null }).where('user_id', '=', userId).where('device_hash', '=', ended.device_hash).execute();
      }
      return true;
    });
  }

  /**
   * Ends every session of the user but the one with this token hash, and forgets every device of
   * the user but `keptDeviceHash` (the one asking); how many sessions ended.
   */
  async revokeOtherSessions(userId: string, keptTokenHash: string, keptDeviceHash: string | null, now: string): Promise<number> {
    return this.database.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('token_hash', '!=', keptTokenHash).where('revoked_at', 'is', null).executeTakeFirst();
      let forget = trx.updateTable('sessions').set({ device_hash: null }).where('user_id', '=', userId).where('device_hash', 'is not', null);
      if (keptDeviceHash) forget = forget.where('device_hash', '!=', keptDeviceHash);
      await forget.execute();
      return Number(result.numUpdatedRows);
    });
  }

  /** Blanks the client address of sessions opened before `cutoff`; how many. */
  async forgetAddresses(cutoff: string): Promise<number> {
    const result = await this.database.db.updateTable('sessions').set({ address: null }).where('address', 'is not', null).where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * The open session with this token hash and its user, with when the user's affiliate or brand was
   * suspended (null while active), whether the user has a second factor (a confirmed app or a
   * passkey), and when and how this session last passed one.
   */
  async findSession(tokenHash: string): Promise<FoundSession | undefined> {
    const session = await this.database.db
      .selectFrom('sessions as s')
      .leftJoin('session_second_factors as f', 'f.token_hash', 's.token_hash')
      .selectAll('s')
      .select(['f.verified_at as factor_verified_at', 'f.method as factor_method'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!session) return undefined;
    const found = await this.database.db
      .selectFrom('users as u')
      .leftJoin('affiliates as a', 'a.id', 'u.affiliate_id')
      .leftJoin('brands as b', 'b.id', 'u.brand_id')
      .selectAll('u')
      .select((eb) => [
        eb.fn.coalesce('a.suspended_at', 'b.suspended_at').as('account_suspended_at'),
        eb
          .or([
            eb.exists(eb.selectFrom('user_totp as t').select('t.user_id').whereRef('t.user_id', '=', 'u.id').where('t.confirmed_at', 'is not', null)),
            eb.exists(eb.selectFrom('user_passkeys as p').select('p.user_id').whereRef('p.user_id', '=', 'u.id')),
          ])
          .as('has_factor'),
      ])
      .where('u.id', '=', session.user_id)
      .executeTakeFirst();
    if (!found) return undefined;
    const { account_suspended_at: suspendedAt, has_factor: hasFactor, ...user } = found;
    const { factor_verified_at: verifiedAt, factor_method: method, ...sessionRow } = session;
    return { session: sessionRow, user, suspendedAt, hasFactor: Boolean(hasFactor), factorPassed: verifiedAt === null ? undefined : { at: verifiedAt, method } };
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
