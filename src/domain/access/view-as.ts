// "View as" for support: an operator opens an affiliate's or a brand's portal as its owner sees
// it, read-only, for a short while (VIEW_AS_MINUTES). The view is a credential of its own (its
// own random token, kept as a hash), apart from the operator's session, which stays as it was;
// it works only together with the operator's session that opened it, so neither alone is a
// member's credential. Starting one is audited under the operator, acting as the member; the
// member's people see it in their session list, as the network's support with the reason (never
// the operator's name), and can end it there like any of their sessions. A suspended member can
// be viewed. The HTTP layer refuses every change made through a view (403 read_only_view).
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { ViewedMember, ViewSessionsRepository } from '../../storage/repositories/view-sessions.js';
import type { ViewSessionRow } from '../../storage/tables.js';
import { auditEntry, type Actor } from '../audit/audit-entry.js';
import { invalid, notFound } from '../errors.js';
import { randomBase62 } from '../random.js';
import { hashKey } from './access-service.js';
import type { Scope } from './scopes.js';
import { scopesOf, type SessionView, type UserView } from './users-service.js';

export type { ViewedMember } from '../../storage/repositories/view-sessions.js';

/** A view as its operator reads it (and the portal shows it in its banner). */
export interface ViewAs {
  id: string;
  kind: 'affiliate' | 'brand';
  affiliateId?: string;
  brandId?: string;
  /** The member's name. */
  name: string;
  reason: string;
  startedAt: string;
  expiresAt: string;
  /** Set while the member is suspended: since when. */
  suspendedAt?: string;
}

/** A view in the member's session list: the network's support, with the reason; nothing of the operator. */
export interface ViewedSession extends SessionView {
  viewedByNetwork: true;
  reason: string;
  expiresAt: string;
}

/** What a view's token gives while it works: the member's owner's reading. */
export interface ActiveView {
  view: ViewAs;
  operatorId: string;
  scopes: ReadonlySet<Scope>;
}

/** Why a view's token no longer works, in words for the operator. */
export type EndedView = { ended: string };

export interface ViewAsRepositories {
  affiliates: Pick<AffiliatesRepository, 'standingOf'>;
  brands: Pick<BrandsRepository, 'standingOf'>;
  viewSessions: ViewSessionsRepository;
}

/** The longest reason kept (the member reads it in their session list). */
export const VIEW_REASON_MAX = 500;
/** A view's last use is written at most this often (as a session's). */
const TOUCH_EVERY_MS = 60_000;
const DEVICE = 'The network’s support (read-only)';

const memberOfRow = (row: ViewSessionRow): ViewedMember => (row.affiliate_id !== null ? { affiliateId: row.affiliate_id } : { brandId: row.brand_id! });
const memberOfUser = (user: Pick<UserView, 'affiliateId' | 'brandId'>): ViewedMember | undefined =>
  user.affiliateId ? { affiliateId: user.affiliateId } : user.brandId ? { brandId: user.brandId } : undefined;

function checkedReason(reason: string): string {
  const text = reason.trim();
  if (text === '') throw invalid('invalid_reason', 'say why you view as this member (reason): its people read it in their session list, and the audit trail keeps it');
  if (text.length > VIEW_REASON_MAX) throw invalid('invalid_reason', `the reason has ${text.length} characters; at most ${VIEW_REASON_MAX}`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001F\u007F]/.test(text)) throw invalid('invalid_reason', 'the reason must be one line of text, without control characters');
  return text;
}

export class ViewAsService {
  constructor(
    private readonly repositories: ViewAsRepositories,
    private readonly clock: Clock,
    private readonly settings: { lifetimeMs: number; sessionIdleMs: number },
  ) {}

