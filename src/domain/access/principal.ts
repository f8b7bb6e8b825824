import type { Scope } from './scopes.js';

/** Who is calling: resolved from the API key on every authenticated request. */
export interface Principal {
  keyId: string;
  /** Set for affiliate keys: every affiliate endpoint is scoped to this affiliate. */
  affiliateId: string | null;
  /** Set for brand (advertiser) keys. */
  brandId: string | null;
  scopes: ReadonlySet<Scope>;
  rateLimit: number;
  rateWindowMs: number;
}
