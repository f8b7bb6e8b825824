// A brand's commission rules through the API: GET and PUT /advertiser/commission-rules (checked as
// a whole, each save a version), orders computed with the version in force when reported and
// corrected with that same version, and each order's explanation for its affiliate and its brand.
// The property: for random rule sets, group memberships and orders (corrections included), the explanation sums to
// the stored commission, and each item went to the first rule that matches it (checked against a
// model written here). COMMISSION_PROPERTY_ORDERS sets how many orders (80 by default);
// COMMISSION_PROPERTY_SEED replays a run (its seed is printed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWithKeys } from '../helpers/api.js';
import type { Harness } from '../helpers/harness.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { brandKey, clickLink, conversionOf, createLink, freshClick, item, patchStatus, report, type Item } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';
import { SeededRandom } from '../../src/seed/seeded-random.js';
import type { CommissionRule } from '../../src/domain/orders/commission-rules.js';
import type { OrderCommission } from '../../src/domain/orders/commission-rules-service.js';

const SEED = Number(process.env.COMMISSION_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ORDERS = Number(process.env.COMMISSION_PROPERTY_ORDERS ?? 80);

let h: Harness;
let aff1: string;
let aff2: string;
let acme: string;
let umbrella: string;

/** The test catalogue of acme: product id → categories as the catalogue has them. */
const CATALOGUE: Record<string, string[]> = { 'cr-1': ['Shoes'], 'cr-2': ['Bags'], 'cr-3': ['Shoes', 'Sale'], 'cr-4': ['Hats'] };
/** Item ids an order may have: the catalogue's and one the catalogue lacks. */
const SKUS = [...Object.keys(CATALOGUE), 'cr-missing'];
/** The brand's groups the random rules name; aff-1 is placed in some of them at random as orders go. */
const GROUPS = ['g-best', 'g-coupon'];
const REGISTERED = 'RULES10';
const UNREGISTERED = 'Walkin5';

before(async () => {
  // Rules in force as soon as saved: notice is the subject of terms-notice.test.ts.
  ({ h, aff1, aff2 } = await startWithKeys({ TERMS_NOTICE_MIN_DAYS: '0' }));
  acme = await brandKey(h, BRANDS.acme);
  const notice = await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { termsNoticeDays: 0 }, headers: { 'x-api-key': acme } });
  assert.equal(notice.statusCode, 200, notice.body);
  umbrella = await brandKey(h, BRANDS.umbrella);
  for (const [id, categories] of Object.entries(CATALOGUE)) {
    const product = productInput(id, BRANDS.acme, `Product ${id}`, 1000);
    product.options = product.options!.map((option) => ({ ...option, categories }));
    await servicesFor(h.service.database).imports.upsertProduct(product);
  }
  const res = await h.request({ method: 'PUT', url: `/advertiser/coupons/${REGISTERED}`, payload: { affiliateId: 'aff-1' }, headers: { 'x-api-key': acme } });
  assert.equal(res.statusCode, 201, res.body);
  for (const id of GROUPS) await placeInGroup(id, false);
});

/** Puts aff-1 in the brand's group, or takes it out (the group is created the first time). */
async function placeInGroup(id: string, member: boolean): Promise<void> {
  const res = await h.request({ method: 'PUT', url: `/advertiser/groups/${id}`, payload: { name: id, members: member ? ['aff-1'] : [] }, headers: { 'x-api-key': acme } });
  assert.ok([200, 201].includes(res.statusCode), res.body);
}
after(async () => {
  await h.close();
});

let seq = 0;
const oid = (label: string) => `CR-${label}-${++seq}`;

