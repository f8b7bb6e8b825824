import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Examples } from './common.js';

const Ids = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 500, uniqueItems: true, description });
const Cents = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description });

const conditionProperties = {
    productIds: Type.Optional(Ids('Item condition: your product ids; an item matches when its id is one of them')),
    categories: Type.Optional(
      Ids('Item condition: category names, compared without case; an item matches when the catalogue product with its id has one of them in any option (an item with no such product matches none)'),
    ),
    customer: Type.Optional(Type.Union([Type.Literal('new'), Type.Literal('returning')], { description: 'Order condition: the customer is new, or returning, as you reported it (customer.isNew); an order you said neither of matches neither' })),
    channelKinds: Type.Optional(Ids('Order condition: channel kind ids (site, instagram…, GET /affiliate/channels/available) of the channel whose link earned the order; an order without a channel (a coupon order) matches none')),
    affiliateGroups: Type.Optional(Ids('Order condition: ids of your affiliate groups (PUT /advertiser/groups/{id}; an id you have no group for is refused); the order’s affiliate is a member of one of them, named by you or placed by a tier, when the commission is computed')),
    coupon: Type.Optional(
      Type.Object(
        { codes: Type.Optional(Ids('One of these codes, compared without case')) },
        { additionalProperties: false, description: 'Order condition: a coupon code was used: any ({}), or one of codes' },
      ),
    ),
    orderValue: Type.Optional(
      Type.Object(
        { min: Type.Optional(Cents('At least this order value, in cents')), max: Type.Optional(Cents('At most this order value, in cents')) },
        { additionalProperties: false, minProperties: 1, description: 'Order condition: the order value in cents, within min and max (both included); min may not exceed max' },
      ),
    ),
};
const CONDITIONS_DESCRIPTION = 'All optional, all must hold. Item conditions (productIds, categories) are checked per item, the others per order. No conditions: every item matches';

export const CommissionRuleConditions = Type.Object(conditionProperties, { additionalProperties: false, description: CONDITIONS_DESCRIPTION });

const ruleProperties = {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Your label for the rule, shown in explanations' })),
    conditions: Type.Optional(CommissionRuleConditions),
    transfer: Type.Union([Type.Literal('cps'), Type.Literal('cpa')], { description: 'cps: a share of each matching item’s price × quantity; cpa: a fixed amount' }),
    value: Type.Number({ minimum: 0, description: 'cps: percent, two decimals at most (7.5 = 7.5 %), at most 100; cpa: integer cents' }),
    per: Type.Optional(Type.Union([Type.Literal('order'), Type.Literal('item')], { description: 'cpa only: paid once per order (the default) whatever the number of items the rule takes, or per unit of each item it takes (value × quantity)' })),
    cap: Type.Optional(Cents('The most this rule pays in one order, in cents: its lines are paid in order until the cap is reached')),
};
const RULE_DESCRIPTION = 'A commission rule: when its conditions hold, what it pays';

/** The conditions as an affiliate reads them: of a coupon condition's codes, its own only. */
const AffiliateRuleConditions = Type.Object(
  {
    ...conditionProperties,
    coupon: Type.Optional(
      Type.Object(
        {
          codes: Type.Optional(Ids('Your own codes (GET /affiliate/coupons) among those the rule names')),
          otherCodes: Type.Optional(Type.Integer({ minimum: 1, description: 'How many other codes the rule names: other affiliates’ codes, or codes given to no one, not shown to you' })),
        },
        { additionalProperties: false, description: 'Order condition: a coupon code was used: any (neither codes nor otherCodes), or one of the codes the brand named' },
      ),
    ),
  },
  { additionalProperties: false, description: CONDITIONS_DESCRIPTION },
);

export const CommissionRule = Type.Object(ruleProperties, { $id: 'CommissionRule', additionalProperties: false, description: RULE_DESCRIPTION });
export type CommissionRuleInput = Static<typeof CommissionRule>;

export const CommissionRulesInput = Type.Object(
  {
    // Inline: request bodies are validated without the shared schemas.
    rules: Type.Array(Type.Object(ruleProperties, { additionalProperties: false, description: RULE_DESCRIPTION }), {
      maxItems: 50,
      description:
        'Your rules in the order they are tried: each item goes to the first rule whose conditions hold, else to your default rule (your brand profile’s commission). A rule after one without conditions could never match and is refused, as is an impossible orderValue range; an empty list leaves the default rule alone',
    }),
  },
  {
    additionalProperties: false,
    ...Examples({
      coupons: [
        'Less on coupon orders, more on one category, capped',
        {
          rules: [
            { name: 'Coupon sites', conditions: { coupon: {} }, transfer: 'cps', value: 2 },
            { name: 'Shoes', conditions: { categories: ['Shoes'] }, transfer: 'cps', value: 10, cap: 5000 },
            { name: 'First order bonus', conditions: { customer: 'new', orderValue: { min: 10000 } }, transfer: 'cpa', value: 1500, per: 'order' },
          ],
        },
      ],
      none: ['Back to the default rule alone', { rules: [] }],
    }),
  },
);

