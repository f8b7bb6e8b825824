// Second factors of portal users: the authenticator app, recovery codes, passkeys, the tickets
// between a right password and the second factor, WebAuthn challenges, when a session last passed
// a second factor, and the teams that require one. The SQL behind them.
import type { Database } from '../database.js';
import type { NewMailMessage, UserPasskeyRow, UserTotpRow, WebauthnChallengeRow } from '../tables.js';
import { writeMail } from './mail.js';
import { writeAudit, type NewAuditEntry } from './audit.js';

export class SecondFactorsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  findTotp(userId: string): Promise<UserTotpRow | undefined> {
    return this.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** A new, unconfirmed secret (replacing any earlier one not confirmed yet). */
  async startTotp(userId: string, secret: string, now: string): Promise<void> {
    await this.db
      .insertInto('user_totp')
      .values({ user_id: userId, secret, confirmed_at: null, last_step: null, created_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, confirmed_at: null, last_step: null, created_at: now }).where('user_totp.confirmed_at', 'is', null))
      .execute();
  }

  /**
   * Records that a code of `step` was accepted, and confirms an enrolment; false when a code of
   * this step or a later one was accepted already (a code works once).
   */
  async acceptStep(userId: string, step: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('user_totp')
      .set((eb) => ({ last_step: step, confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(now)) }))
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async removeTotp(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
    });
  }

  /**
   * Removes every factor of the user (app, recovery codes, passkeys) and ends their sessions, with
   * the mail telling them and the audit entry, in one transaction.
   */
  async removeAll(userId: string, now: string, mail: readonly NewMailMessage[], audit: readonly NewAuditEntry[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_passkeys').where('user_id', '=', userId).execute();
      await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await writeMail(trx, mail, now);
      await writeAudit(trx, audit, now);
    });
  }

  /** Replaces every recovery code of the user with these. */
  async replaceRecoveryCodes(userId: string, codeHashes: readonly string[], now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
      if (codeHashes.length > 0) await trx.insertInto('user_recovery_codes').values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now }))).execute();
    });
  }

  /** Uses a recovery code: true once, false when unknown or used. */
  async useRecoveryCode(userId: string, codeHash: string, now: string): Promise<boolean> {
    const result = await this.db.updateTable('user_recovery_codes').set({ used_at: now }).where('user_id', '=', userId).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await this.db.selectFrom('user_recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  listPasskeys(userId: string): Promise<UserPasskeyRow[]> {
    return this.db.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  }

  findPasskey(id: string): Promise<UserPasskeyRow | undefined> {
    return this.db.selectFrom('user_passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertPasskey(row: UserPasskeyRow): Promise<void> {
    await this.db.insertInto('user_passkeys').values(row).execute();
  }

  async usePasskey(id: string, counter: number, now: string): Promise<void> {
    await this.db.updateTable('user_passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
  }

  /** Renames a passkey of the user; false when it is not theirs. */
  async renamePasskey(userId: string, id: string, name: string): Promise<boolean> {
    const result = await this.db.updateTable('user_passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Removes a passkey of the user; false when it is not theirs. */
  async removePasskey(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('user_passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async insertTicket(row: { token_hash: string; user_id: string; expires_at: string; created_at: string }): Promise<void> {
    await this.db.insertInto('second_factor_tickets').values({ ...row, failures: 0, used_at: null }).execute();
  }

  /** The user of a ticket that is unused, unexpired and under `maxFailures` wrong codes. */
  async ticketUser(tokenHash: string, now: string, maxFailures: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('second_factor_tickets')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('failures', '<', maxFailures)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Counts a wrong code against the ticket. */
  async ticketFailed(tokenHash: string): Promise<void> {
    await this.db.updateTable('second_factor_tickets').set((eb) => ({ failures: eb('failures', '+', 1) })).where('token_hash', '=', tokenHash).execute();
  }

  /** Uses a ticket: true once. */
  async takeTicket(tokenHash: string, now: string): Promise<boolean> {
    const result = await this.db.updateTable('second_factor_tickets').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertChallenge(row: WebauthnChallengeRow): Promise<void> {
    await this.db.insertInto('webauthn_challenges').values(row).execute();
  }

  /** Uses a challenge: its row, once, while it lasts; undefined otherwise. */
  async takeChallenge(challenge: string, now: string): Promise<WebauthnChallengeRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('webauthn_challenges').selectAll().where('challenge', '=', challenge).executeTakeFirst();
      if (!row) return undefined;
      const deleted = await trx.deleteFrom('webauthn_challenges').where('challenge', '=', challenge).executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1 && row.expires_at > now ? row : undefined;
    });
  }

  /** Forgets expired tickets and challenges. */
  async pruneExpired(now: string): Promise<void> {
    await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('second_factor_tickets').where('expires_at', '<=', now).execute();
  }

  /** Records that the session passed a second factor now, and how (totp, passkey or recovery_code). */
  async markSessionVerified(tokenHash: string, now: string, method: 'totp' | 'passkey' | 'recovery_code'): Promise<void> {
    await this.db
      .insertInto('session_second_factors')
      .values({ token_hash: tokenHash, verified_at: now, method })
      .onConflict((oc) => oc.column('token_hash').doUpdateSet({ verified_at: now, method }))
      .execute();
  }

  /** When and how the session last passed a second factor (method null: recorded before it was kept). */
  async sessionVerifiedAt(tokenHash: string): Promise<{ at: string; method: 'totp' | 'passkey' | 'recovery_code' | null } | undefined> {
    const row = await this.db.selectFrom('session_second_factors').select(['verified_at', 'method']).where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && { at: row.verified_at, method: row.method as 'totp' | 'passkey' | 'recovery_code' | null };
  }

  async isRequired(account: string): Promise<boolean> {
    return (await this.db.selectFrom('second_factor_requirements').select('account').where('account', '=', account).executeTakeFirst()) !== undefined;
  }

  async setRequired(account: string, required: boolean, by: string, now: string): Promise<void> {
    if (!required) {
      await this.db.deleteFrom('second_factor_requirements').where('account', '=', account).execute();
      return;
    }
    await this.db.insertInto('second_factor_requirements').values({ account, required_by: by, created_at: now }).onConflict((oc) => oc.column('account').doNothing()).execute();
  }

  /** Whether the user has a confirmed authenticator app or a passkey. */
  async hasFactor(userId: string): Promise<{ totp: boolean; passkeys: number }> {
    const totp = await this.db.selectFrom('user_totp').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null).executeTakeFirst();
    const passkeys = await this.db.selectFrom('user_passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return { totp: totp !== undefined, passkeys: Number(passkeys.n) };
  }
}
