// The property of a change of terms, through the API: for random terms in force and random changes
// of them (rules through PUT /advertiser/commission-rules, the default through PATCH
// /advertiser/brand), a change the service puts in force at once (no `upcoming`) pays every
// random order at least as much as the terms it replaced, computed with explainCommission as the
// service computes an order's commission. A change that waits names an example order, which does
// earn less. Changes that raise by construction (a higher share or amount, a cap removed or raised,
// a rule on top paying more than any other) are never made to wait. TERMS_PROPERTY_CHANGES sets how
// many changes (40 by default), TERMS_PROPERTY_ORDERS how many orders each (150);
// TERMS_PROPERTY_SEED replays a run (its seed is printed).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';
import { SeededRandom } from '../../src/seed/seeded-random.js';
import { compareTerms, type CommissionTerms } from '../../src/domain/orders/terms-changes.js';
import { explainCommission, type CommissionOrderFacts, type CommissionRule } from '../../src/domain/orders/commission-rules.js';

const SEED = Number(process.env.TERMS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CHANGES = Number(process.env.TERMS_PROPERTY_CHANGES ?? 40);
const ORDERS = Number(process.env.TERMS_PROPERTY_ORDERS ?? 150);

const DAY = 86_400_000;
const clock = new ManualClock('2026-03-02T10:00:00.000Z');
const PRODUCTS = ['p1', 'p2', 'p3'];
const CATEGORIES = ['shoes', 'bags', 'sale'];
const KINDS = ['site', 'instagram'];
const GROUPS = ['g-1', 'g-2'];
const CODES = ['MARIA10', 'joao5'];

let h: Harness;
let acme: string;

before(async () => {
  h = await startHarness({}, { clock });
  acme = await brandKey(h, BRANDS.acme);
  for (const id of GROUPS) {
    const res = await h.request({ method: 'PUT', url: `/advertiser/groups/${id}`, payload: { name: id, members: [] }, headers: { 'x-api-key': acme } });
    assert.ok([200, 201].includes(res.statusCode), res.body);
  }
});
after(async () => {
  await h.close();
});

/** Terms as the API takes and shows them: the default in percent (cps) or cents (cpa). */
interface ApiTerms {
  rules: CommissionRule[];
  default: { transfer: 'cps' | 'cpa'; value: number };
}
type Read = ApiTerms & { version: number; effectiveAt?: string; upcoming?: ApiTerms & { lowers: string; effectiveAt: string } };

/** As explainCommission takes them: a cps default in basis points. */
const domainOf = (t: ApiTerms): CommissionTerms => ({ rules: t.rules, default: { transfer: t.default.transfer, value: t.default.transfer === 'cps' ? Math.round(t.default.value * 100) : t.default.value } });

async function read(): Promise<Read> {
  const res = await h.request({ method: 'GET', url: '/advertiser/commission-rules', headers: { 'x-api-key': acme } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Read }>().data;
}

/** Saves the default (a change of its own through the profile) when it differs, then the rules when they differ. */
async function save(t: ApiTerms, from?: ApiTerms): Promise<void> {
  if (!from || !isDeepStrictEqual(from.default, t.default)) {
    const patched = await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { commission: t.default }, headers: { 'x-api-key': acme } });
    assert.equal(patched.statusCode, 200, patched.body);
  }
  if (!from || !isDeepStrictEqual(JSON.parse(JSON.stringify(from.rules)), JSON.parse(JSON.stringify(t.rules)))) {
    const put = await h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules: t.rules }, headers: { 'x-api-key': acme } });
    assert.equal(put.statusCode, 200, put.body);
  }
}

// ---- Random terms ----

function someOf<T>(rnd: SeededRandom, values: readonly T[]): T[] {
  const some = values.filter(() => rnd.chance(0.5));
  return some.length > 0 ? some : [rnd.pick(values)];
}

function randomConditions(rnd: SeededRandom): CommissionRule['conditions'] | undefined {
  const c: NonNullable<CommissionRule['conditions']> = {};
  const wanted = rnd.chance(0.25) ? 0 : rnd.int(1, 3);
  while (Object.keys(c).length < wanted) {
    switch (rnd.int(0, 6)) {
      case 0: c.productIds = someOf(rnd, PRODUCTS); break;
      case 1: c.categories = someOf(rnd, CATEGORIES); break;
      case 2: c.customer = rnd.pick(['new', 'returning'] as const); break;
      case 3: c.channelKinds = someOf(rnd, KINDS); break;
      case 4: c.affiliateGroups = someOf(rnd, GROUPS); break;
      case 5: c.coupon = rnd.chance(0.5) ? {} : { codes: someOf(rnd, CODES) }; break;
      default: {
        const min = rnd.int(0, 40) * 100;
        c.orderValue = rnd.chance(0.35) ? { min } : rnd.chance(0.5) ? { max: min + 500 } : { min, max: min + rnd.int(0, 40) * 100 };
      }
    }
  }
  return wanted > 0 ? c : undefined;
}