const putRules = (rules: unknown[], key = acme) => h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules }, headers: { 'x-api-key': key } });
const getRules = async (key = acme) => {
  const res = await h.request({ method: 'GET', url: '/advertiser/commission-rules', headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { version: number; rules: CommissionRule[]; default: { transfer: string; value: number }; savedAt?: string } }>().data;
};
async function saveRules(rules: CommissionRule[]): Promise<number> {
  const res = await putRules(rules);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { version: number } }>().data.version;
}
async function brandExplanation(orderId: string, key = acme): Promise<OrderCommission> {
  const res = await h.request({ method: 'GET', url: `/advertiser/conversions/${encodeURIComponent(orderId)}/commission`, headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: OrderCommission }>().data;
}
async function affiliateExplanation(id: string, key = aff1): Promise<OrderCommission> {
  const res = await h.request({ method: 'GET', url: `/affiliate/orders/${encodeURIComponent(id)}/commission`, headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: OrderCommission }>().data;
}
const sumOfLines = (e: OrderCommission) => e.lines.reduce((sum, line) => sum + line.commission, 0) + (e.rounding ?? 0);

describe('GET and PUT /advertiser/commission-rules', () => {
  test('a brand without rules reads version 0, its default rule, no rules', async () => {
    const rules = await getRules(umbrella);
    assert.equal(rules.version, 0);
    assert.deepEqual(rules.rules, []);
    assert.equal(rules.default.transfer, 'cpa');
    assert.equal(rules.savedAt, undefined);
  });

  test('each save is a version; the list is read back as saved', async () => {
    const before = (await getRules()).version;
    const first: CommissionRule[] = [{ name: 'Coupon orders', conditions: { coupon: {} }, transfer: 'cps', value: 2.5 }];
    const v1 = await saveRules(first);
    assert.equal(v1, before + 1);
    const second: CommissionRule[] = [
      { conditions: { categories: ['shoes'], orderValue: { min: 100, max: 100 } }, transfer: 'cpa', value: 300, per: 'item', cap: 900 },
      { transfer: 'cps', value: 12.34 },
    ];
    const v2 = await saveRules(second);
    assert.equal(v2, v1 + 1);
    const read = await getRules();
    assert.equal(read.version, v2);
    assert.deepEqual(read.rules, second);
    assert.ok(read.savedAt);
    // Versions are kept: the earlier one is still there for its orders.
    const rows = await h.service.database.db.selectFrom('commission_rule_versions').select(['version', 'rules']).where('brand_id', '=', BRANDS.acme).orderBy('version').execute();
    assert.deepEqual(JSON.parse(rows.find((r) => r.version === v1)!.rules), first);
  });

  test('a list is refused whole, naming the rule and the reason, and nothing is saved', async () => {
    const before = await getRules();
    const cases: Array<[unknown[], RegExp]> = [
      [[{ conditions: { productIds: ['cr-1'] }, transfer: 'cps', value: 5 }, { transfer: 'cps', value: 5 }, { conditions: { customer: 'new' }, transfer: 'cps', value: 9 }], /^rules\[2\]: unreachable: rules\[1\] has no conditions/],
      [[{ conditions: {}, transfer: 'cps', value: 5 }, { conditions: { customer: 'new' }, transfer: 'cps', value: 9 }], /^rules\[1\]: unreachable: rules\[0\]/],
      [[{ transfer: 'cps', value: 1, conditions: { customer: 'new' } }, { conditions: { orderValue: { min: 5000, max: 1000 } }, transfer: 'cps', value: 5 }], /^rules\[1\]\.conditions\.orderValue: impossible range: min 5000 is greater than max 1000/],
      [[{ transfer: 'cps', value: 100.5 }], /^rules\[0\]\.value: a cps rule is a percentage: at most 100/],
      [[{ transfer: 'cps', value: 7.555 }], /^rules\[0\]\.value: 7\.555 has more than two decimals/],
      [[{ transfer: 'cps', value: 5, per: 'item' }], /^rules\[0\]\.per: only a cpa rule/],
      [[{ transfer: 'cpa', value: 10.5 }], /^rules\[0\]\.value: a cpa rule is an amount in integer cents/],
      [[{ conditions: { channelKinds: ['carrier-pigeon'] }, transfer: 'cpa', value: 10 }], /^rules\[0\]\.conditions\.channelKinds: "carrier-pigeon" is not a channel kind/],
      [[{ transfer: 'cpa', value: 10, conditions: { customer: 'new' } }, { conditions: { affiliateGroups: ['g-best', 'no-such-group'] }, transfer: 'cpa', value: 10 }], /^rules\[1\]\.conditions\.affiliateGroups: you have no group "no-such-group"/],
    ];
    for (const [rules, message] of cases) {
      const res = await putRules(rules);
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json<{ code: string; message: string; details?: { position?: number; rule?: string } }>();
      assert.equal(body.code, 'invalid_commission_rules', res.body);
      assert.match(body.message, message);
      // A page words it from the rule's number and what it breaks, never from the message.
      assert.equal(body.details?.position, Number(/^rules\[(\d+)\]/.exec(body.message)![1]) + 1, res.body);
      assert.match(body.details?.rule ?? '', /^[a-z][a-z_0-9]+$/, res.body);
    }
    const unknownGroup = (await putRules([{ conditions: { affiliateGroups: ['no-such-group'] }, transfer: 'cpa', value: 10 }])).json<{ details: unknown }>();
    assert.deepEqual(unknownGroup.details, { position: 1, rule: 'unknown_group', values: ['no-such-group'] });
    // The schema's own checks name the field too.
    for (const rules of [[{ conditions: { productIds: [] }, transfer: 'cps', value: 5 }], [{ transfer: 'cpm', value: 5 }], [{ transfer: 'cps', value: 5, conditions: { orderValue: {} } }], [{ transfer: 'cps', value: -1 }]]) {
      const res = await putRules(rules);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json<{ message: string }>().message, /^rules\[0\]/);
    }
    assert.deepEqual(await getRules(), before);
  });

  test('one brand’s rules are its own', async () => {
    const umbrellaBefore = await getRules(umbrella);
    await saveRules([{ conditions: { customer: 'new' }, transfer: 'cps', value: 3 }]);
    assert.deepEqual(await getRules(umbrella), umbrellaBefore);
  });
});

describe('orders under rules', () => {
  test('without rules the default rule applies to the order value as before, one line', async () => {
    await saveRules([]);
    const orderId = oid('plain');
    // Items that do not add up to the value exactly (within the tolerance): the value decides.
    const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: 1999, items: [item(1000), item(990, 1, 'cr-2')] }), 201);
    assert.equal(created.commission, 150); // 7.5 % of 1,999 = 149.925 → 150
    const e = await brandExplanation(orderId);
    assert.equal(e.lines.length, 1);
    assert.deepEqual({ base: e.lines[0]!.base, rate: e.lines[0]!.rate, result: e.lines[0]!.result, isDefault: e.lines[0]!.isDefault }, { base: 1999, rate: 7.5, result: 150, isDefault: true });
    assert.equal(e.total, 150);
    assert.equal(e.commission, 150);
  });

  test('an order keeps the version it was computed with; a correction recomputes with it, a new order takes the new one', async () => {
    const v = await saveRules([{ name: 'Shoes', conditions: { categories: ['SHOES'] }, transfer: 'cps', value: 10 }]);
    const orderId = oid('version');
    const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: 3000, items: [item(1000, 2, 'cr-1'), item(1000, 1, 'cr-4')] }), 201);
    // Shoes 10 % of 2,000 = 200, the hat at the default 7.5 % of 1,000 = 75.
    assert.equal(created.commission, 275);
    await saveRules([{ conditions: { categories: ['shoes'] }, transfer: 'cps', value: 1 }]);
    const corrected = conversionOf(await patchStatus(h, acme, orderId, { value: 2000, items: [item(1000, 1, 'cr-1'), item(1000, 1, 'cr-4')], reason: 'one pair returned' }), 200);
    assert.equal(corrected.commission, 175);
    const e = await brandExplanation(orderId);
    assert.equal(e.rulesVersion, v);
    assert.deepEqual(e.lines.map((l) => [l.rule, l.ruleName, l.base, l.commission]), [[0, 'Shoes', 1000, 100], [1, undefined, 1000, 75]]);
    assert.deepEqual(e.changes.map((c) => [c.field, c.from, c.to, c.by]), [['value', 3000, 2000, 'brand'], ['commission', 275, 175, 'brand']]);
    assert.deepEqual((await affiliateExplanation(created.id)).changes, e.changes);
    const later = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId: oid('version-later'), value: 1000, items: [item(1000, 1, 'cr-3')] }), 201);
    assert.equal(later.commission, 10);
  });

  test('orders stored before rules read their default rule as version 0', async () => {
    const orderId = oid('legacy');
    const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: 2001, items: [item(2001)] }), 201);
    // As an order stored before this existed: version 0, no arithmetic kept.
    await h.service.database.db.updateTable('orders').set({ commission_rules_version: 0, commission_lines: null, commission: 150 }).where('id', '=', created.id).execute();
    const e = await affiliateExplanation(created.id);
    assert.equal(e.rulesVersion, 0);
    assert.equal(e.total, 150); // 7.5 % of 2,001 = 150.075 → 150
    assert.equal(e.commission, 150);
    // A correction recomputes with version 0: the default rule on the value.
    const corrected = conversionOf(await patchStatus(h, acme, orderId, { value: 2010, items: [item(2010)] }), 200);
    assert.equal(corrected.commission, 151); // 150.75 → 151
    assert.equal((await brandExplanation(orderId)).total, 151);
  });

  test('the brand’s server taking over an order its tag reported recomputes with the order’s version', async () => {
    const v = await saveRules([{ conditions: { categories: ['shoes'] }, transfer: 'cps', value: 10 }]);
    const keyRes = await h.request({ method: 'POST', url: '/advertiser/tag/publishable-key', headers: { 'x-api-key': acme } });
    assert.equal(keyRes.statusCode, 201, keyRes.body);
    const key = keyRes.json<{ data: { publishableKey: string } }>().data.publishableKey;
    const orderId = oid('takeover');
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const tag = await h.request({ method: 'POST', url: '/track/conversions', payload: { key, orderId, value: 1000, clickId, items: [item(1000, 1, 'cr-1')] }, headers: { origin: 'https://www.acme.com' }, remoteAddress: '192.0.2.77' });
    assert.equal(tag.statusCode, 202, tag.body);
    assert.equal((await brandExplanation(orderId)).commission, 100);
    await saveRules([{ conditions: { categories: ['shoes'] }, transfer: 'cps', value: 1 }]);
    const server = conversionOf(await report(h, acme, { clickId, orderId, value: 2000, items: [item(1000, 2, 'cr-1')] }), 200);
    assert.equal(server.commission, 200);
    const e = await brandExplanation(orderId);
    assert.equal(e.rulesVersion, v);
    assert.deepEqual(e.lines.map((l) => [l.rule, l.base, l.commission]), [[0, 2000, 200]]);
  });

  test('a cap limits what a rule pays in one order, taken in line order', async () => {
    await saveRules([{ conditions: { productIds: ['cr-1', 'cr-2'] }, transfer: 'cps', value: 50, cap: 700 }]);
    const orderId = oid('cap');
    const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: 3000, items: [item(1000, 1, 'cr-1'), item(1000, 1, 'cr-2'), item(1000, 1, 'cr-4')] }), 201);
    assert.equal(created.commission, 700 + 75);
    const e = await brandExplanation(orderId);
    assert.deepEqual(e.lines.map((l) => [l.result, l.commission, l.capped]), [[500, 500, false], [500, 200, true], [75, 75, false]]);
    assert.deepEqual(e.capped, [{ rule: 0, cap: 700, uncapped: 1000 }]);
  });

  test('the explanation is the order’s own: another affiliate or brand gets 404', async () => {
    await saveRules([]);
    const orderId = oid('isolated');
    const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: 1000, items: [item(1000)] }), 201);
    assert.equal((await affiliateExplanation(created.id)).commission, 75);
    assert.equal((await affiliateExplanation(orderId)).id, created.id); // by its brand order id too
    const foreign = await h.request({ method: 'GET', url: `/affiliate/orders/${created.id}/commission`, headers: { 'x-api-key': aff2 } });
    assert.equal(foreign.statusCode, 404, foreign.body);
    const otherBrand = await h.request({ method: 'GET', url: `/advertiser/conversions/${orderId}/commission`, headers: { 'x-api-key': umbrella } });
    assert.equal(otherBrand.statusCode, 404, otherBrand.body);
    assert.equal((await brandExplanation(orderId)).commission, 75);
  });
});

