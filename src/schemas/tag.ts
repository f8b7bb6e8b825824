// The first-party tag and the pixel: what they send, what they are answered, and the brand's
// install page (the snippet's parts and the latest reports).
import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Examples } from './common.js';
import { BrandOrderId, ClickId, Coupon, CustomerInput, EmailHash, OrderItems, OrderValue } from './conversion.js';

const PublishableKey = Type.String({ minLength: 1, maxLength: 100, description: 'The brand’s publishable key (afpub_…): public by design, good for reports from the shop’s pages only' });

export const TagConversionInput = Type.Object(
  {
    key: PublishableKey,
    orderId: BrandOrderId,
    value: OrderValue,
    currency: Type.Optional(Currency('The currency of value: the brand’s own (anything else is refused)')),
    items: Type.Optional(OrderItems),
    clickId: Type.Optional({ ...ClickId, description: 'The click id the tag kept from the landing page (the tag adds it)' }),
    coupon: Type.Optional({ ...Coupon, description: 'The coupon code the customer used: a code the brand gave an affiliate attributes the order without a click' }),
    customer: Type.Optional(CustomerInput),
  },
  {
    additionalProperties: false,
    ...Examples({ order: ['An order as the tag sends it', { key: 'afpub_3kT9mQ2vX8bN4cR7yL1wZ5hJ', orderId: 'A-1001', value: 19990, currency: 'BRL', clickId: '9f2c4e1a7b3d4c5e8f6a1b2c3d4e5f60' }] }),
  },
);
export type TagConversionInput = Static<typeof TagConversionInput>;

export const TagConversionAccepted = Type.Object({
  data: Type.Object({
    orderId: Type.String(),
    outcome: Type.Literal('recorded', {
      description: 'recorded: the report was accepted. The same for a new order (waiting for the brand’s confirmation) and for an order id reported before, which the report does not change: the answer never tells whether an order id exists',
    }),
  }),
});

/** The pixel's query, checked in the handler: the pixel answers its image whatever it was sent. */
export const PixelQuery = Type.Object(
  {
    pk: PublishableKey,
    orderId: BrandOrderId,
    value: Type.String({ pattern: '^[0-9]{1,11}$', description: 'Order value in integer cents, digits only' }),
    currency: Type.Optional(Currency('The currency of value: the brand’s own')),
    clickId: Type.Optional(ClickId),
    coupon: Type.Optional(Coupon),
    customerIsNew: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    customerEmailHash: Type.Optional(EmailHash),
  },
  { additionalProperties: false },
);
export type PixelQuery = Static<typeof PixelQuery>;

const RefusalDetails = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Array(Type.String())]), { description: 'The values the refusal names (origin_not_allowed: origin, domains; currency_mismatch: currency, expected)' });

export const TagReport = Type.Object(
  {
    at: DateTime,
    source: Type.Union([Type.Literal('tag'), Type.Literal('pixel')]),
    orderId: Type.Optional(Type.String()),
    outcome: Type.Union([Type.Literal('accepted'), Type.Literal('refused')]),
    reason: Type.Optional(Type.String({ description: 'Why it was refused: an error code and what to fix, in English' })),
    code: Type.Optional(Type.String({ description: 'Why it was refused: the error code, as every refusal of the API has one' })),
    details: Type.Optional(RefusalDetails),
    origin: Type.Optional(Type.String({ description: 'The page it came from, as the browser said' })),
    test: Type.Optional(Type.Literal(true, { description: 'Sent with a test order’s click id: kept as the test’s report, never an order (absent from every list, figure, statement and payout)' })),
    value: Type.Optional(Type.Integer({ description: 'The order value it read, in integer cents' })),
    currency: Type.Optional(Type.String({ description: 'The currency it read' })),
    coupon: Type.Optional(Type.String({ description: 'The coupon it read' })),
    items: Type.Optional(Type.Integer({ minimum: 0, description: 'How many lines it read' })),
  },
  { $id: 'TagReport' },
);