function randomRule(rnd: SeededRandom): CommissionRule {
  const cps = rnd.chance(0.6);
  const conditions = randomConditions(rnd);
  return {
    ...(rnd.chance(0.3) && { name: `rule-${rnd.int(1, 9)}` }),
    ...(conditions && { conditions }),
    transfer: cps ? 'cps' : 'cpa',
    value: cps ? rnd.int(0, 2000) / 100 : rnd.int(0, 20) * 50,
    ...(!cps && rnd.chance(0.6) && { per: rnd.pick(['order', 'item'] as const) }),
    ...(rnd.chance(0.25) && { cap: rnd.int(0, 30) * 100 }),
  };
}

/** A rule after one without conditions could never match, and is refused: the list ends there. */
function reachable(rules: CommissionRule[]): CommissionRule[] {
  const bare = rules.findIndex((rule) => rule.conditions === undefined);
  return bare < 0 ? rules : rules.slice(0, bare + 1);
}

function randomTerms(rnd: SeededRandom): ApiTerms {
  const count = rnd.chance(0.2) ? 0 : rnd.int(1, 4);
  return {
    rules: reachable(Array.from({ length: count }, () => randomRule(rnd))),
    default: rnd.chance(0.75) ? { transfer: 'cps', value: rnd.int(0, 1500) / 100 } : { transfer: 'cpa', value: rnd.int(0, 20) * 50 },
  };
}

/** Random changes of the terms: some raise, some lower, most do a bit of both somewhere. */
function mutated(rnd: SeededRandom, t: ApiTerms): ApiTerms {
  const rules = t.rules.map((rule) => ({ ...rule }));
  let fallback = { ...t.default };
  for (let n = rnd.int(1, 3); n > 0; n--) {
    const rule = rules.length > 0 ? rnd.pick(rules) : undefined;
    switch (rnd.int(0, 7)) {
      case 0: if (rule) rule.value = rule.transfer === 'cps' ? Math.min(100, rule.value + rnd.int(0, 500) / 100) : rule.value + rnd.int(0, 300); break;
      case 1: if (rule) rule.value = rule.transfer === 'cps' ? Math.max(0, Math.round(rule.value * 100 - rnd.int(1, 300)) / 100) : Math.max(0, rule.value - rnd.int(1, 300)); break;
      case 2: if (rule) delete rule.cap; break;
      case 3: if (rule) rule.cap = rnd.int(0, 30) * 100; break;
      case 4: rules.splice(rnd.int(0, rules.length), 0, randomRule(rnd)); break;
      case 5: if (rule) rules.splice(rules.indexOf(rule), 1); break;
      case 6: fallback = { transfer: fallback.transfer, value: fallback.transfer === 'cps' ? Math.max(0, Math.min(100, Math.round(fallback.value * 100 + rnd.int(-200, 300)) / 100)) : Math.max(0, fallback.value + rnd.int(-200, 300)) }; break;
      default: if (rule) Object.assign(rule, { conditions: randomConditions(rnd) ?? { coupon: {} } });
    }
  }
  return { rules: reachable(rules), default: fallback };
}

/** A change that pays no order less by construction: values raised, caps lifted, or a rule on top paying a share no other beats. */
function raised(rnd: SeededRandom, t: ApiTerms): ApiTerms {
  const rules = t.rules.map((rule) => ({ ...rule }));
  const shares = [...rules.map((rule) => (rule.transfer === 'cps' ? rule.value : undefined)), t.default.transfer === 'cps' ? t.default.value : undefined];
  if (rules.length > 0 && shares.every((s) => s !== undefined) && rnd.chance(0.5)) {
    const top = Math.max(...shares);
    const conditions = randomConditions(rnd) ?? { coupon: {} };
    return { rules: reachable([{ name: 'On top', conditions, transfer: 'cps', value: Math.min(100, top + rnd.int(0, 500) / 100) }, ...rules]), default: t.default };
  }
  for (const rule of rules) {
    if (rnd.chance(0.5)) rule.value = rule.transfer === 'cps' ? Math.min(100, rule.value + rnd.int(0, 300) / 100) : rule.value + rnd.int(0, 300);
    if (rule.cap !== undefined && rnd.chance(0.5)) {
      if (rnd.chance(0.5)) delete rule.cap;
      else rule.cap += rnd.int(0, 500);
    }
  }
  const up = rnd.int(0, 300);
  return { rules, default: { transfer: t.default.transfer, value: t.default.transfer === 'cps' ? Math.min(100, t.default.value + up / 100) : t.default.value + up } };
}

// ---- Random orders ----

const tolerance = (value: number) => Math.max(100, Math.floor(value / 100));