  /**
   * The operator (`actor`, signed in with the session `operatorSessionId`) starts viewing as the
   * member, saying why; any view their session had open ends. The token is shown once.
   */
  async start(actor: Extract<Actor, { kind: 'operator' }>, operatorSessionId: string, member: ViewedMember, reason: string): Promise<{ token: string; view: ViewAs }> {
    const why = checkedReason(reason);
    const kind = 'affiliateId' in member ? 'affiliate' : 'brand';
    const memberId = 'affiliateId' in member ? member.affiliateId : member.brandId;
    const standing = 'affiliateId' in member ? await this.repositories.affiliates.standingOf(member.affiliateId) : await this.repositories.brands.standingOf(member.brandId);
    if (!standing) throw notFound(`${kind} "${memberId}" does not exist`, `${kind}_not_found`);
    const token = randomBase62(43);
    const now = this.clock.now();
    const row: Omit<ViewSessionRow, 'ended_at' | 'ended_by'> = {
      token_hash: hashKey(token),
      id: `vas_${randomBase62(16)}`,
      operator_id: actor.userId,
      operator_session_id: operatorSessionId,
      affiliate_id: kind === 'affiliate' ? memberId : null,
      brand_id: kind === 'brand' ? memberId : null,
      reason: why,
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.settings.lifetimeMs).toISOString(),
    };
    const audit = auditEntry(
      { ...actor, actingAs: memberId },
      { action: 'member.viewed_as', subject: { kind, id: memberId }, members: member, after: { view: row.id, expiresAt: row.expires_at, readOnly: true }, reason: why },
    );
    await this.repositories.viewSessions.open(row, [audit]);
    return { token, view: this.viewOf(row, standing.name, standing.suspended_at) };
  }

  /**
   * The view a token names, for the operator's session `operatorSessionId`, while it works (its
   * last use moves forward); otherwise why it does not.
   */
  async resolve(token: string, operatorSessionId: string): Promise<ActiveView | EndedView> {
    if (token.length > 100) return { ended: 'This view is unknown' };
    const tokenHash = hashKey(token);
    const row = await this.repositories.viewSessions.find(tokenHash);
    if (!row || row.operator_session_id !== operatorSessionId) return { ended: 'This view is unknown, or was opened by another session' };
    if (row.ended_at !== null) return { ended: row.ended_by === 'member' ? `The member ended your view at ${row.ended_at}` : `This view ended at ${row.ended_at}` };
    const now = this.clock.now();
    if (Date.parse(row.expires_at) <= now) return { ended: `This view expired at ${row.expires_at}` };
    const member = memberOfRow(row);
    const standing = 'affiliateId' in member ? await this.repositories.affiliates.standingOf(member.affiliateId) : await this.repositories.brands.standingOf(member.brandId);
    if (!standing) return { ended: 'The member viewed no longer exists' };
    if (now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) await this.repositories.viewSessions.touch(tokenHash, new Date(now).toISOString());
    const scopes = scopesOf({ affiliate_id: row.affiliate_id, role: 'owner' });
    return { view: this.viewOf(row, standing.name, standing.suspended_at), operatorId: row.operator_id, scopes };
  }

  /** The operator ends the view their browser holds; false when it was not open. */
  end(token: string, operatorSessionId: string): Promise<boolean> {
    if (token.length > 100) return Promise.resolve(false);
    return this.repositories.viewSessions.endOfOperator(hashKey(token), operatorSessionId, this.clock.iso());
  }

  /** The open views of the person's account, as their session list shows them (none for an operator). */
  async sessionsOf(user: Pick<UserView, 'affiliateId' | 'brandId'>): Promise<ViewedSession[]> {
    return (await this.openOf(user)).map((row) => ({
      id: row.id,
      device: DEVICE,
      country: 'ZZ',
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      current: false,
      viewedByNetwork: true,
      reason: row.reason,
      expiresAt: row.expires_at,
    }));
  }

  /** One of the person's account's people ends a view of it; false when it is no open view of theirs. */
  async endByMember(user: Pick<UserView, 'affiliateId' | 'brandId'>, id: string): Promise<boolean> {
    const member = memberOfUser(user);
    if (!member) return false;
    return (await this.repositories.viewSessions.endOfMember(member, [id], this.clock.iso())) > 0;
  }

  /** Ends every open view of the person's account (signing out everywhere else); how many. */
  async endAllByMember(user: Pick<UserView, 'affiliateId' | 'brandId'>): Promise<number> {
    const member = memberOfUser(user);
    if (!member) return 0;
    const open = await this.openOf(user);
    return this.repositories.viewSessions.endOfMember(member, open.map((row) => row.id), this.clock.iso());
  }

  private async openOf(user: Pick<UserView, 'affiliateId' | 'brandId'>): Promise<ViewSessionRow[]> {
    const member = memberOfUser(user);
    if (!member) return [];
    const now = this.clock.now();
    return this.repositories.viewSessions.listOpen(member, new Date(now).toISOString(), new Date(now - this.settings.sessionIdleMs).toISOString());
  }

  private viewOf(row: Pick<ViewSessionRow, 'id' | 'affiliate_id' | 'brand_id' | 'reason' | 'created_at' | 'expires_at'>, name: string, suspendedAt: string | null): ViewAs {
    return {
      id: row.id,
      kind: row.affiliate_id !== null ? 'affiliate' : 'brand',
      ...(row.affiliate_id !== null && { affiliateId: row.affiliate_id }),
      ...(row.brand_id !== null && { brandId: row.brand_id }),
      name,
      reason: row.reason,
      startedAt: row.created_at,
      expiresAt: row.expires_at,
      ...(suspendedAt !== null && { suspendedAt }),
    };
  }
}
