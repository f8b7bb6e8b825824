// People who use the portal: each belongs to one affiliate or one brand, as owner or member. An
// operator (CLI) or an owner (portal) creates a user and hands over a one-time link where the user
// sets a password; signing in opens a server-side session, which ends after a period without
// use, at sign-out, or when its user's password changes or the user is removed.
import { ownersOf } from './owners.js';
import type { UserOwner, UsersRepository } from '../../storage/repositories/users.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { MailRepository } from '../../storage/repositories/mail.js';
import type { NewMailMessage, UserRow } from '../../storage/tables.js';
import { mailRow } from '../mail/mail-queue.js';
import type { Clock } from '../../lib/clock.js';
import { hashPassword, unmatchableHash, verifyPassword } from '../../lib/passwords.js';
import { agentFacts } from '../../lib/user-agents.js';
import { conflict, invalid, notFound } from '../errors.js';
import { randomBase62 } from '../random.js';
import { hashKey } from './access-service.js';
import { requireAffiliate, requireBrand } from './require.js';
import { emailAddressOf } from './email-address.js';
import { checkNewPassword } from './password-policy.js';
import type { SecondFactorMethod } from './second-factors-service.js';
import { ACCOUNT_SCOPES, AFFILIATE_SCOPES, BRAND_SCOPES, OPERATOR_SCOPES, PAYEE_SCOPES, type Scope } from './scopes.js';

/** A member account's people are owners or members; operators belong to the network itself. */
export type Role = 'owner' | 'member';
export const ROLES: readonly Role[] = ['owner', 'member'];
export type UserRole = Role | 'operator';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How long a link stays usable: a sign-up link a week (it may wait in an inbox), a reset an hour. */
const LINK_LIFETIME = { sign_up: 7 * DAY, reset: 60 * MINUTE } as const;
/** A session's last use is written at most this often (not on every request). */
const TOUCH_EVERY_MS = MINUTE;
/** A person who never set a password gets a sign-up link (a week), one who did a reset link (an hour). */
const linkPurpose = (user: UserRow): 'sign_up' | 'reset' => (user.password_hash ? 'reset' : 'sign_up');

export interface UserView {
  id: string;
  email: string;
  role: UserRole;
  affiliateId?: string;
  brandId?: string;
  /** False until the user has set a password with their link. */
  active: boolean;
  /** Their language, once known: the portal's and their mail's. */
  language?: Language;
  createdAt: string;
}

