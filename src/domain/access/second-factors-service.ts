// Second factors for the portal's people: an authenticator app (TOTP), ten single-use recovery
// codes that come with it, and passkeys (WebAuthn). Someone who has one signs in in two steps: a
// right password answers a short-lived, single-use ticket (not a session), and the ticket with a
// current code, a recovery code or a passkey opens the session. A passkey also signs in alone,
// without the password. An owner may require a second factor of the whole team: a member without
// one can then only reach their security page until they enrol. Each session remembers when and
// how it last passed a second factor: a session of a person with a factor that did not pass it is
// refused everywhere, and changes of factors and payee details ask for a current one (a code now,
// or a code or passkey within the last 10 minutes; a recovery code opens a sign-in but confirms
// nothing). Wrong codes count per account and per address (code-guesses.ts), wrong passwords typed
// to confirm a change with sign-in's (sign-in-delays.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { seal, sealedFields, unseal, type SealedParts } from '../../lib/sealed-box.js';
import type { UserRow } from '../../storage/tables.js';
import type { UsersRepository, UserOwner } from '../../storage/repositories/users.js';
import type { SecondFactorsRepository } from '../../storage/repositories/second-factors.js';
import type { SettingsRepository } from '../../storage/repositories/settings.js';
import type { Clock } from '../../lib/clock.js';
import { verifyPassword } from '../../lib/passwords.js';
import { conflict, invalid, notFound } from '../errors.js';
import { randomBase62 } from '../random.js';
import { secondFactorKey } from '../installation.js';
import { hashKey } from './access-service.js';
import { newTotpSecret, totpStep, totpUri } from './totp.js';
import { Passkeys, type AssertionJson, type AttestationJson, type PasskeyOptions } from './passkeys.js';
import type { Client, SignedIn, UsersService } from './users-service.js';
import type { CodeGuesses } from './code-guesses.js';
import type { SignInDelays } from './sign-in-delays.js';
import { tooMany } from '../errors.js';
import { auditEntry, type Actor } from '../audit/audit-entry.js';
import { mailRow } from '../mail/mail-queue.js';
import { mailLanguage } from './users-service.js';

const MINUTE = 60_000;
/** How long the step between the password and the second factor may take. */
export const TICKET_LIFETIME_MS = 5 * MINUTE;
/** Wrong codes a ticket takes before it stops working (the person signs in again). */
export const TICKET_MAX_FAILURES = 5;
export const RECOVERY_CODE_COUNT = 10;
/** How recent a second factor must be for a change that asks for it again (payout details). */
export const RECENT_SECOND_FACTOR_MS = 10 * MINUTE;
/** Recovery codes: two groups of five from 32 unambiguous characters (50 bits each, hashed under a secret key). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

export interface SecondFactorStep {
  secondFactor: { required: true; methods: SecondFactorMethod[]; ticket: string; expiresAt: string };
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt?: string;
}

export interface SecondFactorStatus {
  totp: { enabled: boolean };
  recoveryCodesLeft: number;
  passkeys: PasskeyView[];
  /** Whether the person's team requires a second factor of every member. */
  teamRequires: boolean;
  /** Whether the person must enrol one before anything else (the team requires it, they have none). */
  enrolmentRequired: boolean;
}

/** What confirms a sensitive change: a current code of the authenticator app, or (from a person without a second factor) the password. */
export interface ChangeConfirmation {
  password?: string;
  code?: string;
}

/** Who confirms a change: the signed-in person, their session's cookie, and where they are. */
export interface Confirmer {
  userId: string;
  sessionToken: string;
  client?: Client;
}

/** What completes the second step: one of a current code, a recovery code or a passkey's assertion. */
export interface SecondFactorProof {
  code?: string;
  recoveryCode?: string;
  passkey?: AssertionJson;
}

export type SecondStepResult = { ok: true; signedIn: SignedIn } | { ok: false; reason: 'invalid_ticket' | 'invalid_code' };