// ---- The property ----

interface OrderFacts {
  value: number;
  items: Item[];
  isNew?: boolean;
  channelKind?: string;
  coupon?: string;
  /** The groups the affiliate was in when the commission was computed (a correction reads them again). */
  groups: string[];
}

/** The model: the rule each unit (item, or the order without items) goes to, and the commission, written apart from the service's code. */
function model(rules: CommissionRule[], fallback: { transfer: string; value: number }, o: OrderFacts): { ruleOf: number[]; restRule?: number | undefined; total: number } {
  const bp = (percent: number) => Math.round(percent * 100);
  const half = (base: number, points: number) => Math.floor((base * points + 5000) / 10000);
  if (rules.length === 0) return { ruleOf: o.items.map(() => 0), total: fallback.transfer === 'cps' ? half(o.value, bp(fallback.value)) : fallback.value };
  const lower = (s: string) => s.toLowerCase();
  const orderOk = (r: CommissionRule) => {
    const c = r.conditions ?? {};
    if (c.customer && (o.isNew === undefined || o.isNew !== (c.customer === 'new'))) return false;
    if (c.channelKinds && !(o.channelKind && c.channelKinds.includes(o.channelKind))) return false;
    if (c.affiliateGroups && !c.affiliateGroups.some((g) => o.groups.includes(g))) return false;
    if (c.coupon && !(o.coupon && (!c.coupon.codes || c.coupon.codes.map(lower).includes(lower(o.coupon))))) return false;
    if (c.orderValue?.min !== undefined && o.value < c.orderValue.min) return false;
    if (c.orderValue?.max !== undefined && o.value > c.orderValue.max) return false;
    return true;
  };
  const itemOk = (r: CommissionRule, it: Item | undefined) => {
    const c = r.conditions ?? {};
    if (c.productIds && !(it && c.productIds.includes(it.id))) return false;
    if (c.categories && !(it && (CATALOGUE[it.id] ?? []).some((cat) => c.categories!.map(lower).includes(lower(cat))))) return false;
    return true;
  };
  const units: Array<Item | undefined> = o.items.length > 0 ? o.items : [undefined];
  // The value the items do not cover is one more unit, like an order without items.
  const itemized = o.items.reduce((sum, it) => sum + it.price * it.quantity, 0);
  const rest = o.items.length > 0 && o.value > itemized ? o.value - itemized : 0;
  const first = (it: Item | undefined) => {
    for (let i = 0; i < rules.length; i++) if (orderOk(rules[i]!) && itemOk(rules[i]!, it)) return i;
    return rules.length;
  };
  const ruleOf = units.map(first);
  const restRule = rest > 0 ? first(undefined) : undefined;
  const all = [...rules, { transfer: fallback.transfer as 'cps' | 'cpa', value: fallback.transfer === 'cps' ? fallback.value : fallback.value, per: 'order' as const }];
  // Exact amounts in ten-thousandths of a cent, the total rounded half up once.
  let exact = 0;
  all.forEach((rule, index) => {
    const mine = units.filter((_, u) => ruleOf[u] === index);
    const restHere = restRule === index && rule.transfer === 'cps';
    if (mine.length === 0 && !restHere) return;
    let sum = 0;
    if (rule.transfer === 'cps') {
      for (const it of mine) sum += (it ? it.price * it.quantity : o.value) * bp(rule.value);
      if (restHere) sum += rest * bp(rule.value);
    } else if ((rule.per ?? 'order') === 'order') sum = rule.value * 10000;
    else for (const it of mine) sum += rule.value * (it ? it.quantity : 1) * 10000;
    exact += rule.cap !== undefined ? Math.min(sum, rule.cap * 10000) : sum;
  });
  const total = Math.floor((exact + 5000) / 10000);
  return { ruleOf, restRule, total };
}