function randomOrder(rnd: SeededRandom): CommissionOrderFacts {
  const items = rnd.chance(0.15)
    ? []
    : Array.from({ length: rnd.int(1, 6) }, () => ({
        id: rnd.pick([...PRODUCTS, 'p-other']),
        price: rnd.chance(0.1) ? 0 : rnd.chance(0.25) ? rnd.int(1, 100) : rnd.int(1, 50_000),
        quantity: rnd.chance(0.2) ? rnd.int(1, 30) : rnd.int(1, 3),
        categories: CATEGORIES.filter(() => rnd.chance(0.3)),
      }));
  const sum = items.reduce((s, item) => s + item.price * item.quantity, 0);
  // Items add up to the value within the tolerance a report allows (1 % or 100 cents).
  const shifted = Math.max(1, sum + rnd.int(-tolerance(sum), tolerance(sum)));
  const value = items.length === 0 ? rnd.int(1, 200_000) : Math.abs(sum - shifted) <= tolerance(shifted) ? shifted : Math.max(1, sum);
  const channelKind = rnd.pick([...KINDS, 'whatsapp', undefined]);
  const coupon = rnd.pick(['maria10', 'MARIA10', 'JOAO5', 'OTHER1', undefined, undefined]);
  const isNew = rnd.pick([true, false, undefined]);
  return {
    value,
    items,
    affiliateGroups: GROUPS.filter(() => rnd.chance(0.4)),
    ...(isNew !== undefined && { customerIsNew: isNew }),
    ...(channelKind !== undefined && { channelKind }),
    ...(coupon !== undefined && { coupon }),
  };
}

const earned = (t: CommissionTerms, order: CommissionOrderFacts) => explainCommission(t.rules, t.default, order).total;
const same = (a: ApiTerms, b: ApiTerms) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));

test(`random changes of terms: one in force at once pays every random order at least as much (seed ${SEED})`, async () => {
  console.log(`# terms changes property: ${CHANGES} changes of ${ORDERS} orders, seed ${SEED} (TERMS_PROPERTY_SEED=${SEED} replays it)`);
  const rnd = new SeededRandom(SEED);
  const seen = { atOnce: 0, waiting: 0, withExample: 0, raisedByConstruction: 0 };
  for (let n = 0; n < CHANGES; n++) {
    const planned = randomTerms(rnd);
    const byConstruction = rnd.chance(0.3);
    const change = byConstruction ? raised(rnd, planned) : rnd.chance(0.75) ? mutated(rnd, planned) : randomTerms(rnd);
    // The terms in force: saved, and past any notice.
    await save(planned);
    clock.advance(8 * DAY);
    const inForce = await read();
    assert.equal(inForce.upcoming, undefined);
    const current: ApiTerms = { rules: inForce.rules, default: inForce.default };
    if (same(planned, change)) continue;

    // The default and the rules are saved by two routes: each is a change of its own, judged
    // against the terms in force when it is saved (the first past its notice before the second).
    const steps: ApiTerms[] = [];
    if (!same({ rules: current.rules, default: change.default }, current)) steps.push({ rules: current.rules, default: change.default });
    if (!same(change, steps.at(-1) ?? current)) steps.push(change);
    let before = current;
    for (const [s, step] of steps.entries()) {
      const savedAt = clock.iso();
      await save(step, before);
      const after = await read();
      const next: ApiTerms = after.upcoming ?? { rules: after.rules, default: after.default };
      const at = `change ${n}.${s} (seed ${SEED}): ${JSON.stringify({ current: before, next, lowers: after.upcoming?.lowers })}`;
      const comparison = compareTerms(domainOf(before), domainOf(next));
      assert.equal(after.upcoming !== undefined, comparison.lowering !== undefined, `the service decides as the comparison: ${at}`);
      if (byConstruction) {
        seen.raisedByConstruction++;
        assert.equal(after.upcoming, undefined, `a change raising by construction is in force at once: ${at}`);
      }
      if (after.upcoming) {
        seen.waiting++;
        const example = comparison.lowering!.example;
        if (example) {
          seen.withExample++;
          assert.ok(earned(domainOf(next), example.order) < earned(domainOf(before), example.order), `the example earns less: ${at}`);
          assert.match(after.upcoming.lowers, / e\.g\. .* would earn /, at);
        }
      } else {
        seen.atOnce++;
        assert.equal(after.effectiveAt, savedAt, `in force from its save: ${at}`);
        for (let i = 0; i < ORDERS; i++) {
          const order = randomOrder(rnd);
          const was = earned(domainOf(before), order);
          const is = earned(domainOf(next), order);
          assert.ok(is >= was, `order ${i} earns ${is} instead of ${was}: ${JSON.stringify(order)}; ${at}`);
        }
      }
      // The next step starts from these terms in force (past any notice).
      clock.advance(8 * DAY);
      before = next;
    }
  }
  console.log(`# ${JSON.stringify(seen)}`);
});
