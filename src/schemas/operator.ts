// What the network's operators read and send: applications as they arrived and the decisions on
// them, and the audit trail.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';
import { HoldReasons } from './order.js';

export const ApplicationStatuses = ['unverified', 'pending', 'approved', 'declined'] as const;
export const ApplicationKinds = ['affiliate', 'brand'] as const;

/** One of `values`, as a schema (with its description where given). */
export const literals = <T extends string>(values: readonly T[], description?: string) => Type.Union(values.map((v) => Type.Literal(v)), description === undefined ? {} : { description });

export const Application = Type.Object(
  {
    id: Type.String(),
    kind: literals(ApplicationKinds, 'affiliate: a sign-up; brand: a brand’s application'),
    status: literals(ApplicationStatuses, 'unverified until the address is confirmed; pending until an operator decides'),
    email: Type.String(),
    name: Type.String(),
    language: Type.String(),
    country: Type.Optional(Type.String()),
    website: Type.String(),
    company: Type.Optional(Type.String()),
    taxId: Type.Optional(Type.String()),
    currency: Type.Optional(Type.String()),
    expectedMonthlyOrders: Type.Optional(Type.Integer()),
    terms: Type.Object({ version: Type.String(), acceptedAt: DateTime, address: Type.String({ description: 'The client address the terms were accepted from' }) }),
    verifiedAt: Type.Optional(DateTime),
    decidedAt: Type.Optional(DateTime),
    decidedBy: Type.Optional(Type.String({ description: 'The operator’s user id, cli (a command) or network (approved at once)' })),
    declineReason: Type.Optional(Type.String()),
    affiliateId: Type.Optional(Type.String({ description: 'The affiliate an approved sign-up made' })),
    brandId: Type.Optional(Type.String({ description: 'The brand an approved application made' })),
    createdAt: DateTime,
  },
  { $id: 'Application', description: 'An affiliate’s sign-up or a brand’s application, with what it sent (never its password)' },
);

const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (required to decline; the applicant reads it in the mail)' });

export const ApplicationDecision = Type.Object(
  {
    status: literals(['approved', 'declined'] as const, 'approved: the account and its owner are made and mailed; declined: the applicant is mailed the reason'),
    reason: Type.Optional(Reason),
  },
  {
    additionalProperties: false,
    ...Examples({ approve: ['Approve', { status: 'approved' }], decline: ['Decline with the reason', { status: 'declined', reason: 'Your site has no content yet' }] }),
  },
);
export type ApplicationDecision = Static<typeof ApplicationDecision>;

export const ApplicationDecisions = Type.Object(
  {
    ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'The applications to decide, at most 100' }),
    status: ApplicationDecision.properties.status,
    reason: Type.Optional(Reason),
  },
  {
    additionalProperties: false,
    ...Examples({ approve: ['Approve several', { ids: ['apl_a1', 'apl_b2'], status: 'approved' }] }),
  },
);
export type ApplicationDecisions = Static<typeof ApplicationDecisions>;

/** One application's outcome in a bulk decision: decided, or why not. */
export const DecisionOutcome = Type.Object({
  id: Type.String(),
  decided: Type.Boolean(),
  status: Type.Optional(Type.String({ description: 'The application’s status now, when decided' })),
  code: Type.Optional(Type.String({ description: 'Why it was not decided, as the single decision would say (application_not_found, application_decided, email_taken…)' })),
  message: Type.Optional(Type.String()),
});

const Json = Type.Record(Type.String(), Type.Unknown(), { description: 'Fields as they were (before) or became (after); secrets and payee details masked' });

export const AuditEntry = Type.Object(
  {
    id: Type.Integer({ description: 'Increases with every entry' }),
    at: DateTime,
    actor: Type.Object({
      kind: literals(['operator', 'brand', 'affiliate', 'network', 'cli'] as const, 'operator: a person of the network; brand or affiliate: a member’s key or user; network: scheduled work; cli: a command on the server'),
      id: Type.Optional(Type.String({ description: 'The user (usr_…) or key (key_…) that acted; a member sees only its own people’s and keys’, never an operator’s nor the other side’s' })),
      actingAs: Type.Optional(Type.String({ description: 'The member an operator was viewing as' })),
    }),
    address: Type.Optional(Type.String({ description: 'The client address, kept AUDIT_ADDRESS_DAYS; never shown to members' })),
    action: Type.String({ description: 'What was done, e.g. application.approved, affiliate.suspended' }),
    subject: Type.Object({ kind: Type.String(), id: Type.String() }),
    affiliateId: Type.Optional(Type.String()),
    brandId: Type.Optional(Type.String()),
    before: Type.Optional(Json),
    after: Type.Optional(Json),
    reason: Type.Optional(Type.String()),
    names: Type.Optional(
      Type.Object(
        {
          actor: Type.Optional(Type.String({ description: 'The person’s e-mail, or the key’s name' })),
          subject: Type.Optional(Type.String({ description: 'An order’s or claim’s order number (the brand’s own), an applicant’s company or name, a statement’s month, a member’s name, a user’s e-mail' })),
          affiliate: Type.Optional(Type.String({ description: 'The affiliate’s name' })),
          brand: Type.Optional(Type.String({ description: 'The brand’s name' })),
        },
        { description: 'What people read for the ids the entry names, as they are now; only ids the reader sees are named' },
      ),
    ),
  },
  { $id: 'AuditEntry', description: 'One entry of the audit trail: append-only' },
);

