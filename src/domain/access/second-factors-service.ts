// Second factors for the portal's people: an authenticator app (TOTP), ten single-use recovery
// codes that come with it, and passkeys (WebAuthn). Someone who has one signs in in two steps: a
// right password answers a short-lived, single-use ticket (not a session), and the ticket with a
// current code, a recovery code or a passkey opens the session. A passkey also signs in alone,
// without the password. An owner may require a second factor of the whole team: a member without
// one can then only reach their security page until they enrol. Each session remembers when it
// last passed a second factor, for changes that ask for one again (recentlyVerifiedSecondFactor).
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

/** A proof of the person, for disabling a factor or making new recovery codes: a current code or the password. */
export interface Confirmation {
  code?: string;
  password?: string;
}

/** What confirms a sensitive change: the password (nobody's second factor), or a current code of the authenticator app. */
export interface ChangeConfirmation {
  password?: string;
  code?: string;
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
 * Whether a session passed a second factor within `withinMs` (default 10 minutes): what a change of
 * payout details asks of anyone who has enrolled one. `verifiedAt` is what
 * SecondFactorsService.sessionVerifiedAt answers.
 */
export function recentlyVerifiedSecondFactor(verifiedAt: string | undefined, nowMs: number, withinMs = RECENT_SECOND_FACTOR_MS): boolean {
  return verifiedAt !== undefined && nowMs - Date.parse(verifiedAt) <= withinMs;
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
    const methods = await this.methodsOf(user.id);
    if (methods.length === 0) return this.users.openSession(user, client, true);
    const ticket = randomBase62(43);
    const now = this.clock.now();
    const expiresAt = new Date(now + TICKET_LIFETIME_MS).toISOString();
    await this.store.pruneExpired(new Date(now).toISOString());
    await this.store.insertTicket({ token_hash: hashKey(ticket), user_id: user.id, expires_at: expiresAt, created_at: new Date(now).toISOString() });
    return { secondFactor: { required: true, methods, ticket, expiresAt } };
  }

  /** The second step: the ticket with a current code, a recovery code or a passkey opens the session. */
  async completeSignIn(ticket: string, proof: SecondFactorProof, client: Client = {}): Promise<SecondStepResult> {
    const ticketHash = hashKey(ticket);
    const now = this.clock.iso();
    const userId = await this.store.ticketUser(ticketHash, now, TICKET_MAX_FAILURES);
    if (!userId) return { ok: false, reason: 'invalid_ticket' };
    const passed = await this.check(userId, proof, ticketHash);
    if (!passed) {
      await this.store.ticketFailed(ticketHash);
      return { ok: false, reason: 'invalid_code' };
    }
    if (!(await this.store.takeTicket(ticketHash, now))) return { ok: false, reason: 'invalid_ticket' };
    const user = await this.repositories.users.findById(userId);
    if (!user) return { ok: false, reason: 'invalid_ticket' };
    return { ok: true, signedIn: await this.openVerifiedSession(user, client) };
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
    return user?.password_hash ? this.openVerifiedSession(user, client) : undefined;
  }

  /** A session from `client` that passed a second factor; a browser new to the person is mailed to them. */
  private async openVerifiedSession(user: UserRow, client: Client): Promise<SignedIn> {
    const signedIn = await this.users.openSession(user, client, true);
    await this.store.markSessionVerified(hashKey(signedIn.sessionToken), this.clock.iso());
    return signedIn;
  }