function randomRule(rnd: SeededRandom, mayBeBare: boolean): CommissionRule {
  const pickSome = <T>(values: readonly T[]) => {
    const some = values.filter(() => rnd.chance(0.5));
    return some.length > 0 ? some : [rnd.pick(values)];
  };
  const conditions: NonNullable<CommissionRule['conditions']> = {};
  const wanted = mayBeBare && rnd.chance(0.4) ? 0 : rnd.int(1, 3);
  while (Object.keys(conditions).length < wanted) {
    switch (rnd.int(0, 6)) {
      case 0: conditions.productIds = pickSome(SKUS); break;
      case 1: conditions.categories = pickSome(['shoes', 'BAGS', 'Sale', 'hats', 'Toys']); break;
      case 2: conditions.customer = rnd.pick(['new', 'returning'] as const); break;
      case 3: conditions.channelKinds = pickSome(['site', 'instagram']); break;
      case 4: conditions.affiliateGroups = pickSome(GROUPS); break;
      case 5: conditions.coupon = rnd.chance(0.5) ? {} : { codes: pickSome(['rules10', 'WALKIN5', 'other']) }; break;
      default: {
        const a = rnd.int(0, 8000);
        const b = rnd.int(a, 12000);
        conditions.orderValue = rnd.chance(0.3) ? { min: a } : rnd.chance(0.5) ? { max: b } : { min: a, max: b };
      }
    }
  }
  const cps = rnd.chance(0.6);
  return {
    ...(rnd.chance(0.3) && { name: `rule-${rnd.int(1, 99)}` }),
    ...(Object.keys(conditions).length > 0 && { conditions }),
    transfer: cps ? 'cps' : 'cpa',
    value: cps ? rnd.int(0, 3000) / 100 : rnd.int(0, 2500),
    ...(!cps && rnd.chance(0.7) && { per: rnd.pick(['order', 'item'] as const) }),
    ...(rnd.chance(0.3) && { cap: rnd.int(0, 1500) }),
  };
}