export const LANGUAGES = ['en', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (value: string | null): value is Language => (LANGUAGES as readonly (string | null)[]).includes(value);

export interface SignedIn {
  user: UserView;
  /** The cookie's value: shown once, stored only as a hash. */
  sessionToken: string;
  csrfToken: string;
  /** The browser's known-device token (its long-lived cookie): the one it sent, or a new one. */
  deviceToken: string;
}

/** Where a sign-in comes from. */
export interface Client {
  /** The client address (absent: a command or test, not a browser). */
  address?: string | undefined;
  userAgent?: string | undefined;
  /** The known-device token the browser sent, if any. */
  deviceToken?: string | undefined;
}

/** One of a person's open sessions, as they see it. */
export interface SessionView {
  id: string;
  /** Browser and system, e.g. "Firefox on Linux". */
  device: string;
  /** ISO 3166 alpha-2 of the address it was opened from; ZZ when unknown. */
  country: string;
  /** The address it was opened from, while it is kept (SESSION_ADDRESS_DAYS). */
  address?: string;
  createdAt: string;
  lastSeenAt: string;
  /** True for the session making the request. */
  current: boolean;
}

export interface ActiveSession {
  /** The session's id (ses_…), what the person names it by. */
  id: string;
  user: UserView;
  csrfToken: string;
  /** When the session ends unless used again. */
  expiresAt: string;
  /** What the session may do, from the user's side and role. */
  scopes: ReadonlySet<Scope>;
  /** Set while the network has suspended the user's affiliate or brand: the API refuses the session (403 account_suspended). */
  accountSuspendedAt?: string;
  /**
   * The person has a second factor and this session did not pass it (opened by a password alone,
   * or before they set the factor up): every route refuses it (401 second_factor_pending).
   */
  secondFactorPending: boolean;
  /** When and how the session last passed a second factor; absent if never. */
  secondFactorPassed?: { at: string; method: SecondFactorMethod | null };
}

export interface UsersRepositories {
  users: UsersRepository;
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  mail: MailRepository;
}

const viewOf = (row: UserRow): UserView => ({
  id: row.id,
  email: row.email,
  role: row.role,
  ...(row.affiliate_id ? { affiliateId: row.affiliate_id } : {}),
  ...(row.brand_id ? { brandId: row.brand_id } : {}),
  active: row.password_hash !== null,
  ...(isLanguage(row.language) ? { language: row.language } : {}),
  createdAt: row.created_at,
});

/** The language to write to a person in: theirs once known, else English. */
export const mailLanguage = (row: Pick<UserRow, 'language'>): Language => (isLanguage(row.language) ? row.language : 'en');

/** What a user may do: everything of their side; owners also manage the team and API keys, and an affiliate's owners its payee details; operators run the network. */
export function scopesOf(user: Pick<UserRow, 'affiliate_id' | 'role'>): ReadonlySet<Scope> {
  if (user.role === 'operator') return new Set<Scope>(OPERATOR_SCOPES);
  const side: readonly Scope[] = user.affiliate_id ? AFFILIATE_SCOPES : BRAND_SCOPES;
  const owner = user.role === 'owner' ? [...ACCOUNT_SCOPES, ...(user.affiliate_id ? PAYEE_SCOPES : [])] : (['team:read'] as const);
  return new Set<Scope>([...side, ...owner]);
}

/** Browser and system of a user agent, in a few words. */
export function describeDevice(userAgent: string | undefined): string {
  const { browser, os, device } = agentFacts(userAgent);
  if (browser === 'Other' && os === 'Other') return 'Unknown device';
  const kind = device === 'mobile' || device === 'tablet' ? ` (${device})` : '';
  return `${browser} on ${os}${kind}`.slice(0, 100);
}

const DEVICE_TOKEN = /^[0-9A-Za-z]{43}$/;

export class UsersService {
  constructor(
    private readonly repositories: UsersRepositories,
    private readonly clock: Clock,
    private readonly settings: { publicUrl: string; sessionIdleMs: number; sessionAddressDays?: number; countryOf?: (address: string) => string; passwordHashCost?: number },
  ) {}

  /**
   * A new user of an affiliate or a brand, and the one-time link where they set their password;
   * they are also mailed an invitation with a link of its own (made when the message is sent), in
   * `locale` (the inviting owner's language; their own is not known yet).
   */
  async create(owner: UserOwner, email: string, role: Role = 'member', locale: Language = 'en'): Promise<{ user: UserView; link: string }> {
    const account = owner.affiliateId ? await this.repositories.affiliates.nameOf(owner.affiliateId) : (await this.repositories.brands.find(owner.brandId ?? ''))?.name;
    const row = await this.insertUser(owner, email, role, null, (id, address) => [
      mailRow({ to: address, template: 'invitation', locale, values: { ...(account && { account }) }, link: { userId: id } }),
    ]);
    return { user: viewOf(row), link: await this.newLink(row.id, 'sign_up') };
  }

  /** A user who signs in with `password` at once, without a link (the demo's users); undefined when the e-mail has a user already. */
  async createWithPassword(owner: UserOwner, email: string, role: Role, password: string): Promise<UserView | undefined> {
    checkNewPassword(password);
    if (await this.repositories.users.findByEmail(email.trim().toLowerCase())) return undefined;
    return viewOf(await this.insertUser(owner, email, role, await hashPassword(password, this.settings.passwordHashCost)));
  }

  /**
   * A new operator of the network, and the one-time link where they set their password (they are
   * mailed an invitation too). An operator enrols a second factor before anything else.
   */
  async createOperator(email: string, locale: Language = 'en'): Promise<{ user: UserView; link: string }> {
    const row = await this.insertUser({}, email, 'operator', null, (id, address) => [mailRow({ to: address, template: 'operator-invitation', locale, values: {}, link: { userId: id } })]);
    return { user: viewOf(row), link: await this.newLink(row.id, 'sign_up') };
  }

  /** An operator who signs in at once with a password (the demo's); undefined when the e-mail has a user already. */
  async createOperatorWithPassword(email: string, password: string): Promise<UserView | undefined> {
    checkNewPassword(password);
    if (await this.repositories.users.findByEmail(email.trim().toLowerCase())) return undefined;
    return viewOf(await this.insertUser({}, email, 'operator', await hashPassword(password, this.settings.passwordHashCost)));
  }

  private async insertUser(owner: UserOwner, email: string, role: UserRole, passwordHash: string | null, mail: (id: string, address: string) => NewMailMessage[] = () => []): Promise<UserRow> {
    if (role === 'operator') {
      if (owner.affiliateId || owner.brandId) throw invalid('invalid_owner', 'an operator belongs to the network, not to an affiliate or a brand');
    } else {
      if (Boolean(owner.affiliateId) === Boolean(owner.brandId)) throw invalid('invalid_owner', 'a user belongs to exactly one affiliate or one brand');
      if (owner.affiliateId) await requireAffiliate(this.repositories.affiliates, owner.affiliateId);
      else await requireBrand(this.repositories.brands, owner.brandId!);
      if (!ROLES.includes(role)) throw invalid('invalid_role', `role must be one of ${ROLES.join(', ')}`);
    }
    const address = emailAddressOf(email);
    if (await this.repositories.users.findByEmail(address)) throw conflict('email_taken', `a user with the e-mail ${address} exists already`);
    const now = this.clock.iso();
    const row: UserRow = { id: `usr_${randomBase62(16)}`, email: address, affiliate_id: owner.affiliateId ?? null, brand_id: owner.brandId ?? null, role, password_hash: passwordHash, language: null, created_at: now, updated_at: now };
    await this.repositories.users.insert(row, mail(row.id, row.email));
    return row;
  }

  /** A one-time link to set a new password (the old one keeps working until then); the user is mailed one of their own. */
  async resetLink(email: string): Promise<string> {
    const user = await this.repositories.users.findByEmail(email.trim().toLowerCase());
    if (!user) throw notFound(`no user has the e-mail ${email}`, 'user_not_found');
    return this.passwordLink(user);
  }

  /**
   * Sets the password through a one-time link and signs in; every other session of the user ends.
   * The session passes no second factor: for a person who has one it is refused everywhere (the
   * portal's route goes through SecondFactorsService.setPassword, which asks for the factor).
   */
  async setPassword(token: string, password: string, client: Client = {}): Promise<SignedIn> {
    // Setting a password is not announced: the person is at the link's device, and said so.
    return this.openSession(await this.usePasswordLink(token, password), client, false);
  }

  /** Sets the password through a one-time link, ending every session of the user; the user, who is not signed in by it. */
  async usePasswordLink(token: string, password: string): Promise<UserRow> {
    checkNewPassword(password);
    const now = this.clock.iso();
    const taken = await this.repositories.users.takeLink(hashKey(token), now);
    if (!taken) throw invalid('invalid_link', 'this link is unknown, was used already or has expired: ask for a new one');
    const passwordHash = await hashPassword(password, this.settings.passwordHashCost);
    await this.repositories.users.setPassword(taken.user.id, passwordHash, now);
    await this.repositories.users.revokeSessionsOf(taken.user.id, now);
    return { ...taken.user, password_hash: passwordHash };
  }

  /**
   * Tells the person with this e-mail (if any) that wrong passwords were typed for their account, from
   * `client`: at sign-in, or confirming a change in one of their sessions.
   */
  async warnOfWrongPasswords(email: string, client: Client = {}): Promise<void> {
    const user = await this.repositories.users.findByEmail(email.trim().toLowerCase());
    if (!user) return;
    const values = { email: user.email, when: this.clock.iso(), device: describeDevice(client.userAgent), country: (client.address && this.settings.countryOf?.(client.address)) || 'ZZ', securityUrl: `${this.settings.publicUrl}/app/security` };
    await this.repositories.mail.queue([mailRow({ to: user.email, template: 'wrong-passwords', locale: mailLanguage(user), values })], this.clock.iso());
  }

  /**
   * Signs in with the password alone, asking no second factor (tools and tests; the portal's sign-in
   * goes through SecondFactorsService.signIn): for a person who has one, the session is refused
   * everywhere. A sign-in from a browser the person has not used
   * before is mailed to them, unless it is their first. Undefined when the e-mail or the password is wrong.
   */
  async signIn(email: string, password: string, client: Client = {}): Promise<SignedIn | undefined> {
    const user = await this.checkCredentials(email, password);
    return user ? this.openSession(user, client, true) : undefined;
  }

  /** The user an e-mail and password name, without signing in; undefined when either is wrong. */
  async checkCredentials(email: string, password: string): Promise<UserRow | undefined> {
    const user = await this.repositories.users.findByEmail(email.trim().toLowerCase());
    // The same work whether the user exists or not, so timing tells nothing either.
    const ok = await verifyPassword(password, user?.password_hash ?? unmatchableHash(this.settings.passwordHashCost));
    return user?.password_hash && ok ? user : undefined;
  }

  /** The hash of the browser's device token when the browser signed in to the account with this e-mail before; else undefined. */
  async knownDeviceOf(email: string, deviceToken: string | undefined): Promise<string | undefined> {
    if (!deviceToken || !DEVICE_TOKEN.test(deviceToken)) return undefined;
    const deviceHash = hashKey(deviceToken);
    return (await this.repositories.users.knowsDeviceOf(email.trim().toLowerCase(), deviceHash)) ? deviceHash : undefined;
  }

  /** The person's open sessions, the most recently used first. */
  async sessionsOf(session: Pick<ActiveSession, 'id' | 'user'>): Promise<SessionView[]> {
    const rows = await this.repositories.users.listSessions(session.user.id, new Date(this.clock.now() - this.settings.sessionIdleMs).toISOString());
    return rows.map((row) => ({
      id: row.id ?? '',
      device: row.device ?? 'Unknown device',
      country: row.country ?? 'ZZ',
      ...(row.address ? { address: row.address } : {}),
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      current: row.id === session.id,
    }));
  }

  /** Ends one of the person's own sessions (404 for any other id); its device is forgotten unless it is this one. */
  async signOutSession(session: Pick<ActiveSession, 'user'>, id: string, deviceToken: string | undefined): Promise<void> {
    const kept = deviceToken && DEVICE_TOKEN.test(deviceToken) ? hashKey(deviceToken) : null;
    if (!(await this.repositories.users.revokeSessionById(session.user.id, id, kept, this.clock.iso()))) throw notFound(`you have no open session ${id}`, 'session_not_found');
  }

  /** Ends every session of the person but this one, forgetting their devices; how many ended. */
  signOutOthers(session: Pick<ActiveSession, 'user'>, sessionToken: string, deviceToken: string | undefined): Promise<number> {
    const kept = deviceToken && DEVICE_TOKEN.test(deviceToken) ? hashKey(deviceToken) : null;
    return this.repositories.users.revokeOtherSessions(session.user.id, hashKey(sessionToken), kept, this.clock.iso());
  }

  /** Blanks the client addresses of sessions opened more than SESSION_ADDRESS_DAYS ago; how many (a scheduled task). */
  forgetOldAddresses(): Promise<number> {
    const days = this.settings.sessionAddressDays ?? 30;
    return this.repositories.users.forgetAddresses(new Date(this.clock.now() - days * DAY).toISOString());
  }

  /** The session a cookie names, while it lasts; its last use moves forward. */
  async resolveSession(sessionToken: string): Promise<ActiveSession | undefined> {
    if (sessionToken.length > 100) return undefined;
    const tokenHash = hashKey(sessionToken);
    const found = await this.repositories.users.findSession(tokenHash);
    if (!found) return undefined;
    const now = this.clock.now();
    let seen = Date.parse(found.session.last_seen_at);
    if (now - seen >= this.settings.sessionIdleMs) return undefined;
    if (now - seen >= TOUCH_EVERY_MS) {
      await this.repositories.users.touchSession(tokenHash, new Date(now).toISOString());
      seen = now;
    }
    return {
      id: found.session.id ?? '',
      user: viewOf(found.user),
      csrfToken: found.session.csrf_token,
      expiresAt: new Date(seen + this.settings.sessionIdleMs).toISOString(),
      scopes: scopesOf(found.user),
      ...(found.suspendedAt !== null && { accountSuspendedAt: found.suspendedAt }),
      secondFactorPending: found.hasFactor && found.factorPassed === undefined,
      ...(found.factorPassed && { secondFactorPassed: { at: found.factorPassed.at, method: found.factorPassed.method as SecondFactorMethod | null } }),
    };
  }

  async signOut(sessionToken: string): Promise<void> {
    await this.repositories.users.revokeSession(hashKey(sessionToken), this.clock.iso());
  }

  team(owner: UserOwner): Promise<UserView[]> {
    return this.repositories.users.listOf(owner).then((rows) => rows.map(viewOf));
  }

  /** A new password link for a user of the team. */
  async teamResetLink(owner: UserOwner, userId: string): Promise<string> {
    return this.passwordLink(await this.memberOf(owner, userId));
  }

  /** A link to set a password for `user`, and the same mailed to them (with a link of its own). */
  private async passwordLink(user: UserRow): Promise<string> {
    await this.repositories.mail.queue([this.passwordLinkMail(user)], this.clock.iso());
    return this.newLink(user.id, linkPurpose(user));
  }

  private passwordLinkMail(user: UserRow): NewMailMessage {
    return mailRow({ to: user.email, template: 'password-link', locale: mailLanguage(user), values: { email: user.email }, link: { userId: user.id } });
  }

  /**
   * "Forgot your password?": mails the person with this address a link to set a new password. The
   * caller learns nothing of whether the address has an account: the answer is the same.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const address = email.trim().toLowerCase();
    // The same work whether or not the address has an account (a lookup, a row queued), so neither
    // the answer nor its time tells who is a member; the person is found again when it is sent.
    const user = await this.repositories.users.findByEmail(address);
    const mail = mailRow({ to: address, template: 'password-link', locale: user ? mailLanguage(user) : 'en', values: { email: address }, link: {} });
    await this.repositories.mail.queue([mail], this.clock.iso());
  }

  /** Sets the signed-in person's language (the portal's and their mail's). */
  async setLanguage(userId: string, language: string): Promise<UserView> {
    if (!isLanguage(language)) throw invalid('invalid_language', `language must be one of ${LANGUAGES.join(', ')}`);
    await this.repositories.users.setLanguage(userId, language, this.clock.iso());
    const row = await this.repositories.users.findById(userId);
    if (!row) throw notFound('this user no longer exists', 'user_not_found');
    return viewOf(row);
  }

  /** The language a person is written to in. */
  async languageOf(userId: string): Promise<Language> {
    const row = await this.repositories.users.findById(userId);
    return row ? mailLanguage(row) : 'en';
  }

  /**
   * A one-time link made as a message is sent, for the user with this id (or this address); its
   * kind follows the person as they are then (a week for someone who never set a password, else an
   * hour). Undefined when there is nobody.
   */
  async issueLink(target: { id: string | null; email: string }): Promise<string | undefined> {
    const user = target.id ? await this.repositories.users.findById(target.id) : await this.repositories.users.findByEmail(target.email);
    return user ? this.newLink(user.id, linkPurpose(user)) : undefined;
  }

  /** Removes a user of the team (their sessions end with them); the last owner stays. */
  async remove(owner: UserOwner, userId: string, by: string): Promise<void> {
    const user = await this.memberOf(owner, userId);
    if (user.id === by) throw conflict('cannot_remove_self', 'you cannot remove yourself: another owner can');
    if (user.role === 'owner' && (await ownersOf(this.repositories.users, owner)).length === 1) {
      throw conflict('last_owner', 'the last owner cannot be removed');
    }
    await this.repositories.users.remove(user.id);
  }

  private async memberOf(owner: UserOwner, userId: string): Promise<UserRow> {
    const user = await this.repositories.users.findOf(owner, userId);
    if (!user) throw notFound(`no user ${userId} in your team`, 'user_not_found');
    return user;
  }

  private async newLink(userId: string, purpose: 'sign_up' | 'reset'): Promise<string> {
    const token = randomBase62(40);
    const now = this.clock.now();
    await this.repositories.users.insertLink({ token_hash: hashKey(token), user_id: userId, purpose, expires_at: new Date(now + LINK_LIFETIME[purpose]).toISOString(), created_at: new Date(now).toISOString() });
    return `${this.settings.publicUrl}/app/set-password?token=${token}`;
  }

  /**
   * Opens a session for `user`, who has proved who they are (a password, with a second factor when
   * they have one), from `client`; with `announce`, a browser new to the person is told to them by
   * mail (in the same transaction), unless this is the first time they sign in at all.
   */
  async openSession(user: UserRow, client: Client = {}, announce = false): Promise<SignedIn> {
    const sessionToken = randomBase62(43);
    const csrfToken = randomBase62(32);
    const deviceToken = client.deviceToken && DEVICE_TOKEN.test(client.deviceToken) ? client.deviceToken : randomBase62(43);
    const deviceHash = hashKey(deviceToken);
    const now = this.clock.iso();
    const device = describeDevice(client.userAgent);
    const country = (client.address && this.settings.countryOf?.(client.address)) || 'ZZ';
    const { users } = this.repositories;
    const newDevice = announce && (await users.hasSessions(user.id)) && !(await users.knowsDevice(user.id, deviceHash));
    const mail = newDevice
      ? [mailRow({ to: user.email, template: 'new-device', locale: mailLanguage(user), values: { email: user.email, when: now, device, country, securityUrl: `${this.settings.publicUrl}/app/security` } })]
      : [];
    await users.insertSession(
      { token_hash: hashKey(sessionToken), id: `ses_${randomBase62(16)}`, user_id: user.id, csrf_token: csrfToken, created_at: now, last_seen_at: now, device, country, address: client.address || null, device_hash: deviceHash },
      mail,
    );
    return { user: viewOf(user), sessionToken, csrfToken, deviceToken };
  }
}