export const TagTest = Type.Object(
  {
    id: Type.String({ description: 'The test’s id: the click id its link carries' }),
    url: Type.String({ description: 'Your home page through the test: open it, then order as a customer would (or let the tag announce the visit)' }),
    createdAt: DateTime,
    visit: Type.Optional(
      Type.Object(
        {
          at: DateTime,
          origin: Type.Optional(Type.String({ description: 'The page the tag ran on, as the browser said' })),
          onDomains: Type.Boolean({ description: 'Whether that page is on your domains: orders from elsewhere are refused (origin_not_allowed)' }),
        },
        { description: 'The tag announced the test link’s landing: it runs on that page and kept the test’s click id' },
      ),
    ),
    orders: Type.Array(Type.Ref(TagReport), { description: 'What your pages reported with the test’s click id, oldest first: what the tag read, or why it was refused. Never orders' }),
    otherRefusals: Type.Array(Type.Ref(TagReport), { description: 'Reports refused since the test began that carried no test’s click id (an order placed without opening the test link in that browser, say), oldest first' }),
  },
  { $id: 'TagTest', description: 'A test order: proves your install without a real sale. Kept 7 days' },
);
export type TagTest = Static<typeof TagTest>;

export const TagVisitInput = Type.Object(
  {
    key: PublishableKey,
    clickId: { ...ClickId, description: 'The click id the test link carried, as the tag kept it' },
  },
  { additionalProperties: false, ...Examples({ visit: ['A test link’s landing, as the tag announces it', { key: 'afpub_3kT9mQ2vX8bN4cR7yL1wZ5hJ', clickId: '9f2c4e1a7b3d4c5e8f6a1b2c3d4e5f60' }] }) },
);
export type TagVisitInput = Static<typeof TagVisitInput>;

export const TagInstall = Type.Object(
  {
    publishableKey: Type.Optional(Type.String({ description: 'Absent until you make one (POST /advertiser/tag/publishable-key)' })),
    scriptUrl: Type.String({ description: 'The tag’s versioned address (kept a day by browsers)' }),
    integrity: Type.String({ description: 'The current version’s Subresource Integrity value (sha384). The snippets leave it out, so a pasted snippet keeps working when the network updates the tag; pin it only if you replace your snippet with each update' }),
    clickIdParam: Type.String({ description: 'The query parameter the tag reads the click id from on landing pages' }),
    attributionWindowDays: Type.Integer({ description: 'How long the tag keeps the click id' }),
    trustTagConversions: Type.Boolean(),
    snippets: Type.Optional(
      Type.Object(
        {
          everyPage: Type.String({ description: 'For every page of the shop, in its head: your settings, then the tag' }),
          orderPage: Type.String({ description: 'For the order confirmation page: replace ORDER_ID, VALUE_IN_CENTS (integer cents) and CURRENCY; items and customer may be added as POST /track/conversions takes them. Optional when the page pushes a GA4 or Universal Analytics purchase event to window.dataLayer (Google Tag Manager, most shop platforms): the tag reports that event itself; when the page makes this call, the call is reported instead' }),
          pixel: Type.String({ description: 'For an order page that runs no script: replace ORDER_ID, VALUE_IN_CENTS and CLICK_ID (the click id your server kept from the landing address)' }),
          shopifyPixel: Type.String({ description: 'For a Shopify shop, instead of the others: a custom pixel (Settings › Customer events › Add custom pixel; JavaScript only). It keeps the click id on landing pages and reports checkout_completed, its discount code included' }),
        },
        { description: 'What to paste; absent until you make a publishable key' },
      ),
    ),
    reports: Type.Array(Type.Ref(TagReport), { description: 'What the tag and the pixel sent lately with your key, newest first (kept 7 days)' }),
    awaitingConfirmation: Type.Optional(
      Type.Object(
        {
          orders: Type.Integer({ minimum: 0, description: 'Pending orders only the tag or the pixel reported, not held, not yet locked' }),
          firstCancelAt: Type.Optional(Type.String({ format: 'date-time', description: 'The earliest lock date among them: when the first is canceled unless you confirm it (your server reports it, you approve it, or a reconciliation of your shop’s export does)' })),
        },
        { description: 'Absent when you trust your tag’s conversions (they are approved at their lock date instead)' },
      ),
    ),
  },
  { $id: 'TagInstall', description: 'What your shop’s pages need to report conversions themselves' },
);
export type TagInstall = Static<typeof TagInstall>;
