import { Type, type Static } from '@sinclair/typebox';
import { Channel } from './channel.js';
import { Currency, DateTime, Examples, Uuid } from './common.js';

export const CommissionTransfers = ['cps', 'cpa'] as const;

export const Commission = Type.Object(
  {
    value: Type.Number({
      description: 'For cps: percent of the order value (7.5 = 7.5 %, two decimals at most). For cpa: fixed amount per approved order, in integer cents.',
    }),
    transfer: Type.Union(
      CommissionTransfers.map((t) => Type.Literal(t)),
      { description: 'cps = cost per sale (percentage of the order value); cpa = cost per action (fixed amount per order)' },
    ),
  },
  { $id: 'Commission' },
);

export const Rating = Type.Object(
  {
    approval: Type.Number(),
    commission: Type.Number(),
    conversion: Type.Number(),
    popularity: Type.Number(),
    validation: Type.Number(),
  },
  { description: 'Network ratings, 0 to 5, decimals allowed. Ignored once the network computes the brand’s scores (brand-scores task).' },
);

const score = (what: string) =>
  Type.Optional(Type.Number({ minimum: 0, maximum: 5, description: `${what} Left out while the network has no score for it (never 0 in its place).` }));

/** The ratings as the API shows them: computed by the network, each left out without a score. */
export const RatingView = Type.Object(
  {
    approval: score('5 × approved / (approved + canceled) orders of the last 90 days.'),
    commission: score('2.5 × the average commission per order / the network’s median of that average (same currency), capped at 5.'),
    conversion: score('Click-attributed orders per 100 counted clicks of the last 90 days, capped at 5.'),
    popularity: score('5 × affiliates with counted clicks in the last 90 days / those of the network’s busiest brand.'),
    validation: score('5 × 30 / (30 + median days from an order’s report to its decision).'),
  },
  {
    description:
      'Network ratings, 0 to 5 with one decimal, computed hourly from the last 90 days of orders and clicks. A brand with fewer orders than the minimum (SCORES_MIN_ORDERS, 20) has none; a score without data (e.g. conversion without counted clicks) is left out.',
  },
);

export const Network = Type.Object({
  active: Type.Boolean({ description: 'Whether the brand currently accepts new links' }),
  isPublic: Type.Boolean({ description: 'true = visible to every affiliate; false = visible to approved affiliates only' }),
  trait: Type.Object({
    isExclusive: Type.Boolean(),
    isHighlight: Type.Boolean(),
    isFavorite: Type.Boolean(),
  }),
  rating: Rating,
});

export const NetworkView = Type.Object({
  active: Network.properties.active,
  isPublic: Network.properties.isPublic,
  trait: Network.properties.trait,
  rating: RatingView,
  epc: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Addition to the spec, on a brand’s detail: commission per 100 counted clicks of the last 90 days, in cents of the brand’s currency. Left out without a score.',
    }),
  ),
  medianDaysToDecision: Type.Optional(
    Type.Number({
      minimum: 0,
      description: 'Addition to the spec, on a brand’s detail: median days from an order’s report to its approval or cancellation (last 90 days), one decimal. Left out without a score.',
    }),
  ),
});

/** A brand as imported and stored: the API shape without the per-affiliate channels. */
export const BrandInput = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    logo: Type.String({ maxLength: 2048 }),
    slug: Type.String({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
    site: Type.String({ format: 'uri', maxLength: 2048, description: 'Brand website; its host (without www.) is the brand domain' }),
    segment: Type.String({ maxLength: 200 }),
    network: Network,
    createdAt: Type.Optional(DateTime),
    commission: Commission,
    categories: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    allowedChannels: Type.Optional(
      Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.Null()], {
        description: 'Channel kind ids the brand accepts links from; absent or null accepts every kind',
      }),
    ),
    clickIdParam: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' })),
    attributionWindowDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
    currency: Type.Optional(Currency('ISO 4217 code of the brand’s prices, order values and cpa commission. Default BRL for a new brand; an update without it keeps the stored one.')),
  },
  { additionalProperties: false },
);
export type BrandInput = Static<typeof BrandInput>;

export const Brand = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    logo: Type.String({ description: 'Logo URL' }),
    slug: Type.String(),
    site: Type.String({ description: 'Brand website URL' }),
    segment: Type.String(),
    network: NetworkView,
    createdAt: DateTime,
    channels: Type.Array(Type.Ref(Channel), {
      description: "The calling affiliate's channels, each with its brand-page links for this brand and a message where generation is blocked",
    }),
    commission: Type.Ref(Commission),
    categories: Type.Array(Type.String(), { description: 'Categories the brand is listed under (what the categories filter matches)' }),
    currency: Currency('Addition to the spec: ISO 4217 code of the brand’s amounts (product prices, order values, a cpa commission value), all integers in its minor unit'),
    allowedChannels: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Addition to the spec: the channel kinds (ids of GET /affiliate/channels/available) the brand accepts links from; a channel of another kind gets none. Omitted when the brand accepts every kind',
      }),
    ),
  },
  { $id: 'Brand' },
);
export type Brand = Static<typeof Brand>;

const AttributionPriority = Type.Union([Type.Literal('coupon'), Type.Literal('click')], {
  description:
    'Which decides when a conversion comes with a click and with a coupon code you gave an affiliate, and both could earn it: coupon (the default: the code’s affiliate gets the order) or click (the click’s affiliate does). A click that cannot earn the order (placed before it, or past your attribution window) gives way to the code either way.',
});