/** The team a user works for, as second_factor_requirements names it. */
export const accountKey = (owner: UserOwner): string => (owner.affiliateId ? `affiliate:${owner.affiliateId}` : owner.brandId ? `brand:${owner.brandId}` : 'network');

/** Whether a second factor is required of the person: always of an operator (no affiliate, no brand), else when their team says so. */
const factorRequired = (store: { isRequired(key: string): Promise<boolean> }, user: UserOwner): Promise<boolean> =>
  !user.affiliateId && !user.brandId ? Promise.resolve(true) : store.isRequired(accountKey(user));

/**
 * Whether a session passed a second factor within `withinMs` (default 10 minutes) with something
 * that confirms changes (a code or a passkey; a recovery code confirms nothing): what a change of
 * factors or payout details asks of anyone who has enrolled one. `passed` is what
 * SecondFactorsService.sessionVerifiedAt answers.
 */
export function recentlyVerifiedSecondFactor(passed: { at: string; method: SecondFactorMethod | null } | undefined, nowMs: number, withinMs = RECENT_SECOND_FACTOR_MS): boolean {
  return passed !== undefined && passed.method !== 'recovery_code' && nowMs - Date.parse(passed.at) <= withinMs;
}

/** What limits guessing: wrong codes per account and address, wrong passwords with sign-in's. */
export interface GuessLimits {
  codes: CodeGuesses;
  passwords: SignInDelays;
}

export interface SecondFactorsRepositories {
  users: UsersRepository;
  secondFactors: SecondFactorsRepository;
  settings: SettingsRepository;
}

export class SecondFactorsService {
  private key?: Promise<Buffer>;
  readonly passkeys: Passkeys;

  constructor(
    private readonly repositories: SecondFactorsRepositories,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly settings: { publicUrl: string; networkName: string },
    private readonly guesses: GuessLimits,
  ) {
    this.passkeys = new Passkeys(repositories.secondFactors, clock, settings);
  }

  private get store() {
    return this.repositories.secondFactors;
  }

  private installationKey(): Promise<Buffer> {
    this.key ??= secondFactorKey(this.repositories.settings, this.clock);
    return this.key;
  }

  // ---- Sign-in ------------------------------------------------------------------------------

  /**
   * Signs in with an e-mail and password: a session for someone without a second factor, a ticket
   * for the second step for someone with one; undefined when the e-mail or the password is wrong.
   */
  async signIn(email: string, password: string, client: Client = {}): Promise<SignedIn | SecondFactorStep | undefined> {
    const user = await this.users.checkCredentials(email, password);
    if (!user) return undefined;
    return (await this.secondStep(user)) ?? this.users.openSession(user, client, true);
  }

  /** The second step: the ticket with a current code, a recovery code or a passkey opens the session. */
  async completeSignIn(ticket: string, proof: SecondFactorProof, client: Client = {}): Promise<SecondStepResult> {
    const ticketHash = hashKey(ticket);
    const now = this.clock.iso();
    const userId = await this.store.ticketUser(ticketHash, now, TICKET_MAX_FAILURES);
    if (!userId) return { ok: false, reason: 'invalid_ticket' };
    const method = this.check(proof);
    const passed = method === 'passkey' ? (await this.passkeys.verifyAssertion(proof.passkey!, { purpose: 'second_factor', userId, ticketHash })) === userId : await this.guessedRight(userId, client, proof);
    if (!passed) {
      await this.store.ticketFailed(ticketHash);
      return { ok: false, reason: 'invalid_code' };
    }
    if (!(await this.store.takeTicket(ticketHash, now))) return { ok: false, reason: 'invalid_ticket' };
    const user = await this.repositories.users.findById(userId);
    if (!user) return { ok: false, reason: 'invalid_ticket' };
    return { ok: true, signedIn: await this.openVerifiedSession(user, client, method) };
  }

  /**
   * Sets a password through a one-time link: a person without a second factor is signed in, one
   * with a factor gets the second step (a ticket), as at sign-in; a link never removes a factor.
   */
  async setPassword(token: string, password: string, client: Client = {}): Promise<SignedIn | SecondFactorStep> {
    const user = await this.users.usePasswordLink(token, password);
    return (await this.secondStep(user)) ?? this.users.openSession(user, client, false);
  }

