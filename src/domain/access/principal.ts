import type { Scope } from './scopes.js';

/** Who is calling: resolved from the API key (or postback token) on every authenticated request. */
export interface Principal {
  /** The API key's id (key_…), the postback token's id (pbt_…) or user:<id> for a portal session: what the rate limit counts against. */
  keyId: string;
  /**
   * What the caller presented: an API key, or a brand's postback token, which is accepted by
   * GET /postback only.
   */
  credential: 'api_key' | 'postback_token' | 'session';
  /** Set for affiliate keys: every affiliate endpoint is scoped to this affiliate. */
  affiliateId: string | null;
  /** Set for brand (advertiser) keys. */
  brandId: string | null;
  scopes: ReadonlySet<Scope>;
  /** Set while the network has suspended the caller's affiliate or brand: every API route refuses it (403 account_suspended). */
  suspendedAt?: string;
  rateLimit: number;
  rateWindowMs: number;
  /** A portal session's id (ses_…): what an operator's view as a member is bound to. */
  sessionId?: string;
  /**
   * Set while an operator views as the member (read-only, see domain/access/view-as.ts): the view
   * and the operator. Every change is refused before a route runs, so nothing is ever written
   * under it; anything that did write would be the operator's, acting as the member.
   */
  viewing?: { viewId: string; operatorId: string };
}