export const BrandProfile = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    site: Type.String({ description: 'Your website; its host (without www.) is your first domain' }),
    homeUrl: Type.String({ description: 'Where Home links go (your site’s origin unless you set another)' }),
    domains: Type.Array(Type.String(), { description: 'Every domain campaign and Custom link URLs may be on (with their subdomains): your site’s first' }),
    clickIdParam: Type.String({ description: 'The query parameter that carries the click id to your site' }),
    allowedChannels: Type.Optional(Type.Array(Type.String(), { description: 'Channel kinds you accept links from; omitted: every kind' })),
    commission: Type.Ref(Commission),
    termsNoticeDays: Type.Integer({ minimum: 0, maximum: 90, description: 'Days of notice you give before a change of your commission that could lower what an affiliate earns takes effect (never below the network’s least, TERMS_NOTICE_MIN_DAYS); a change that cannot takes effect at once' }),
    upcomingCommission: Type.Optional(
      Type.Object(
        { commission: Type.Ref(Commission), effectiveAt: DateTime },
        { description: 'A change of your default rule waiting for its notice: orders reported from effectiveAt are computed with it (GET /advertiser/commission-rules shows the whole change)' },
      ),
    ),
    attributionWindowDays: Type.Integer(),
    validationDays: Type.Integer({ minimum: 0, maximum: 180, description: 'Days you have after an order is reported to approve, cancel or correct it; then it locks, and a pending one is approved by the network' }),
    claimAutoAcceptDays: Type.Integer({ minimum: 30, maximum: 120, description: 'Days you have to answer an affiliate’s claim of a sale your tracking missed; unanswered, the network accepts it at the claimed value' }),
    trustTagConversions: Type.Boolean({
      description: 'false (the default): an order only your tag or pixel reported is canceled at its lock date (commissionReason unconfirmed) unless your server reported it too or you approved it; true: it locks and is approved like any other',
    }),
    attributionPriority: AttributionPriority,
    reportsOrdersFromServer: Type.Boolean({
      description: 'Addition: your word that your own server reports your orders (POST /advertiser/conversions or the postback) rather than the tag or the pixel; false until you say so. Your launch checklist counts tracking as installed on it',
    }),
    networkTerms: Type.Object(
      {
        feeBasisPoints: Type.Integer({ minimum: 0, maximum: 10_000, description: "The network's fee on each commission billed, in basis points of the commission (3000: 30 %): a statement bills the commission plus this share of it" }),
        dueDays: Type.Integer({ minimum: 0, maximum: 365, description: 'Days you have to pay a statement after it is issued' }),
      },
      {
        description:
          'Addition: the network’s terms for your statements as they are now, set by the network for your brand. A change applies to the next statement issued; each statement keeps the fee it was issued with (its feeBasisPoints). The network keeps no history of these terms and schedules no change ahead: the statements show the fee of each month',
      },
    ),
    currency: Currency('ISO 4217 code of your amounts'),
    isPublic: Type.Boolean({ description: 'Public: every affiliate may promote you; private: the ones you approve' }),
    active: Type.Boolean(),
    updatedAt: DateTime,
  },
  { $id: 'BrandProfile', description: 'Your brand as the network keeps it' },
);
export type BrandProfile = Static<typeof BrandProfile>;

const Hostname = Type.String({ minLength: 3, maxLength: 253, pattern: '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$', description: 'A domain name, lowercase, e.g. shop-brand.com' });

export const BrandProfilePatch = Type.Object(
  {
    site: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Your site, written as you like (www.yourshop.com.br or a full URL): stored as an https address (https:// added when no scheme is given); invalid_url when it cannot be one' })),
    homeUrl: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()], { description: 'null: back to your site’s origin' })),
    domains: Type.Optional(Type.Array(Hostname, { maxItems: 20, uniqueItems: true, description: 'Your domains beside your site’s (replaces the list)' })),
    clickIdParam: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' })),
    allowedChannels: Type.Optional(Type.Union([Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true }), Type.Null()], { description: 'null: every kind' })),
    commission: Type.Optional(Commission),
    termsNoticeDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 90, description: 'Days of notice before a change that could lower earnings takes effect, for changes saved from now on; at least the network’s TERMS_NOTICE_MIN_DAYS' })),
    validationDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 180, description: 'For orders reported from now on; each order keeps the lock date it was reported with' })),
    claimAutoAcceptDays: Type.Optional(Type.Integer({ minimum: 30, maximum: 120, description: 'For claims filed from now on (30 to 120, default 60); each claim keeps the auto-accept date it was filed with' })),
    trustTagConversions: Type.Optional(Type.Boolean({ description: 'Whether orders only your tag or pixel reported lock without your confirmation; read at each order’s lock date' })),
    attributionPriority: Type.Optional({ ...AttributionPriority, description: `For conversions reported from now on. ${AttributionPriority.description}` }),
    reportsOrdersFromServer: Type.Optional(Type.Boolean({ description: 'Addition: say that your own server reports your orders (true), or take it back (false)' })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    ...Examples({ shop: ['Another domain, its home page, and a commission for later orders', { domains: ['shop-brand.com'], homeUrl: 'https://shop-brand.com/', commission: { transfer: 'cps', value: 8 } }] }),
  },
);
export type BrandProfilePatch = Static<typeof BrandProfilePatch>;