  /** The ticket for the second step of a person with a second factor; undefined for one without. */
  private async secondStep(user: UserRow): Promise<SecondFactorStep | undefined> {
    const methods = await this.methodsOf(user.id);
    if (methods.length === 0) return undefined;
    const ticket = randomBase62(43);
    const now = this.clock.now();
    const expiresAt = new Date(now + TICKET_LIFETIME_MS).toISOString();
    await this.store.pruneExpired(new Date(now).toISOString());
    await this.store.insertTicket({ token_hash: hashKey(ticket), user_id: user.id, expires_at: expiresAt, created_at: new Date(now).toISOString() });
    return { secondFactor: { required: true, methods, ticket, expiresAt } };
  }

  /** Checks a code or a recovery code, counting a wrong one against the person and the address (429 past the limits). */
  private async guessedRight(userId: string, client: Client, proof: { code?: string; recoveryCode?: string }): Promise<boolean> {
    const guess = await this.guesses.codes.admit(userId, client.address);
    const right = proof.code !== undefined ? await this.acceptCode(userId, proof.code, true) : await this.useRecoveryCode(userId, proof.recoveryCode ?? '');
    if (right) await guess.right();
    return right;
  }

  /** WebAuthn options for a passkey as the second step of a ticket (only the person's own passkeys). */
  async ticketPasskeyOptions(ticket: string): Promise<PasskeyOptions | undefined> {
    const ticketHash = hashKey(ticket);
    const userId = await this.store.ticketUser(ticketHash, this.clock.iso(), TICKET_MAX_FAILURES);
    if (!userId) return undefined;
    return this.passkeys.assertionOptions({ purpose: 'second_factor', userId, ticketHash, allow: await this.store.listPasskeys(userId) });
  }

  /** WebAuthn options to sign in with a passkey alone (the authenticator offers the person's own). */
  passwordlessOptions(): Promise<PasskeyOptions> {
    return this.passkeys.assertionOptions({ purpose: 'sign_in', userId: null, ticketHash: null, allow: [] });
  }

  /** Signs in with a passkey and no password; undefined when the assertion does not verify. */
  async signInWithPasskey(assertion: AssertionJson, client: Client = {}): Promise<SignedIn | undefined> {
    const userId = await this.passkeys.verifyAssertion(assertion, { purpose: 'sign_in' });
    if (!userId) return undefined;
    const user = await this.repositories.users.findById(userId);
    return user?.password_hash ? this.openVerifiedSession(user, client, 'passkey') : undefined;
  }

  /** A session from `client` that passed a second factor by `method`; a browser new to the person is mailed to them. */
  private async openVerifiedSession(user: UserRow, client: Client, method: SecondFactorMethod): Promise<SignedIn> {
    const signedIn = await this.users.openSession(user, client, true);
    await this.store.markSessionVerified(hashKey(signedIn.sessionToken), this.clock.iso(), method);
    return signedIn;
  }

  /** Which kind of proof was sent: exactly one of a code, a recovery code and a passkey. */
  private check(proof: SecondFactorProof): SecondFactorMethod {
    const given = [proof.code, proof.recoveryCode, proof.passkey].filter((p) => p !== undefined).length;
    if (given !== 1) throw invalid('invalid_second_factor', 'send exactly one of code, recoveryCode and passkey');
    return proof.code !== undefined ? 'totp' : proof.recoveryCode !== undefined ? 'recovery_code' : 'passkey';
  }

  /** The methods the person can complete a second step with; none when they have no factor. */
  private async methodsOf(userId: string): Promise<SecondFactorMethod[]> {
    const { totp, passkeys } = await this.store.hasFactor(userId);
    return [...(totp ? (['totp', 'recovery_code'] as const) : []), ...(passkeys > 0 ? (['passkey'] as const) : [])];
  }

  // ---- The signed-in person's factors ---------------------------------------------------------