const DefaultRule = (description: string) => Type.Object({ transfer: Type.Union([Type.Literal('cps'), Type.Literal('cpa')]), value: Type.Number() }, { description });

const BRAND_DEFAULT =
  'Your default rule (your brand profile’s commission, PATCH /advertiser/brand), applied after the last rule: cps percent of each item’s price × quantity, or cpa cents once per order. With no rules it applies to the order value, as it always did';
const AFFILIATE_DEFAULT =
  'The brand’s default rule (Brand.commission once in force), applied after the last rule: cps percent of each item’s price × quantity, or cpa cents once per order. With no rules it applies to the order value';

const TermsTimes = {
  savedAt: Type.Optional(DateTime),
  effectiveAt: Type.Optional({ ...DateTime, description: 'When it came into force: orders reported from then on are computed with it' }),
};

const RuleRef = Type.Object(
  {
    position: Type.Optional(Type.Integer({ minimum: 1, description: 'The rule’s place among the rules, from 1' })),
    name: Type.Optional(Type.String()),
  },
  { description: 'A rule: its place and name; neither: the default rule' },
);
const Pays = Type.Object(
  {
    kind: Type.Union([Type.Literal('share'), Type.Literal('perUnit'), Type.Literal('perOrder')]),
    units: Type.Integer({ description: 'share: basis points of each unit’s base (1000 is 10 %); perUnit and perOrder: cents' }),
    cap: Type.Optional(Type.Integer({ description: 'The most it pays in one order, in cents' })),
  },
  { description: 'What a rule pays' },
);
const TermsLowering = Type.Object(
  {
    cause: Type.Union(
      [
        Type.Object({ kind: Type.Literal('outcome'), rule: RuleRef, pays: Pays, paidNowBy: RuleRef, paidNow: Pays, fromValue: Type.Optional(Type.Integer({ description: 'Cents: orders from this value earn less' })) }, { description: 'rule would pay pays where paidNowBy pays paidNow now' }),
        Type.Object({ kind: Type.Literal('ceiling'), rule: RuleRef, most: Type.Integer({ description: 'Cents: the most rule would pay in an order, less than the rules it replaces could pay together' }) }),
        Type.Object({ kind: Type.Literal('valueNotItems') }, { description: 'Without rules, the default rule alone applies, to the order’s value, which its items may exceed' }),
      ],
      { description: 'Why some order could earn less' },
    ),
    example: Type.Optional(
      Type.Object(
        { value: Type.Integer({ description: 'Cents' }), before: Type.Integer({ description: 'What it earns under the terms in force, cents' }), after: Type.Integer({ description: 'What it would earn, cents' }) },
        { description: 'An order that would earn less' },
      ),
    ),
  },
  { description: 'lowers as values, for a page to say in its reader’s language' },
);

const Upcoming = <T extends TSchema>(rules: T, defaultDescription: string) =>
  Type.Optional(
    Type.Object(
      {
        version: Type.Integer({ minimum: 1 }),
        rules,
        default: DefaultRule(defaultDescription),
        savedAt: DateTime,
        effectiveAt: { ...DateTime, description: 'Orders reported from then on are computed with these terms; before, with those in force' },
        lowers: Type.String({
          description:
            'Why the change waits for the notice: how it could pay some orders less, with an order that would earn less when one was found (e.g. the default rule would pay 5.00 BRL per order instead of 10 %, less on orders from 50.05 BRL: e.g. an order of 100.00 BRL would earn 5.00 BRL instead of 10.00 BRL)',
        }),
        lowering: Type.Optional(TermsLowering),
      },
      { description: 'The latest change, saved but waiting for the notice because it could pay some orders less; a new save replaces it' },
    ),
  );