  /** Whether the proof is right for the user (a code is used up when it is). */
  private async check(userId: string, proof: SecondFactorProof, ticketHash: string): Promise<boolean> {
    const given = [proof.code, proof.recoveryCode, proof.passkey].filter((p) => p !== undefined).length;
    if (given !== 1) throw invalid('invalid_second_factor', 'send exactly one of code, recoveryCode and passkey');
    if (proof.code !== undefined) return this.acceptCode(userId, proof.code, true);
    if (proof.recoveryCode !== undefined) return this.useRecoveryCode(userId, proof.recoveryCode);
    return (await this.passkeys.verifyAssertion(proof.passkey!, { purpose: 'second_factor', userId, ticketHash })) === userId;
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

  /** Starts enrolling an authenticator app: a new secret (replacing one not confirmed yet), as text and as an otpauth:// URI. */
  async startTotp(user: { id: string; email: string }): Promise<{ secret: string; uri: string }> {
    const existing = await this.store.findTotp(user.id);
    if (existing?.confirmed_at) throw conflict('totp_enabled', 'an authenticator app is set up already: turn it off first to set up another');
    const secret = newTotpSecret();
    await this.store.startTotp(user.id, await this.encrypt(user.id, secret), this.clock.iso());
    return { secret, uri: totpUri(secret, user.email, this.settings.networkName) };
  }

  /**
   * Confirms the enrolment with a current code: from now on the app is asked for at sign-in. The
   * answer is ten recovery codes, shown this once. The session counts as having passed a second factor.
   */
  async confirmTotp(userId: string, code: string, sessionToken: string): Promise<{ recoveryCodes: string[] }> {
    const existing = await this.store.findTotp(userId);
    if (!existing) throw conflict('totp_not_started', 'start setting up the authenticator app first (POST /session/totp)');
    if (existing.confirmed_at) throw conflict('totp_enabled', 'the authenticator app is set up already');
    if (!(await this.acceptCode(userId, code, false))) throw invalid('invalid_code', 'this code is not the current one: check the app shows the code of this account, and that the phone’s clock is right');
    await this.store.markSessionVerified(hashKey(sessionToken), this.clock.iso());
    return { recoveryCodes: await this.newRecoveryCodes(userId) };
  }

  /** Turns the authenticator app off (and its recovery codes), with a current code or the password. */
  async disableTotp(userId: string, confirmation: Confirmation): Promise<void> {
    await this.confirm(userId, confirmation);
    await this.store.removeTotp(userId);
  }

  /** Ten new recovery codes, replacing the old ones (used or not), with a current code or the password. */
  async regenerateRecoveryCodes(userId: string, confirmation: Confirmation): Promise<{ recoveryCodes: string[] }> {
    const { totp } = await this.store.hasFactor(userId);
    if (!totp) throw conflict('totp_not_enabled', 'recovery codes come with an authenticator app: set one up first');
    await this.confirm(userId, confirmation);
    return { recoveryCodes: await this.newRecoveryCodes(userId) };
  }

  /** When the session last passed a second factor; undefined if never. */
  sessionVerifiedAt(sessionToken: string): Promise<string | undefined> {
    return this.store.sessionVerifiedAt(hashKey(sessionToken));
  }

  /** Whether the session passed a second factor within `withinMs` (see recentlyVerifiedSecondFactor). */
  async recentlyVerified(sessionToken: string, withinMs = RECENT_SECOND_FACTOR_MS): Promise<boolean> {
    return recentlyVerifiedSecondFactor(await this.sessionVerifiedAt(sessionToken), this.clock.now(), withinMs);
  }

  /**
   * Confirms a sensitive change (payout details) by the signed-in person, again: someone with a
   * second factor confirms with it (a session that passed it within RECENT_SECOND_FACTOR_MS, or a
   * current code of their app now, which marks the session), someone without one with the password.
   */
  async confirmChange(userId: string, sessionToken: string, confirmation: ChangeConfirmation): Promise<void> {
    const { totp, passkeys } = await this.store.hasFactor(userId);
    if (!totp && passkeys === 0) {
      if (confirmation.password === undefined) throw invalid('password_required', 'password: type your password again to confirm this change');
      const user = await this.repositories.users.findById(userId);
      if (user?.password_hash && (await verifyPassword(confirmation.password, user.password_hash))) return;
      throw invalid('invalid_password', 'password: the password is wrong');
    }
    if (confirmation.code !== undefined && totp) {
      if (!(await this.acceptCode(userId, confirmation.code, true))) throw invalid('invalid_code', 'code: this is not the current code of your authenticator app (each code works once)');
      await this.store.markSessionVerified(hashKey(sessionToken), this.clock.iso());
      return;
    }
    if (await this.recentlyVerified(sessionToken)) return;
    throw invalid(
      'second_factor_needed',
      totp
        ? 'code: you have set up a second factor, so confirm this change with the current code of your authenticator app (your password is not enough)'
        : `you have set up a passkey, so confirm this change with it: sign in again with your passkey, then save within ${RECENT_SECOND_FACTOR_MS / MINUTE} minutes (your password is not enough)`,
    );
  }

  // ---- Passkeys -------------------------------------------------------------------------------

  async passkeyRegistrationOptions(user: { id: string; email: string }): Promise<PasskeyOptions> {
    return this.passkeys.registrationOptions(user, await this.store.listPasskeys(user.id));
  }

  async registerPasskey(userId: string, name: string | undefined, attestation: AttestationJson): Promise<PasskeyView> {
    const row = await this.passkeys.register(userId, name?.trim() || 'Passkey', attestation);
    return { id: row.id, name: row.name, createdAt: row.created_at };
  }

  async renamePasskey(userId: string, id: string, name: string): Promise<PasskeyView> {
    const trimmed = name.trim();
    if (trimmed === '') throw invalid('invalid_name', 'a passkey needs a name');
    if (!(await this.store.renamePasskey(userId, id, trimmed))) throw notFound(`you have no passkey ${id}`, 'passkey_not_found');
    const row = (await this.store.findPasskey(id))!;
    return { id: row.id, name: row.name, createdAt: row.created_at, ...(row.last_used_at && { lastUsedAt: row.last_used_at }) };
  }

  async removePasskey(userId: string, id: string): Promise<void> {
    if (!(await this.store.removePasskey(userId, id))) throw notFound(`you have no passkey ${id}`, 'passkey_not_found');
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

  private async confirm(userId: string, confirmation: Confirmation): Promise<void> {
    if (confirmation.code !== undefined) {
      if (await this.acceptCode(userId, confirmation.code, true)) return;
      throw invalid('invalid_code', 'this code is not the current one of your authenticator app');
    }
    if (confirmation.password !== undefined) {
      const user = await this.repositories.users.findById(userId);
      if (user?.password_hash && (await verifyPassword(confirmation.password, user.password_hash))) return;
      throw invalid('invalid_password', 'the password is wrong');
    }
    throw invalid('confirmation_required', 'send a current code of your authenticator app, or your password');
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