  async status(user: { id: string; affiliateId?: string; brandId?: string }): Promise<SecondFactorStatus> {
    const { totp } = await this.store.hasFactor(user.id);
    const passkeys = await this.store.listPasskeys(user.id);
    const teamRequires = await factorRequired(this.store, user);
    return {
      totp: { enabled: totp },
      recoveryCodesLeft: totp ? await this.store.recoveryCodesLeft(user.id) : 0,
      passkeys: passkeys.map((p) => ({ id: p.id, name: p.name, createdAt: p.created_at, ...(p.last_used_at && { lastUsedAt: p.last_used_at }) })),
      teamRequires,
      enrolmentRequired: teamRequires && !totp && passkeys.length === 0,
    };
  }

  /**
   * Starts enrolling an authenticator app: a new secret (replacing one not confirmed yet), as text and
   * as an otpauth:// URI. A person who has a passkey confirms with it first (a current factor).
   */
  async startTotp(who: Confirmer & { email: string }): Promise<{ secret: string; uri: string }> {
    const existing = await this.store.findTotp(who.userId);
    if (existing?.confirmed_at) throw conflict('totp_enabled', 'an authenticator app is set up already: turn it off first to set up another');
    await this.requireCurrentFactor(who, {});
    const secret = newTotpSecret();
    await this.store.startTotp(who.userId, await this.encrypt(who.userId, secret), this.clock.iso());
    return { secret, uri: totpUri(secret, who.email, this.settings.networkName) };
  }

  /**
   * Confirms the enrolment with a current code: from now on the app is asked for at sign-in. The
   * answer is ten recovery codes, shown this once. The session counts as having passed a second factor.
   */
  async confirmTotp(who: Confirmer, code: string): Promise<{ recoveryCodes: string[] }> {
    const existing = await this.store.findTotp(who.userId);
    if (!existing) throw conflict('totp_not_started', 'start setting up the authenticator app first (POST /session/totp)');
    if (existing.confirmed_at) throw conflict('totp_enabled', 'the authenticator app is set up already');
    await this.requireCurrentFactor(who, {});
    const guess = await this.guesses.codes.admit(who.userId, who.client?.address);
    if (!(await this.acceptCode(who.userId, code, false))) throw invalid('invalid_code', 'this code is not the current one: check the app shows the code of this account, and that the phone’s clock is right');
    await guess.right();
    await this.store.markSessionVerified(hashKey(who.sessionToken), this.clock.iso(), 'totp');
    return { recoveryCodes: await this.newRecoveryCodes(who.userId) };
  }

  /** Turns the authenticator app off (and its recovery codes), with a current factor. */
  async disableTotp(who: Confirmer, confirmation: ChangeConfirmation): Promise<void> {
    if (!(await this.store.findTotp(who.userId))) throw conflict('totp_not_enabled', 'you have no authenticator app to turn off');
    await this.requireCurrentFactor(who, confirmation);
    await this.store.removeTotp(who.userId);
  }

  /** Ten new recovery codes, replacing the old ones (used or not), with a current factor. */
  async regenerateRecoveryCodes(who: Confirmer, confirmation: ChangeConfirmation): Promise<{ recoveryCodes: string[] }> {
    const { totp } = await this.store.hasFactor(who.userId);
    if (!totp) throw conflict('totp_not_enabled', 'recovery codes come with an authenticator app: set one up first');
    await this.requireCurrentFactor(who, confirmation);
    return { recoveryCodes: await this.newRecoveryCodes(who.userId) };
  }

  /** When and how the session last passed a second factor; undefined if never. */
  sessionVerifiedAt(sessionToken: string): Promise<{ at: string; method: SecondFactorMethod | null } | undefined> {
    return this.store.sessionVerifiedAt(hashKey(sessionToken));
  }

  /** Whether the session passed a second factor that confirms changes within `withinMs` (see recentlyVerifiedSecondFactor). */
  async recentlyVerified(sessionToken: string, withinMs = RECENT_SECOND_FACTOR_MS): Promise<boolean> {
    return recentlyVerifiedSecondFactor(await this.sessionVerifiedAt(sessionToken), this.clock.now(), withinMs);
  }

