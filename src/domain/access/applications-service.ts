// People join by themselves: an affiliate signs up, a brand applies. Either way the address is
// confirmed first (a one-time link, 24 hours), then an operator approves or declines (affiliates
// may be approved at once by configuration). Approval makes the affiliate (with its owner and a
// first channel from the site given) or the brand (with its owner, hidden and refusing links
// until the owner launches it). Nothing answered here tells whether an address has an account.
import type { Clock } from '../../lib/clock.js';
import { hashPassword } from '../../lib/passwords.js';
import { foldText } from '../../lib/text-keys.js';
import type { ProfileKind } from '../../lib/profile-addresses.js';
import { isUniqueViolation } from '../../lib/unique-violation.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { ApplicationKind, ApplicationsRepository, ApplicationStatus, Approval } from '../../storage/repositories/applications.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { ApplicationRow, UserRow } from '../../storage/tables.js';
import { CURRENCY_CODES } from '../../schemas/common.js';
import { conflict, DomainError, invalid, notFound } from '../errors.js';
import { mailRow } from '../mail/mail-queue.js';
import { newId, randomBase62 } from '../random.js';
import { hashKey } from './access-service.js';
import { CHANNEL_KINDS, CHANNEL_NAME_MAX } from './channels-service.js';
import { checkEmailAddress, checkCountry, checkTaxId, checkWebsite, channelKindOf, slugOf } from './application-checks.js';
import { checkNewPassword } from './password-policy.js';
import { isLanguage, LANGUAGES } from './users-service.js';
import { actorName, auditEntry, NETWORK, type Actor } from '../audit/audit-entry.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';

const DAY = 86_400_000;
/** How long a verification link works. */
const VERIFY_LIFETIME_MS = DAY;

interface Joining {
  email: string;
  /** The person's name (a brand's contact). */
  name: string;
  language: string;
  website: string;
  country: string;
  acceptTerms: boolean;
  /** A field people never see on the page: only robots fill it in. */
  nickname?: string;
}

export interface SignUpInput extends Joining {
  password: string;
  /** The network `website` is a profile on, or site: needed for a bare @handle. */
  channelKind?: ProfileKind | undefined;
}

export interface BrandApplicationInput extends Joining {
  company: string;
  taxId: string;
  currency: string;
  expectedMonthlyOrders: number;
}

/** An application as the operator sees it (never the chosen password, never a token). */
export interface ApplicationView {
  id: string;
  kind: ApplicationKind;
  status: ApplicationStatus;
  email: string;
  name: string;
  language: string;
  country?: string;
  website: string;
  company?: string;
  taxId?: string;
  currency?: string;
  expectedMonthlyOrders?: number;
  terms: { version: string; acceptedAt: string; address: string };
  verifiedAt?: string;
  decidedAt?: string;
  decidedBy?: string;
  declineReason?: string;
  affiliateId?: string;
  brandId?: string;
  createdAt: string;
}

export interface ApplicationsRepositories {
  applications: ApplicationsRepository;
  users: UsersRepository;
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
}

export interface ApplicationSettings {
  publicUrl: string;
  /** Affiliates are approved as soon as their address is confirmed. */
  autoApprove: boolean;
  termsVersion: string;
  /** scrypt's cost for the password of a sign-up (PASSWORD_HASH_COST). */
  passwordHashCost?: number;
}

const viewOf = (row: ApplicationRow): ApplicationView => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  email: row.email,
  name: row.name,
  language: row.language,
  ...(row.country && { country: row.country }),
  website: row.website,
  ...(row.company && { company: row.company }),
  ...(row.tax_id && { taxId: row.tax_id }),
  ...(row.currency && { currency: row.currency }),
  ...(row.expected_monthly_orders !== null && { expectedMonthlyOrders: row.expected_monthly_orders }),
  terms: { version: row.terms_version, acceptedAt: row.terms_accepted_at, address: row.terms_address },
  ...(row.verified_at && { verifiedAt: row.verified_at }),
  ...(row.decided_at && { decidedAt: row.decided_at }),
  ...(row.decided_by && { decidedBy: row.decided_by }),
  ...(row.decline_reason && { declineReason: row.decline_reason }),
  ...(row.affiliate_id && { affiliateId: row.affiliate_id }),
  ...(row.brand_id && { brandId: row.brand_id }),
  createdAt: row.created_at,
});