const Standing = {
  suspended: Type.Boolean({ description: 'Suspended by the network: its links count nothing, its keys and sessions are refused' }),
  suspendedAt: Type.Optional(DateTime),
  suspensionReason: Type.Optional(Type.String({ description: 'Why, as the member was told' })),
};

export const MemberSummary = Type.Object(
  { id: Type.String(), name: Type.String(), createdAt: DateTime, ...Standing },
  { $id: 'MemberSummary', description: 'An affiliate or a brand, as the operators’ search finds it' },
);

export const StandingChange = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why: the member’s owners are mailed it, and the audit trail keeps it' }) },
  {
    additionalProperties: false,
    ...Examples({ suspend: ['Suspend', { reason: 'Traffic from a click farm, see the holds of November' }], reactivate: ['Reactivate', { reason: 'Traffic sources reviewed with the affiliate' }] }),
  },
);

const OrderFigures = Type.Object({
  currency: Type.String(),
  orders: Type.Integer({ description: 'Orders reported in the range' }),
  sales: Type.Integer({ description: 'Their value in cents, canceled ones left out' }),
  commission: Type.Integer({ description: 'Their commission in cents, canceled ones left out' }),
  approved: Type.Integer({ description: 'Orders whose commission was approved (approved, payable or paid)' }),
  canceled: Type.Integer({ description: 'Orders whose commission was canceled' }),
  approvalRateBp: Type.Integer({ description: 'approved / orders, in basis points (10000 = all)' }),
  declineRateBp: Type.Integer({ description: 'canceled / orders, in basis points' }),
});

export const MemberDetail = Type.Object(
  {
    kind: Type.Union([Type.Literal('affiliate'), Type.Literal('brand')]),
    id: Type.String(),
    name: Type.String(),
    createdAt: DateTime,
    ...Standing,
    active: Type.Optional(Type.Boolean({ description: 'Brands: launched, in affiliates’ sight' })),
    site: Type.Optional(Type.String()),
    networkTerms: Type.Optional(Type.Ref('NetworkTerms', { description: 'Brands: the network’s terms for its statements (PUT /operator/brands/{id}/terms changes them)' })),
    figures: Type.Object({
      from: Type.String({ format: 'date' }),
      to: Type.String({ format: 'date', description: 'Included' }),
      clicks: Type.Integer({ description: 'Counted clicks of the member’s links' }),
      uncountedClicks: Type.Integer({ description: 'Clicks that did not count (bots, HEAD requests, repeats, suspicious, suspended)' }),
      orders: Type.Array(OrderFigures, { description: 'Per currency (money is never summed across currencies)' }),
    }),
    users: Type.Array(Type.Ref('User')),
    keys: Type.Array(Type.Ref('ApiKey')),
    channels: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), kind: Type.String() }))),
  },
  { $id: 'MemberDetail', description: 'One affiliate or brand: its figures over a range, its people, its API keys and (affiliates) its channels' },
);

const HoldReason = Type.Union(HoldReasons.map((r) => Type.Literal(r)));

export const HeldOrder = Type.Object(
  {
    id: Type.String({ description: 'The order’s network id' }),
    orderId: Type.String({ description: 'The brand’s order id' }),
    brand: Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) }),
    affiliate: Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) }),
    value: Type.Integer({ description: 'Cents' }),
    commission: Type.Integer({ description: 'Cents, as it would be paid once released' }),
    currency: Type.String(),
    createdAt: DateTime,
    heldAt: DateTime,
    source: Type.String(),
    holdReasons: Type.Array(HoldReason),
    rules: Type.Array(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])), { description: 'Each rule tripped with its numbers and its threshold (for operators only: members never see thresholds)' }),
    click: Type.Optional(
      Type.Object({
        id: Type.String(),
        at: Type.Optional(DateTime),
        country: Type.Optional(Type.String()),
        device: Type.Optional(Type.String()),
        browser: Type.Optional(Type.String()),
        os: Type.Optional(Type.String()),
        referrer: Type.Optional(Type.String()),
        asn: Type.Optional(Type.Integer({ description: 'The network (autonomous system) the click came from, where ASN_DATABASE is set' })),
        datacenter: Type.Optional(Type.Boolean()),
      }),
    ),
    affiliateRecord: Type.Object({
      orders: Type.Integer(),
      byCommissionStatus: Type.Record(Type.String(), Type.Integer()),
      everHeld: Type.Integer(),
      fraudDeclined: Type.Integer(),
    }),
  },
  { $id: 'HeldOrder', description: 'A conversion held for review, with the facts the operator decides on' },
);

export const HoldDecisions = Type.Object(
  {
    orderIds: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500, uniqueItems: true, description: 'The held orders’ network ids, at most 500' }),
    decision: Type.Union([Type.Literal('release'), Type.Literal('decline')], { description: 'release: pending again, locking the brand’s validationDays from now; decline: canceled (commissionReason fraud_declined)' }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'Required to decline: the affiliate is told it' })),
  },
  {
    additionalProperties: false,
    ...Examples({ release: ['Release', { orderIds: ['4c1d…'], decision: 'release' }], decline: ['Decline', { orderIds: ['4c1d…'], decision: 'decline', reason: 'Self-referral confirmed' }] }),
  },
);