  /**
   * Confirms a sensitive change (payout details, money an operator moves) by the signed-in person,
   * again: someone with a second factor confirms with it (see requireCurrentFactor), never with the
   * password; someone without one with the password, whose wrong guesses count with sign-in's.
   */
  async confirmChange(who: Confirmer, confirmation: ChangeConfirmation): Promise<void> {
    const factors = await this.store.hasFactor(who.userId);
    if (factors.totp || factors.passkeys > 0) return this.requireCurrentFactor(who, confirmation, factors);
    if (confirmation.password === undefined) throw invalid('password_required', 'password: type your password again to confirm this change');
    await this.checkPassword(who, confirmation.password);
  }

  /**
   * Passes the second factor again in this session, with a current code of the app or a passkey:
   * for the next 10 minutes, changes that ask for a current factor need nothing more.
   */
  async confirmFactor(who: Confirmer, proof: { code?: string; passkey?: AssertionJson }): Promise<{ confirmedUntil: string }> {
    if ((proof.code === undefined) === (proof.passkey === undefined)) throw invalid('invalid_second_factor', 'send exactly one of code and passkey');
    const { totp, passkeys } = await this.store.hasFactor(who.userId);
    if (!totp && passkeys === 0) throw conflict('second_factor_missing', 'you have no second factor to confirm with: set one up on your Security page');
    let method: SecondFactorMethod = 'totp';
    if (proof.passkey !== undefined) {
      if ((await this.passkeys.verifyAssertion(proof.passkey, { purpose: 'confirm', userId: who.userId })) !== who.userId) {
        throw invalid('invalid_passkey', 'passkey: this passkey is not one of yours, or its answer is not for a current confirmation: try again');
      }
      method = 'passkey';
    } else if (!(await this.guessedRight(who.userId, who.client ?? {}, { code: proof.code! }))) {
      throw invalid('invalid_code', 'code: this is not the current code of your authenticator app (each code works once)');
    }
    const now = this.clock.now();
    await this.store.markSessionVerified(hashKey(who.sessionToken), new Date(now).toISOString(), method);
    return { confirmedUntil: new Date(now + RECENT_SECOND_FACTOR_MS).toISOString() };
  }

  /** WebAuthn options to confirm with one of the person's own passkeys (POST /session/second-factor/confirm). */
  async confirmPasskeyOptions(userId: string): Promise<PasskeyOptions> {
    const allow = await this.store.listPasskeys(userId);
    if (allow.length === 0) throw conflict('no_passkey', 'you have no passkey: confirm with a code of your authenticator app');
    return this.passkeys.assertionOptions({ purpose: 'confirm', userId, ticketHash: null, allow });
  }

  /**
   * Asks a person who has a second factor for a current one: a code of the app now (`code`, which
   * also marks the session), or a code or passkey this session passed within the last 10 minutes (a
   * recovery code does not count). The password is never enough. Nothing is asked of a person with
   * no factor.
   */
  private async requireCurrentFactor(who: Confirmer, confirmation: ChangeConfirmation, factors?: { totp: boolean; passkeys: number }): Promise<void> {
    const { totp, passkeys } = factors ?? (await this.store.hasFactor(who.userId));
    if (!totp && passkeys === 0) return;
    if (confirmation.code !== undefined && totp) {
      if (!(await this.guessedRight(who.userId, who.client ?? {}, { code: confirmation.code }))) throw invalid('invalid_code', 'code: this is not the current code of your authenticator app (each code works once)');
      await this.store.markSessionVerified(hashKey(who.sessionToken), this.clock.iso(), 'totp');
      return;
    }
    if (await this.recentlyVerified(who.sessionToken)) return;
    throw invalid(
      'second_factor_needed',
      totp
        ? 'code: you have set up a second factor, so confirm this change with the current code of your authenticator app or a passkey (your password or a recovery code is not enough)'
        : `you have set up a passkey, so first confirm it is you with it, then make this change within ${RECENT_SECOND_FACTOR_MS / MINUTE} minutes (your password is not enough)`,
    );
  }

