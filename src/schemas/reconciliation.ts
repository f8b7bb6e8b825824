import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './common.js';

const column = (what: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: `The header of the column holding ${what} (a file other than Shopify's or Nuvemshop's export)` }));

/** Which columns of a file that is neither Shopify's nor Nuvemshop's export hold what. */
export const ReconciliationQuery = Type.Object(
  {
    orderIdColumn: column('your order id, as you report it to the network'),
    statusColumn: column('the order’s status in the shop (paid, pending, canceled, refunded, partially refunded…, in English or Portuguese)'),
    totalColumn: column('the order’s total, as the shop writes it (129.90, 1.299,90)'),
    dateColumn: column('the order’s date (2026-11-20 14:03:11 -0300, 2026-11-20T17:03:11Z, 20/11/2026 14:03; without a zone, UTC)'),
    refundedColumn: column('the amount refunded (optional)'),
    currencyColumn: column('the currency (optional; rows in another currency than yours are refused)'),
  },
  { additionalProperties: false },
);
export type ReconciliationQuery = Static<typeof ReconciliationQuery>;

export const ReconciliationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The reconciliation id (rec_…)' }) });

const Cents = (description: string) => Type.Optional(Type.Integer({ description: `${description}, in integer minor units (cents) of your currency` }));

export const LINE_KIND_NAMES = ['confirm', 'cancel', 'correct', 'leave', 'skipped', 'unknown', 'missing', 'invalid'] as const;
const LINE_REASONS = ['locked', 'held', 'decided', 'shop_pending', 'refund_covers_value', 'missing_order_id', 'unknown_status', 'invalid_amount', 'invalid_date', 'other_currency', 'duplicate_order', 'refund_exceeds_total'] as const;

export const ReconciliationLine = Type.Object(
  {
    line: Type.Optional(Type.Integer({ description: 'The file’s line (the header is line 1); none for an order the file lacks' })),
    orderId: Type.Optional(Type.String({ description: 'Your order id (as the network has it when known, else as the file writes it)' })),
    shopStatus: Type.Optional(Type.String({ description: 'The shop’s own words for the order (its status columns, joined by " / ")' })),
    verdict: Type.Optional(Type.Union(['paid', 'canceled', 'refunded', 'partially_refunded', 'pending'].map((v) => Type.Literal(v)), { description: 'What the shop’s words mean' })),
    total: Cents('The total in the file'),
    refunded: Cents('The amount refunded in the file'),
    status: Type.Optional(Type.String({ description: 'The order’s status at the network (pending, approved, canceled)' })),
    commissionStatus: Type.Optional(Type.String({ description: 'The commission’s status at the network' })),
    source: Type.Optional(Type.String({ description: 'How the order reached the network (api, postback, tag, pixel, claim)' })),
    value: Cents('The order’s value at the network'),
    newValue: Cents('The value it gets (correct): its value less the amount refunded'),
    createdAt: Type.Optional(DateTime),
    lockAt: Type.Optional(DateTime),
    reason: Type.Optional(Type.Union(LINE_REASONS.map((r) => Type.Literal(r)), {
      description:
        'skipped: locked (past its lockAt), held (for the network’s fraud review) or decided (approved or canceled already); leave: shop_pending (the shop has not been paid); cancel: refund_covers_value (a partial refund as large as the value); invalid: the row’s fault',
    })),
    message: Type.Optional(Type.String({ description: 'invalid: what is wrong with the row, in English' })),
  },
  { $id: 'ReconciliationLine', description: 'One line of a reconciliation’s preview' },
);

const Counts = Type.Object(Object.fromEntries(LINE_KIND_NAMES.map((kind) => [kind, Type.Integer({ minimum: 0 })])) as Record<(typeof LINE_KIND_NAMES)[number], ReturnType<typeof Type.Integer>>, {
  description:
    'How many lines of each kind: confirm (pending, paid or fulfilled in the shop: approved), cancel (canceled, voided or refunded in the shop), correct (partly refunded: value less the refund, approved), leave (the shop waits for payment), skipped (locked, held or decided: a file never changes them), unknown (not an order of yours), missing (your orders of the file’s days the file lacks, any status), invalid (rows that cannot be read)',
});

export const Reconciliation = Type.Object(
  {
    id: Type.String({ description: 'rec_…' }),
    platform: Type.Union([Type.Literal('shopify'), Type.Literal('nuvemshop'), Type.Literal('mapped')], { description: 'Whose export the file is, by its header line; mapped: read with your column mapping' }),
    currency: Type.String({ description: 'Your currency: every amount is in its minor unit' }),
    createdAt: DateTime,
    from: Type.Optional(DateTime),
    to: Type.Optional(DateTime),
    rows: Type.Integer({ minimum: 0, description: 'Orders the file holds (a Shopify order’s further line-item rows are not counted)' }),
    counts: Counts,
    lines: Type.Object(Object.fromEntries(LINE_KIND_NAMES.map((kind) => [kind, Type.Array(Type.Ref(ReconciliationLine))])) as Record<(typeof LINE_KIND_NAMES)[number], ReturnType<typeof Type.Array>>, {
      description: 'The first 20 lines of each kind, in the file’s order',
    }),
    appliedAt: Type.Optional(DateTime),
    outcome: Type.Optional(
      Type.Object({
        confirmed: Type.Integer({ minimum: 0 }),
        canceled: Type.Integer({ minimum: 0 }),
        corrected: Type.Integer({ minimum: 0 }),
        changedMeanwhile: Type.Integer({ minimum: 0, description: 'Changes of the preview not made: the order was decided, locked, held or changed since' }),
      }),
    ),
  },
  { $id: 'Reconciliation', description: 'Your shop’s order export read against your orders' },
);