export const CommissionRules = Type.Object(
  {
    version: Type.Integer({ minimum: 0, description: 'The version in force: each save makes the next; 0 before you saved any. Each order keeps the version it was computed with, and a correction recomputes with that one' }),
    rules: Type.Array(Type.Ref(CommissionRule)),
    default: DefaultRule(BRAND_DEFAULT),
    ...TermsTimes,
    termsNoticeDays: Type.Integer({ minimum: 0, description: 'Days of notice a change that could pay some orders less waits before it takes effect (PATCH /advertiser/brand termsNoticeDays, never below the network’s least)' }),
    upcoming: Upcoming(Type.Array(Type.Ref(CommissionRule)), BRAND_DEFAULT),
  },
  {
    $id: 'CommissionRules',
    description:
      'Your commission terms in force, and the change waiting for its notice if any. A save is compared with the terms in force as a whole: one that pays every possible order at least as much (a raise: e.g. a rule paying 15 % on coupon orders above a 10 % default) takes effect at once; one that could pay some order less (e.g. a lower share, a new or lower cap, a fixed amount where a share was paid, a rule narrowed to fewer orders) after termsNoticeDays. Your affiliates are told either way (webhook program.terms_changed, mail), a raise as a raise',
  },
);

const AffiliateRule = Type.Object({ ...ruleProperties, conditions: Type.Optional(AffiliateRuleConditions) }, { additionalProperties: false, description: RULE_DESCRIPTION });

export const BrandCommissionRules = Type.Object(
  {
    version: Type.Integer({ minimum: 0, description: 'The brand’s version in force: each save makes the next; 0 before it saved any' }),
    rules: Type.Array(AffiliateRule, { description: 'In the order they are tried: each item of an order goes to the first rule whose conditions hold, else to the default rule' }),
    default: DefaultRule(AFFILIATE_DEFAULT),
    ...TermsTimes,
    termsNoticeDays: Type.Integer({ minimum: 0, description: 'Days of notice the brand gives before a change that could pay some orders less' }),
    upcoming: Upcoming(Type.Array(AffiliateRule), AFFILIATE_DEFAULT),
  },
  { $id: 'BrandCommissionRules', description: 'A brand’s commission terms in force, and the change waiting for its notice if any, as an affiliate reads them' },
);

const CommissionLine = Type.Object(
  {
    rule: Type.Integer({ minimum: 0, description: 'Index of the rule that took the item in the order’s rules version; the default rule’s is the number of rules' }),
    ruleName: Type.Optional(Type.String({ description: 'That rule’s name, when it has one' })),
    isDefault: Type.Boolean({ description: 'true: no rule matched, the default rule applied' }),
    item: Type.Optional(Type.Integer({ minimum: 0, description: 'The item’s index among the order’s items (a per-item line)' })),
    itemId: Type.Optional(Type.String({ description: 'That item’s id' })),
    items: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { description: 'A cpa rule paid once per order: the indexes of the items it took' })),
    transfer: Type.Union([Type.Literal('cps'), Type.Literal('cpa')]),
    per: Type.Optional(Type.Union([Type.Literal('order'), Type.Literal('item')], { description: 'cpa only' })),
    base: Type.Integer({ description: 'cps: the cents the share applies to (the item’s price × quantity; the order value when the order has no items or no rules applied); cpa: units (the item’s quantity, or 1 per order)' }),
    rate: Type.Optional(Type.Number({ description: 'cps: percent' })),
    amount: Type.Optional(Type.Integer({ description: 'cpa: cents per unit' })),
    result: Type.Integer({ description: 'base × rate / 100 rounded half up to the cent, or base × amount: before the rule’s cap' }),
    commission: Type.Integer({ description: 'What the line pays: result, less what the rule’s cap took' }),
    capped: Type.Boolean({ description: 'true: the rule’s cap reduced this line' }),
    remainder: Type.Optional(Type.Boolean({ description: 'true: the part of the order value its items do not cover (shipping, a fee), paid as one more unit: a share pays on it, an amount does not' })),
  },
  { description: 'One step of the arithmetic, in integer cents' },
);