  /** The person's password, typed to confirm a change: wrong ones count with sign-in's (held back, and the person mailed when the holds begin). */
  private async checkPassword(who: Confirmer, password: string): Promise<void> {
    const user = await this.repositories.users.findById(who.userId);
    if (!user?.password_hash) throw invalid('invalid_password', 'password: the password is wrong');
    const attempt = { email: user.email, address: who.client?.address ?? 'unknown' };
    const waitMs = await this.guesses.passwords.admit(attempt);
    if (waitMs > 0) throw tooMany('too_many_sign_ins', waitMs, ({ seconds }) => `Too many wrong passwords for this account: try again in ${seconds} s`);
    if (await verifyPassword(password, user.password_hash)) return this.guesses.passwords.succeeded(attempt);
    if (await this.guesses.passwords.startedHolding(attempt)) await this.users.warnOfWrongPasswords(user.email, who.client);
    throw invalid('invalid_password', 'password: the password is wrong');
  }

  // ---- Passkeys -------------------------------------------------------------------------------

  /** Options to register a passkey: a person who has a second factor confirms with a current one first. */
  async passkeyRegistrationOptions(who: Confirmer & { email: string }, confirmation: ChangeConfirmation = {}): Promise<PasskeyOptions> {
    await this.requireCurrentFactor(who, confirmation);
    return this.passkeys.registrationOptions({ id: who.userId, email: who.email }, await this.store.listPasskeys(who.userId));
  }

  /** Registers a passkey (the session passed a current factor to get the options); the session counts as having passed it. */
  async registerPasskey(who: Confirmer, name: string | undefined, attestation: AttestationJson): Promise<PasskeyView> {
    await this.requireCurrentFactor(who, {});
    const row = await this.passkeys.register(who.userId, name?.trim() || 'Passkey', attestation);
    await this.store.markSessionVerified(hashKey(who.sessionToken), this.clock.iso(), 'passkey');
    return { id: row.id, name: row.name, createdAt: row.created_at };
  }

  async renamePasskey(userId: string, id: string, name: string): Promise<PasskeyView> {
    const trimmed = name.trim();
    if (trimmed === '') throw invalid('invalid_name', 'a passkey needs a name');
    if (!(await this.store.renamePasskey(userId, id, trimmed))) throw notFound(`you have no passkey ${id}`, 'passkey_not_found');
    const row = (await this.store.findPasskey(id))!;
    return { id: row.id, name: row.name, createdAt: row.created_at, ...(row.last_used_at && { lastUsedAt: row.last_used_at }) };
  }

  /** Removes one of the person's passkeys, with a current factor. */
  async removePasskey(who: Confirmer, id: string, confirmation: ChangeConfirmation = {}): Promise<void> {
    if (!(await this.store.findPasskey(id).then((row) => row?.user_id === who.userId))) throw notFound(`you have no passkey ${id}`, 'passkey_not_found');
    await this.requireCurrentFactor(who, confirmation);
    if (!(await this.store.removePasskey(who.userId, id))) throw notFound(`you have no passkey ${id}`, 'passkey_not_found');
  }

