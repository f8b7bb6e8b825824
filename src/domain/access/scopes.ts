// Scopes an API key can carry. Affiliate keys get every affiliate scope unless created with a
// narrower list; brand (advertiser) keys every brand scope likewise. A scope added here needs a
// migration granting it to the existing keys that hold their kind's full set (see
// src/storage/migrations/scope-grants.ts).
export const AFFILIATE_SCOPES = [
  'brands:read',
  'products:read',
  'campaigns:read',
  'shortener:read',
  'shortener:write',
  'orders:read',
  'channels:read',
  'channels:write',
  'webhooks:read',
  'webhooks:write',
  'approvals:write',
  'analytics:read',
  'claims:write',
] as const;
export const BRAND_SCOPES = ['conversions:write', 'conversions:read', 'webhooks:read', 'webhooks:write', 'affiliates:read', 'affiliates:write', 'catalog:read', 'catalog:write', 'analytics:read'] as const;

/**
 * Managing the account itself (its team, its API keys): for the portal's signed-in owners only
 * (members read the team), never for an API key, so a leaked key cannot mint others.
 */
export const ACCOUNT_SCOPES = ['team:read', 'team:write', 'keys:read', 'keys:write'] as const;

/**
 * An affiliate's payee details (where it is paid), read and changed by its signed-in owners only,
 * never with an API key: a leaked key cannot learn them nor redirect payouts.
 */
export const PAYEE_SCOPES = ['payee:write'] as const;

/**
 * The network's operators: reading the console (members, applications, holds, the audit trail),
 * acting on members (applications, suspensions, holds), and moving money (statements, payout runs,
 * adjustments). Operators hold them through a session only: there is no operator API key.
 */
export const OPERATOR_SCOPES = ['operator:read', 'operator:write', 'operator:money'] as const;

/** Scopes only a portal session holds (a key never does, whatever it was created with). */
export const SESSION_ONLY_SCOPES: readonly string[] = [...ACCOUNT_SCOPES, ...PAYEE_SCOPES, ...OPERATOR_SCOPES];

export type AffiliateScope = (typeof AFFILIATE_SCOPES)[number];
export type BrandScope = (typeof BRAND_SCOPES)[number];
export type AccountScope = (typeof ACCOUNT_SCOPES)[number];
export type PayeeScope = (typeof PAYEE_SCOPES)[number];
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];
export type Scope = AffiliateScope | BrandScope | AccountScope | PayeeScope | OperatorScope;

export function parseScopes(text: string, allowed: readonly string[]): Scope[] {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  if (names.length === 0) throw new Error(`no scope given; allowed scopes: ${allowed.join(', ')}`);
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length > 0) throw new Error(`unknown scope ${unknown.map((u) => `"${u}"`).join(', ')}; allowed scopes: ${allowed.join(', ')}`);
  return names as Scope[];
}