function randomItems(rnd: SeededRandom): Item[] {
  // Reported orders have one item at least (orders without any, from postbacks, are the unit test's).
  const count = rnd.int(1, 4);
  return Array.from({ length: count }, () => item(rnd.int(1, 60) * 50 + rnd.int(0, 49), rnd.int(1, 3), rnd.pick(SKUS)));
}
const itemsValue = (items: Item[], rnd: SeededRandom) => (items.length === 0 ? rnd.int(100, 12000) : items.reduce((s, it) => s + it.price * it.quantity, 0) + rnd.int(-50, 50));

/** Checks an explanation against the model and against the stored commission. */
async function check(orderId: string, networkId: string, rules: CommissionRule[], version: number, facts: OrderFacts, label: string): Promise<void> {
  const e = await brandExplanation(orderId);
  const fallback = { transfer: 'cps', value: 7.5 };
  const expected = model(rules, fallback, facts);
  const at = `${label} (seed ${SEED}): ${JSON.stringify({ rules, facts, lines: e.lines })}`;
  assert.equal(e.rulesVersion, version, at);
  assert.equal(sumOfLines(e), e.total, at);
  assert.equal(e.commissionReason, undefined, at);
  assert.equal(e.commission, e.total, at);
  assert.equal(e.total, expected.total, at);
  if (rules.length > 0) {
    const units = Math.max(1, facts.items.length);
    const seen: number[] = [];
    for (const line of e.lines) {
      if (line.remainder) {
        assert.equal(line.rule, expected.restRule, `the value the items do not cover went to rule ${line.rule}: ${at}`);
        continue;
      }
      const covered = line.items ?? (line.item !== undefined ? [line.item] : [-1]);
      for (const u of covered) {
        seen.push(u);
        assert.equal(line.rule, expected.ruleOf[u === -1 ? 0 : u], `unit ${u} went to rule ${line.rule}: ${at}`);
      }
    }
    if (facts.items.length > 0) assert.deepEqual(seen.filter((u) => u >= 0).sort((a, b) => a - b), Array.from({ length: units }, (_, i) => i), at);
  }
  const mine = await affiliateExplanation(networkId);
  assert.equal(mine.total, e.total, at);
  assert.deepEqual(mine.lines, e.lines, at);
  // The stored commission the lists read is the same.
  const row = await h.service.database.db.selectFrom('orders').select(['commission', 'commission_rules_version']).where('id', '=', networkId).executeTakeFirstOrThrow();
  assert.deepEqual(row, { commission: e.total, commission_rules_version: version }, at);
}