/** "We received your application": once its address is confirmed, and again to a second sign-up while it waits. */
const receivedMail = (row: ApplicationRow) => mailRow({ to: row.email, template: 'application-received', locale: row.language, values: { name: row.name, ...accountOf(row) } });

/** `base`, or `base-2`, `base-3`… whichever is not `taken`. */
async function firstFree(base: string, taken: (candidate: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/** The name mail calls the application by: the company for a brand. */
const accountOf = (row: Pick<ApplicationRow, 'company'>) => (row.company ? { account: row.company } : {});

export class ApplicationsService {
  constructor(
    private readonly repositories: ApplicationsRepositories,
    private readonly clock: Clock,
    private readonly settings: ApplicationSettings,
  ) {}

  /** An affiliate's sign-up, from `address` (the client's): a verification link is mailed. */
  async signUp(input: SignUpInput, address: string): Promise<void> {
    checkNewPassword(input.password);
    const row = await this.newApplication('affiliate', input, address, checkWebsite(input.website, input.channelKind).url);
    await this.submit({ ...row, password_hash: await hashPassword(input.password, this.settings.passwordHashCost) });
  }

  /** A brand's application, from `address`: a verification link is mailed to its contact. */
  async apply(input: BrandApplicationInput, address: string): Promise<void> {
    const company = input.company.trim();
    if (company === '') throw invalid('invalid_company', 'company must not be blank');
    if (!CURRENCY_CODES.includes(input.currency)) throw invalid('invalid_currency', `currency "${input.currency}" is not an ISO 4217 currency code (e.g. BRL, EUR, USD)`);
    const row = await this.newApplication('brand', input, address, checkWebsite(input.website).url);
    await this.submit({ ...row, company, tax_id: checkTaxId(input.taxId, row.country ?? ''), currency: input.currency, expected_monthly_orders: input.expectedMonthlyOrders });
  }

  /** The application's row, `website` checked by the caller (how depends on the kind). */
  private async newApplication(kind: ApplicationKind, input: Joining, address: string, website: string): Promise<ApplicationRow> {
    if (input.nickname) throw invalid('invalid_request', 'leave nickname empty: it is there to catch robots, and people never see it');
    if (input.acceptTerms !== true) throw invalid('terms_not_accepted', "accept the network's terms to join (acceptTerms: true)");
    if (!isLanguage(input.language)) throw invalid('invalid_language', `language must be one of ${LANGUAGES.join(', ')}`);
    const name = input.name.trim();
    if (name === '') throw invalid('invalid_name', 'name must not be blank');
    const now = this.clock.iso();
    return {
      id: `apl_${randomBase62(16)}`,
      kind,
      status: 'unverified',
      email: await checkEmailAddress(input.email),
      name,
      language: input.language,
      country: checkCountry(input.country),
      website,
      company: null,
      tax_id: null,
      currency: null,
      expected_monthly_orders: null,
      password_hash: null,
      terms_version: this.settings.termsVersion,
      terms_accepted_at: now,
      terms_address: address,
      verify_token_hash: null,
      verify_expires_at: null,
      verified_at: null,
      decided_at: null,
      decided_by: null,
      decline_reason: null,
      affiliate_id: null,
      brand_id: null,
      created_at: now,
      updated_at: now,
    };
  }

  /**
   * Stores the application and mails its verification link; the answer and the work are the same
   * when the address has an account already (its owner is told instead) or an application waiting
   * for a decision (its sender is reminded), so nobody learns who is a member.
   */
  private async submit(row: ApplicationRow): Promise<void> {
    const values = { name: row.name, kind: row.kind, ...accountOf(row) };
    const member = await this.repositories.users.findByEmail(row.email);
    if (member) {
      const mail = mailRow({ to: member.email, template: 'already-member', locale: member.language ?? row.language, values: { email: member.email, url: `${this.settings.publicUrl}/app/` } });
      return this.repositories.applications.queueMail([mail], row.created_at);
    }
    const open = await this.repositories.applications.findOpen(row.email, row.kind);
    if (open?.status === 'pending') {
      return this.repositories.applications.queueMail([receivedMail(open)], row.created_at);
    }
    await this.repositories.applications.submit(row, [mailRow({ to: row.email, template: 'verify-address', locale: row.language, values, link: { applicationId: row.id } })]);
  }

  /**
   * The verification link of an unverified application, made as its mail is sent (the previous
   * one stops working); undefined once it is verified or gone.
   */
  async issueVerifyLink(applicationId: string): Promise<string | undefined> {
    const token = randomBase62(40);
    const now = this.clock.now();
    const stored = await this.repositories.applications.setVerifyToken(applicationId, hashKey(token), new Date(now + VERIFY_LIFETIME_MS).toISOString(), new Date(now).toISOString());
    return stored ? `${this.settings.publicUrl}/app/verify?token=${token}` : undefined;
  }

  /** Confirms an address through its link: the application waits for the operator (or is approved at once). */
  async verify(token: string): Promise<ApplicationView> {
    const now = this.clock.iso();
    const approveAtOnce = (row: ApplicationRow) => row.kind === 'affiliate' && this.settings.autoApprove;
    const row = await this.repositories.applications.verify(hashKey(token), now, (r) =>
      approveAtOnce(r) ? [] : [receivedMail(r)],
    );
    if (!row) throw invalid('invalid_link', 'this link is unknown, was used already or has expired: sign up again for a new one');
    return approveAtOnce(row) ? this.approve(row.id, NETWORK) : viewOf(row);
  }

  async list(filters: { status?: ApplicationStatus; kind?: ApplicationKind }, limit = 100): Promise<ApplicationView[]> {
    return (await this.repositories.applications.list(filters, limit)).map(viewOf);
  }

  /** The operators' list, a page at a time: pending ones the oldest waiting first, the others the newest first. */
  async search(filters: { status?: ApplicationStatus | undefined; kind?: ApplicationKind | undefined }, page: PageRequest): Promise<Paged<ApplicationView>> {
    const { rows, total } = await this.repositories.applications.page(filters, offsetOf(page));
    return { items: rows.map(viewOf), total };
  }

  async get(id: string): Promise<ApplicationView> {
    return viewOf(await this.pending(id, false));
  }

  /** Approves a pending application: the affiliate or brand and its owner exist from now on, and the person is mailed. */
  async approve(id: string, actor: Actor): Promise<ApplicationView> {
    const row = await this.pending(id);
    if (await this.repositories.users.findByEmail(row.email)) {
      throw conflict('email_taken', `${row.email} has an account already (made since the application): decline it, saying they can sign in`);
    }
    const now = this.clock.iso();
    const approval = row.kind === 'affiliate' ? await this.affiliateOf(row, now) : await this.brandOf(row, now);
    const mail = mailRow({
      to: row.email,
      template: 'application-approved',
      locale: row.language,
      values: { name: row.name, kind: row.kind, ...accountOf(row), ...(row.kind === 'affiliate' && { url: `${this.settings.publicUrl}/app/` }) },
      // A brand's owner has no password yet: the mail carries the link to set one.
      ...(row.kind === 'brand' && { link: { userId: approval.owner.id } }),
    });
    try {
      const audit = auditEntry(actor, { action: 'application.approved', subject: { kind: 'application', id: row.id }, members: approval.affiliate ? { affiliateId: approval.affiliate.id } : { brandId: approval.brand?.id }, before: { status: row.status }, after: { status: 'approved' } });
      if (!(await this.repositories.applications.approve(row.id, approval, actorName(actor), { mail: [mail], audit: [audit] }, now))) throw this.decided(row.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('application_conflict', `approving ${row.id} collided with an account made at the same moment: try again`);
      throw error;
    }
    return this.get(row.id);
  }

  /** Declines a pending application, mailing the person the reason. */
  async decline(id: string, reason: string, actor: Actor): Promise<ApplicationView> {
    const why = reason.trim();
    if (why === '' || why.length > 1000) throw invalid('invalid_reason', 'give the reason (1-1000 characters): the person reads it');
    const row = await this.pending(id);
    const mail = mailRow({ to: row.email, template: 'application-declined', locale: row.language, values: { name: row.name, reason: why, ...accountOf(row) } });
    const audit = auditEntry(actor, { action: 'application.declined', subject: { kind: 'application', id: row.id }, before: { status: row.status }, after: { status: 'declined' }, reason: why });
    if (!(await this.repositories.applications.decline(row.id, why, actorName(actor), { mail: [mail], audit: [audit] }, this.clock.iso()))) throw this.decided(row.id);
    return this.get(row.id);
  }

  /** Approves or declines (with its reason) one application. */
  decide(id: string, decision: { status: 'approved' | 'declined'; reason?: string | undefined }, actor: Actor): Promise<ApplicationView> {
    return decision.status === 'approved' ? this.approve(id, actor) : this.decline(id, decision.reason ?? '', actor);
  }

  /**
   * The same decision on several applications, one after another: each is decided or says why not
   * (as deciding it alone would), and one refusal does not stop the others. A decline without a
   * reason is refused for all before any is decided.
   */
  async decideMany(ids: readonly string[], decision: { status: 'approved' | 'declined'; reason?: string | undefined }, actor: Actor): Promise<Array<{ id: string; view?: ApplicationView; refusal?: DomainError }>> {
    if (decision.status === 'declined' && !decision.reason?.trim()) throw invalid('invalid_reason', 'give the reason (1-1000 characters): each applicant reads it');
    const outcomes: Array<{ id: string; view?: ApplicationView; refusal?: DomainError }> = [];
    for (const id of ids) {
      try {
        outcomes.push({ id, view: await this.decide(id, decision, actor) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcomes.push({ id, refusal: error });
      }
    }
    return outcomes;
  }

  private async pending(id: string, mustBePending = true): Promise<ApplicationRow> {
    const row = await this.repositories.applications.find(id);
    if (!row) throw notFound(`no application ${id}`, 'application_not_found');
    if (mustBePending && row.status !== 'pending') {
      throw row.status === 'unverified' ? conflict('application_unverified', `${id} waits for its address to be confirmed: it cannot be decided yet`) : this.decided(id);
    }
    return row;
  }

  private decided(id: string) {
    return conflict('application_decided', `${id} was decided already`);
  }

  private owner(row: ApplicationRow, side: { affiliate_id: string | null; brand_id: string | null }, now: string): UserRow {
    return { id: `usr_${randomBase62(16)}`, email: row.email, ...side, role: 'owner', password_hash: row.password_hash, language: row.language, created_at: now, updated_at: now };
  }

  private async affiliateOf(row: ApplicationRow, now: string): Promise<Approval> {
    const id = await firstFree(slugOf(row.name, 'affiliate'), (candidate) => this.repositories.affiliates.exists(candidate));
    const site = new URL(row.website);
    // The kind the address is (X, say) exists even in a database made before it was added.
    await this.repositories.affiliates.saveChannelKinds(CHANNEL_KINDS);
    return {
      affiliate: { id, name: row.name, created_at: now },
      owner: this.owner(row, { affiliate_id: id, brand_id: null }, now),
      channel: { id: newId(), affiliate_id: id, kind_id: channelKindOf(site), name: `${site.hostname.replace(/^www\./, '')}${site.pathname.replace(/\/$/, '')}`.slice(0, CHANNEL_NAME_MAX), created_at: now, removed_at: null, site: row.website },
    };
  }

  private async brandOf(row: ApplicationRow, now: string): Promise<Approval> {
    const id = newId();
    const company = row.company ?? row.name;
    return {
      brand: {
        id,
        name: company,
        name_key: foldText(company),
        slug: await firstFree(slugOf(company, 'brand'), (candidate) => this.repositories.brands.slugExists(candidate)),
        logo: '',
        site: row.website,
        segment: '',
        // Out of sight and refusing links until its owner launches it.
        active: 0,
        is_public: 0,
        setup_pending: 1,
        is_exclusive: 0,
        is_highlight: 0,
        is_favorite: 0,
        rating_approval: 0,
        rating_commission: 0,
        rating_conversion: 0,
        rating_popularity: 0,
        rating_validation: 0,
        commission_transfer: 'cps',
        commission_value: 0,
        allowed_channel_kinds: null,
        click_id_param: 'clickId',
        attribution_window_days: 30,
        currency: row.currency ?? 'BRL',
        home_url: null,
        created_at: now,
        updated_at: now,
      },
      owner: this.owner(row, { affiliate_id: null, brand_id: id }, now),
    };
  }

}