  /**
   * The network removes every second factor of the person with this e-mail, after checking who asks
   * (a lost phone with no recovery code or passkey left): their sessions end, they are mailed, the
   * audit trail keeps the reason. They sign in with the password and set one up again.
   */
  async removeAll(actor: Actor, email: string, reason: string): Promise<{ userId: string; email: string }> {
    const why = reason.trim();
    if (why === '') throw invalid('invalid_reason', 'give a reason: the person is mailed it and the audit trail keeps it');
    if (why.length > 500) throw invalid('invalid_reason', 'the reason has at most 500 characters');
    const user = await this.repositories.users.findByEmail(email.trim().toLowerCase());
    if (!user) throw notFound(`no user has the e-mail ${email}`, 'user_not_found');
    const { totp, passkeys } = await this.store.hasFactor(user.id);
    const mail = mailRow({ to: user.email, template: 'second-factors-removed', locale: mailLanguage(user), values: { email: user.email, reason: why, securityUrl: `${this.settings.publicUrl}/app/security` } });
    const audit = auditEntry(actor, {
      action: 'user.second_factors_removed',
      subject: { kind: 'user', id: user.id },
      members: { affiliateId: user.affiliate_id ?? undefined, brandId: user.brand_id ?? undefined },
      before: { totp, passkeys },
      after: { totp: false, passkeys: 0 },
      reason: why,
    });
    await this.store.removeAll(user.id, this.clock.iso(), [mail], [audit]);
    return { userId: user.id, email: user.email };
  }

  // ---- The team's requirement ---------------------------------------------------------------

  /** Whether a person must enrol a second factor before using anything but their security page. */
  async enrolmentRequired(user: { id: string; affiliateId?: string; brandId?: string }): Promise<boolean> {
    if (!(await factorRequired(this.store, user))) return false;
    const { totp, passkeys } = await this.store.hasFactor(user.id);
    return !totp && passkeys === 0;
  }

  /** An owner requires (or stops requiring) a second factor of every member; they need one themselves first. */
  async setTeamRequirement(owner: UserOwner, ownerId: string, required: boolean): Promise<{ required: boolean }> {
    if (required) {
      const { totp, passkeys } = await this.store.hasFactor(ownerId);
      if (!totp && passkeys === 0) throw conflict('second_factor_missing', 'set up a second factor for yourself first (Security page), or you would be locked out of the portal');
    }
    await this.store.setRequired(accountKey(owner), required, ownerId, this.clock.iso());
    return { required };
  }

  teamRequirement(owner: UserOwner): Promise<boolean> {
    return this.store.isRequired(accountKey(owner));
  }

  // ---- Codes ----------------------------------------------------------------------------------

  /** Checks a current code against the person's app, and uses it up (never twice); pending enrolments count only when `confirmedOnly` is false. */
  private async acceptCode(userId: string, code: string, confirmedOnly: boolean): Promise<boolean> {
    const row = await this.store.findTotp(userId);
    if (!row || (confirmedOnly && !row.confirmed_at)) return false;
    const step = totpStep(await this.decrypt(userId, row.secret), code, this.clock.now());
    if (step === undefined || (row.last_step !== null && step <= row.last_step)) return false;
    return this.store.acceptStep(userId, step, this.clock.iso());
  }

  private async useRecoveryCode(userId: string, code: string): Promise<boolean> {
    const normalized = code.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (normalized.length !== 10) return false;
    return this.store.useRecoveryCode(userId, await this.recoveryHash(userId, normalized), this.clock.iso());
  }

  private async newRecoveryCodes(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const bytes = randomBytes(10);
      const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
      return `${chars.slice(0, 5)}-${chars.slice(5)}`;
    });
    const hashes = await Promise.all(codes.map((c) => this.recoveryHash(userId, c.replace('-', ''))));
    await this.store.replaceRecoveryCodes(userId, hashes, this.clock.iso());
    return codes;
  }

  private async recoveryHash(userId: string, normalized: string): Promise<string> {
    return createHmac('sha256', await this.installationKey()).update(`${userId}:${normalized}`).digest('hex');
  }

  // ---- The secret at rest ---------------------------------------------------------------------

  /** AES-256-GCM (src/lib/sealed-box.ts), bound to the user (a row copied to another user does not decrypt): v1.iv.tag.ciphertext. */
  private async encrypt(userId: string, secret: string): Promise<string> {
    return ['v1', ...seal(await this.installationKey(), secret, userId)].join('.');
  }

  private async decrypt(userId: string, stored: string): Promise<string> {
    const [version, ...parts] = sealedFields(stored, 4) ?? [];
    if (version !== 'v1') throw new Error('unknown second-factor secret format');
    return unseal(await this.installationKey(), parts as SealedParts, userId);
  }
}