test(`random rules and orders, corrections included: explanations sum to the stored commission and the first matching rule wins (seed ${SEED})`, async () => {
  console.log(`# commission rules property: ${ORDERS} orders, seed ${SEED} (COMMISSION_PROPERTY_SEED=${SEED} replays it)`);
  const rnd = new SeededRandom(SEED);
  const links = { site: (await createLink(h, aff1, BRANDS.acme, { channelId: 'ch-aff1-site' })).code, instagram: (await createLink(h, aff1, BRANDS.acme, { channelId: 'ch-aff1-insta' })).code };
  const versions = new Map<number, CommissionRule[]>();
  let current = { version: 0, rules: [] as CommissionRule[] };
  const placed: Array<{ orderId: string; networkId: string; version: number; facts: OrderFacts }> = [];
  let groups: string[] = [];
  for (let n = 0; n < ORDERS; n++) {
    // Memberships change between orders, without a new version of the rules: they take effect at once.
    if (n % 4 === 0) {
      groups = GROUPS.filter(() => rnd.chance(0.5));
      for (const id of GROUPS) await placeInGroup(id, groups.includes(id));
    }
    if (n % 8 === 0) {
      const count = rnd.chance(0.15) ? 0 : rnd.int(1, 5);
      const rules = Array.from({ length: count }, (_, i) => randomRule(rnd, i === count - 1));
      current = { version: await saveRules(rules), rules };
      versions.set(current.version, rules);
    }
    const items = randomItems(rnd);
    const value = Math.max(0, itemsValue(items, rnd));
    const kind = rnd.pick(['site', 'instagram', 'none'] as const);
    const coupon = kind === 'none' ? REGISTERED : rnd.pick([undefined, undefined, REGISTERED.toLowerCase(), UNREGISTERED]);
    const isNew = rnd.pick([undefined, true, false]);
    const orderId = oid('prop');
    const body: Record<string, unknown> = { orderId, value, items };
    if (kind !== 'none') body.clickId = (await clickLink(h, links[kind])).clickId;
    if (coupon !== undefined) body.coupon = coupon;
    if (isNew !== undefined) body.customer = { isNew };
    const created = conversionOf(await report(h, acme, body), 201);
    const facts: OrderFacts = { value, items, groups, ...(isNew !== undefined && { isNew }), ...(kind !== 'none' && { channelKind: kind }), ...(coupon !== undefined && { coupon }) };
    await check(orderId, created.id, current.rules, current.version, facts, `order ${n}`);
    placed.push({ orderId, networkId: created.id, version: current.version, facts });
    // A correction of an earlier order, after rules may have changed: computed with its own version.
    if (rnd.chance(0.5)) {
      const target = rnd.pick(placed);
      // Quantities changed, an item dropped (one at least stays: a correction's items are never empty); an order without items changes its value.
      const kept = target.facts.items.map((it) => ({ ...it, quantity: rnd.int(1, 3) })).filter(() => rnd.chance(0.8));
      const changedItems = target.facts.items.length === 0 ? [] : kept.length > 0 ? kept : [target.facts.items[0]!];
      const changedValue = changedItems.length === 0 ? rnd.int(100, 12000) : Math.max(0, changedItems.reduce((s, it) => s + it.price * it.quantity, 0) + rnd.int(-50, 50));
      const res = await patchStatus(h, acme, target.orderId, { value: changedValue, ...(changedItems.length > 0 && { items: changedItems }) });
      assert.equal(res.statusCode, 200, res.body);
      // A correction that changes neither the value nor the items changes nothing: the commission
      // stays as computed before, with the groups of that time.
      const changes = changedValue !== target.facts.value || JSON.stringify(changedItems) !== JSON.stringify(target.facts.items);
      target.facts = { ...target.facts, value: changedValue, items: changedItems, groups: changes ? groups : target.facts.groups };
      await check(target.orderId, target.networkId, versions.get(target.version) ?? [], target.version, target.facts, `correction after order ${n}`);
    }
  }
});