export const OrderCommission = Type.Object(
  {
    id: Type.String({ description: 'The network’s order id' }),
    orderId: Type.String({ description: 'The brand’s order id' }),
    currency: Currency('ISO 4217 code of every amount'),
    value: Type.Integer({ description: 'The order value in cents' }),
    rulesVersion: Type.Integer({ minimum: 0, description: 'The brand’s commission rules version the commission was computed with (0: the default rule alone, on the order value); corrections recompute with the same version' }),
    lines: Type.Array(CommissionLine),
    capped: Type.Array(
      Type.Object({ rule: Type.Integer(), cap: Type.Integer(), uncapped: Type.Integer({ description: 'What the rule’s lines came to before its cap' }) }),
      { description: 'The rules whose cap applied in this order' },
    ),
    total: Type.Integer({ description: 'The sum of the lines’ commission and the rounding: the order’s commission unless commissionReason says the network canceled it (then commission is 0)' }),
    rounding: Type.Optional(Type.Integer({ description: 'What rounding the lines’ exact sum once adds to their cents (present when not 0): the total is the exact sum rounded half up once, so an order split between rules loses no cent to rounding' })),
    commission: Type.Integer({ description: 'The commission stored on the order, in cents' }),
    commissionStatus: Type.String(),
    commissionReason: Type.Optional(Type.String({ description: 'Why the network canceled the commission (see the order’s commissionReason); commission is then 0' })),
    attribution: Type.String({ description: 'Why the affiliate gets the order: click, coupon or claim' }),
    click: Type.Optional(
      Type.Object(
        {
          clickId: Type.Optional(Type.String()),
          clickedAt: Type.Optional(DateTime),
          linkCode: Type.Optional(Type.String()),
          channelId: Type.Optional(Type.String()),
          channelKind: Type.Optional(Type.String()),
          country: Type.Optional(Type.String({ description: 'ISO 3166 alpha-2 of the click (ZZ: unknown)' })),
        },
        { description: 'The click facts kept on the order (they outlive the click record); omitted for an order without a click' },
      ),
    ),
    coupon: Type.Optional(Type.String({ description: 'The coupon code the order came with (to an affiliate: only its own codes)' })),
    changes: Type.Array(
      Type.Object({
        field: Type.Union([Type.Literal('value'), Type.Literal('commission')]),
        from: Type.Optional(Type.Integer({ description: 'Before the change, in cents' })),
        to: Type.Integer({ description: 'After the change, in cents' }),
        at: DateTime,
        by: Type.String({ description: 'brand, network or operator' }),
      }),
      { description: 'Each change of the order’s value and commission after it was reported (corrections, a takeover by the brand’s server, a cancellation by the network), oldest first; the lines are those of the last computation' },
    ),
  },
  { $id: 'OrderCommission', description: 'How an order’s commission was computed: the rule that took each item and the arithmetic in integer cents; the lines always sum to total' },
);

export const CommissionPreviewInput = Type.Object(
  {
    rules: Type.Optional(
      Type.Array(Type.Object(ruleProperties, { additionalProperties: false, description: RULE_DESCRIPTION }), {
        maxItems: 50,
        description: 'Rules to try, not saved, checked as PUT /advertiser/commission-rules checks them; left out: your rules in force',
      }),
    ),
    order: Type.Object(
      {
        items: Type.Array(
          Type.Object(
            {
              id: Type.String({ minLength: 1, maxLength: 200, description: 'Your product id (its catalogue categories are read for category conditions)' }),
              price: Cents('Unit price in cents'),
              quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 100, description: 'The order’s items; none: the order as one unit of its value' },
        ),
        value: Type.Optional(Cents('The order value in cents; left out: the items’ price × quantity summed')),
        customer: Type.Optional(Type.Union([Type.Literal('new'), Type.Literal('returning')], { description: 'The customer as your report would say; left out: neither' })),
        channelKind: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'The kind of the channel whose link earned the order; left out: none (a coupon order)' })),
        coupon: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The coupon code the order came with' })),
        affiliateGroups: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50, description: 'The groups of the order’s affiliate' })),
      },
      { additionalProperties: false, description: 'An example order, as a report would describe it' },
    ),
  },
  {
    additionalProperties: false,
    ...Examples({
      saved: ['Your saved rules on two shoes and a hat', { order: { items: [{ id: 'shoe-1', price: 5000, quantity: 2 }, { id: 'hat-1', price: 1999, quantity: 1 }] } }],
      unsaved: [
        'Rules not saved yet, on a new customer’s coupon order',
        { rules: [{ name: 'Coupon sites', conditions: { coupon: {} }, transfer: 'cps', value: 2 }], order: { items: [{ id: 'shoe-1', price: 5000, quantity: 1 }], customer: 'new', coupon: 'SPRING10' } },
      ],
    }),
  },
);

export const CommissionPreview = Type.Object(
  {
    currency: Currency('ISO 4217 code of every amount'),
    value: Type.Integer({ description: 'The example order’s value in cents' }),
    lines: Type.Array(CommissionLine),
    capped: Type.Array(
      Type.Object({ rule: Type.Integer(), cap: Type.Integer(), uncapped: Type.Integer({ description: 'What the rule’s lines came to before its cap' }) }),
      { description: 'The rules whose cap applied' },
    ),
    total: Type.Integer({ description: 'The sum of the lines’ commission and the rounding: what the order would earn, in cents' }),
    rounding: Type.Optional(Type.Integer({ description: 'What rounding the lines’ exact sum once adds to their cents (present when not 0): the total is the exact sum rounded half up once, so an order split between rules loses no cent to rounding' })),
  },
  { $id: 'CommissionPreview', description: 'What an example order would earn, line by line, computed as a reported order’s commission; nothing is stored' },
);