describe("GET /affiliate/brands/{id}/commission-rules: a brand's rules as its affiliates read them", () => {
  const OTHER = 'OTHERS5';
  const readAs = (key: string, brandId: string = BRANDS.acme) => h.request({ method: 'GET', url: `/affiliate/brands/${brandId}/commission-rules`, headers: { 'x-api-key': key } });
  type Read = { version: number; rules: Array<{ name?: string; conditions?: { coupon?: { codes?: string[]; otherCodes?: number } } }>; default: { transfer: string; value: number } };

  test('the version in force and its default rule, with only the reader’s own codes of a coupon condition', async () => {
    const given = await h.request({ method: 'PUT', url: `/advertiser/coupons/${OTHER}`, payload: { affiliateId: 'aff-2' }, headers: { 'x-api-key': acme } });
    assert.equal(given.statusCode, 201, given.body);
    const version = await saveRules([
      { name: 'Coupon sites', conditions: { coupon: { codes: [REGISTERED.toLowerCase(), OTHER, 'NOBODYS1'] } }, transfer: 'cps', value: 2 },
      { name: 'Any code', conditions: { coupon: {} }, transfer: 'cps', value: 3 },
      { name: 'Shoes', conditions: { categories: ['Shoes'] }, transfer: 'cps', value: 10 },
    ]);
    const brand = await getRules();
    for (const [key, own, others] of [
      [aff1, [REGISTERED.toLowerCase()], 2],
      [aff2, [OTHER], 2],
    ] as const) {
      const res = await readAs(key);
      assert.equal(res.statusCode, 200, res.body);
      const read = res.json<{ data: Read }>().data;
      assert.equal(read.version, version);
      assert.deepEqual(read.default, brand.default);
      assert.deepEqual(read.rules.map((rule) => rule.name), ['Coupon sites', 'Any code', 'Shoes']);
      assert.deepEqual(read.rules[0]!.conditions!.coupon, { codes: own, otherCodes: others });
      assert.deepEqual(read.rules[1]!.conditions!.coupon, {}, 'any code: nothing to hide');
      assert.doesNotMatch(res.body, key === aff1 ? new RegExp(`${OTHER}|NOBODYS1`) : new RegExp(`${REGISTERED}|NOBODYS1`, 'i'));
    }
  });

  test('a private brand the affiliate is not approved for, or an unknown one, answers 404', async () => {
    // aff-1 is approved for Globex, aff-2 is not.
    assert.equal((await readAs(aff1, BRANDS.globex)).statusCode, 200);
    for (const res of [await readAs(aff2, BRANDS.globex), await readAs(aff1, '99999999-9999-4999-8999-999999999999')]) {
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json<{ code: string }>().code, 'not_found');
    }
  });
});

test('an accepted claim is computed with the rules in force when it is accepted, and explains itself', async () => {
  const version = await saveRules([{ name: 'Big orders', conditions: { orderValue: { min: 5_000 } }, transfer: 'cpa', value: 777 }]);
  const orderId = oid('claim');
  const filed = await h.request({
    method: 'POST',
    url: '/affiliate/claims',
    headers: { 'x-api-key': aff1 },
    payload: { organizationId: BRANDS.acme, orderId, orderedAt: new Date(Date.now() - 86_400_000).toISOString(), value: 10_000 },
  });
  assert.equal(filed.statusCode, 201, filed.body);
  const claim = filed.json<{ data: { id: string } }>().data;
  const answered = await h.request({ method: 'PATCH', url: `/advertiser/claims/${claim.id}`, headers: { 'x-api-key': acme }, payload: { status: 'accepted' } });
  assert.equal(answered.statusCode, 200, answered.body);
  const networkId = answered.json<{ data: { orderNetworkId: string } }>().data.orderNetworkId;
  for (const explained of [await brandExplanation(orderId), await affiliateExplanation(networkId)]) {
    assert.equal(explained.attribution, 'claim');
    assert.equal(explained.rulesVersion, version);
    assert.deepEqual(explained.lines.map((line) => [line.rule, line.commission]), [[0, 777]], 'the order-value rule, once');
    assert.equal(explained.total, 777);
    assert.equal(explained.commission, 777);
    assert.equal(sumOfLines(explained), explained.commission);
  }
});
