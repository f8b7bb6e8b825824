// The kinds of order units two lists of commission rules tell apart. A unit (an item of an order,
// or an order reported without items) is described by facts in a few dimensions: the customer, the
// channel kind, the coupon code, the order value, the affiliate's groups, the product and its
// categories. Each rule's conditions are a conjunction of constraints on them; a unit goes to the
// first rule whose constraints all hold. `RegionSpace.unit` says whether some unit goes to a given
// rule of each list, and gives one (its facts' atoms), by a small exact search: each dimension's
// constraints are checked exactly, and a rule a unit must not match is refuted one constraint at a
// time. A search that runs past its budget answers "assumed possible", which can only make a
// comparison more cautious.
import type { CommissionRule, CommissionRuleConditions } from './commission-rules.js';

/** The fact that is none of the names the rules use (another code, kind or product). */
export const OTHER = '\u0000other';
export const NONE = '\u0000none';

type OneOf = 'customer' | 'channel' | 'coupon' | 'value' | 'product';
type SomeOf = 'groups' | 'categories';
/** A dimension; an item's own (product, categories) carries the index of the unit among several in one order, e.g. "product#1". */
type Dim = OneOf | SomeOf | `${'product' | 'categories'}#${number}`;

/** A dimension holding one fact (it is in a set, or not), or a set of facts (it meets a set, or not). */
interface Constraint {
  dim: Dim;
  set: ReadonlySet<string>;
  holds: boolean;
}

interface Predicate {
  constraints: Constraint[];
  /** It names products or categories: an order without items never matches it. */
  onItems: boolean;
}

/** One unit's facts, as atoms: enough to build an example order. */
export interface UnitAtoms {
  customer: string;
  channel: string;
  coupon: string;
  /** Index of the value interval (RegionSpace.intervals). */
  value: number;
  groups: string[];
  /** Undefined for an order without items. */
  product?: string;
  categories: string[];
}

export type Shape = 'items' | 'whole';

/** Whether some unit goes to the given rules: its atoms; undefined when none can; 'assumed' when the search ran out of budget. */
export type UnitSearch = UnitAtoms | 'assumed' | undefined;

const SEARCH_BUDGET = 20_000;

class OutOfBudget extends Error {}

/** Constraints by dimension. */
type Store = Map<Dim, Constraint[]>;

const baseOf = (dim: Dim) => dim.split('#')[0] as OneOf | SomeOf;
const isSet = (dim: Dim) => baseOf(dim) === 'groups' || baseOf(dim) === 'categories';

export class RegionSpace {
  /** [lo, hi] of each interval of order values the rules tell apart (hi may be Infinity), in order. */
  readonly intervals: Array<[number, number]>;
  private readonly universes: Record<OneOf, ReadonlySet<string>>;
  private readonly predicates: [Predicate[], Predicate[]];
  private steps = 0;

  constructor(before: readonly CommissionRule[], after: readonly CommissionRule[]) {
    const all = [...before, ...after].map((rule) => rule.conditions ?? {});
    const bounds = new Set<number>([1]);
    for (const c of all) {
      if (c.orderValue?.min !== undefined && c.orderValue.min > 1) bounds.add(c.orderValue.min);
      if (c.orderValue?.max !== undefined && c.orderValue.max + 1 > 1) bounds.add(c.orderValue.max + 1);
    }
    const sorted = [...bounds].sort((a, b) => a - b);
    this.intervals = sorted.map((lo, i) => [lo, i + 1 < sorted.length ? sorted[i + 1]! - 1 : Infinity]);
    const names = (pick: (c: CommissionRuleConditions) => readonly string[] | undefined) => [...new Set(all.flatMap((c) => pick(c) ?? []))];
    this.universes = {
      customer: new Set([NONE, 'new', 'returning']),
      channel: new Set([NONE, ...names((c) => c.channelKinds), OTHER]),
      coupon: new Set([NONE, ...names((c) => c.coupon?.codes?.map((code) => code.toLowerCase())), OTHER]),
      value: new Set(this.intervals.map((_, i) => String(i))),
      product: new Set([...names((c) => c.productIds), OTHER]),
    };
    this.predicates = [before.map((rule) => this.predicateOf(rule)), after.map((rule) => this.predicateOf(rule))];
  }

  /** A name for a fact: the atom itself, or for OTHER a name no rule uses. */
  nameOf(dim: 'channel' | 'coupon' | 'product', atom: string): string {
    if (atom !== OTHER) return atom;
    const used = new Set(this.universes[dim]);
    const base = { channel: 'other-kind', coupon: 'other-code', product: 'other-product' }[dim];
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}-${i}`;
    return name;
  }

  private predicateOf(rule: CommissionRule): Predicate {
    const c = rule.conditions ?? {};
    const constraints: Constraint[] = [];
    const oneOf = (dim: OneOf, values: Iterable<string>) => constraints.push({ dim, set: new Set(values), holds: true });
    if (c.customer !== undefined) oneOf('customer', [c.customer]);
    if (c.channelKinds !== undefined) oneOf('channel', c.channelKinds);
    if (c.coupon !== undefined) {
      if (c.coupon.codes !== undefined) oneOf('coupon', c.coupon.codes.map((code) => code.toLowerCase()));
      else constraints.push({ dim: 'coupon', set: new Set([NONE]), holds: false });
    }
    if (c.orderValue !== undefined) {
      const { min = 0, max = Infinity } = c.orderValue;
      oneOf('value', this.intervals.flatMap(([lo, hi], i) => (lo >= min && hi <= max ? [String(i)] : [])));
    }
    if (c.affiliateGroups !== undefined) constraints.push({ dim: 'groups', set: new Set(c.affiliateGroups), holds: true });
    if (c.productIds !== undefined) oneOf('product', c.productIds);
    if (c.categories !== undefined) constraints.push({ dim: 'categories', set: new Set(c.categories.map((name) => name.toLowerCase())), holds: true });
    return { constraints, onItems: c.productIds !== undefined || c.categories !== undefined };
  }

  /**
   * A unit of the given shape that the rule `before` of the first list (its length: the default)
   * and the rule `after` of the second list would take, its value in the given interval when given.
   */
  unit(shape: Shape, before: number, after: number, options: { interval?: number } = {}): UnitSearch {
    const found = this.units(shape, [[before, after]], options);
    return found === 'assumed' ? found : found?.[0];
  }

  /**
   * Units of one order (the same order facts, each its own item facts), the j-th taken by the
   * rules pairs[j] (of the first list, of the second), or undefined when no order has them all.
   */
  units(shape: Shape, pairs: ReadonlyArray<readonly [number, number]>, options: { interval?: number } = {}): UnitAtoms[] | 'assumed' | undefined {
    const owners: Constraint[] = [];
    const refuted: Constraint[][] = [];
    for (const [j, pair] of pairs.entries()) {
      for (const list of [0, 1] as const) {
        const rules = this.predicates[list];
        const index = pair[list];
        const owner = rules[index];
        if (owner && shape === 'whole' && owner.onItems) return undefined;
        if (owner) owners.push(...constraintsOf(owner, j));
        // An order without items matches no rule naming products or categories.
        for (const rule of rules.slice(0, index)) if (shape === 'items' || !rule.onItems) refuted.push(constraintsOf(rule, j));
      }
    }
    if (options.interval !== undefined) owners.push({ dim: 'value', set: new Set([String(options.interval)]), holds: true });
    const store: Store = new Map();
    if (!this.addAll(store, owners)) return undefined;
    this.steps = 0;
    try {
      const found = this.refute(store, refuted);
      return found && pairs.map((_, j) => this.atomsOf(found, shape, j));
    } catch (error) {
      if (error instanceof OutOfBudget) return 'assumed';
      throw error;
    }
  }

  /**
   * Each rule that must not take the unit is refuted by one of its constraints failing. Rules the
   * store already keeps from matching are dropped, a rule with one way left to fail takes it, and
   * the search branches on the rule with the fewest ways, so a rule that cannot fail ends the
   * search at once instead of after every combination of the others.
   */
  private refute(store: Store, rules: Constraint[][]): Store | undefined {
    if (++this.steps > SEARCH_BUDGET) throw new OutOfBudget();
    let pending = rules;
    for (;;) {
      const left: Array<{ rule: Constraint[]; ways: Constraint[] }> = [];
      let forced: Constraint | undefined;
      for (const rule of pending) {
        if (!this.fits(store, rule)) continue;
        const ways = rule.map((c) => ({ ...c, holds: !c.holds })).filter((c) => this.fits(store, [c]));
        if (ways.length === 0) return undefined;
        if (ways.length === 1) forced ??= ways[0];
        left.push({ rule, ways });
      }
      if (left.length === 0) return store;
      if (forced === undefined) {
        const fewest = left.reduce((a, b) => (b.ways.length < a.ways.length ? b : a));
        const rest = left.filter((r) => r !== fewest).map((r) => r.rule);
        for (const way of fewest.ways) {
          const next = new Map(store);
          this.addAll(next, [way]);
          const found = this.refute(next, rest);
          if (found) return found;
        }
        return undefined;
      }
      store = new Map(store);
      this.addAll(store, [forced]);
      pending = left.map((r) => r.rule);
    }
  }

  /** Adds constraints, checking each dimension they touch; false when one can no longer hold. */
  private addAll(store: Store, constraints: readonly Constraint[]): boolean {
    const touched = new Set<Dim>();
    for (const c of constraints) {
      store.set(c.dim, [...(store.get(c.dim) ?? []), c]);
      touched.add(c.dim);
    }
    for (const dim of touched) if (this.solveDim(dim, store.get(dim) ?? []) === undefined) return false;
    return true;
  }

  /** Whether the store could take the constraints (the store unchanged). */
  private fits(store: Store, constraints: readonly Constraint[]): boolean {
    if (constraints.length === 1) return this.solveDim(constraints[0]!.dim, [...(store.get(constraints[0]!.dim) ?? []), constraints[0]!]) !== undefined;
    const byDim = new Map<Dim, Constraint[]>();
    for (const c of constraints) byDim.set(c.dim, [...(byDim.get(c.dim) ?? store.get(c.dim) ?? []), c]);
    for (const [dim, all] of byDim) if (this.solveDim(dim, all) === undefined) return false;
    return true;
  }

  /** One fact (or set of facts) meeting the dimension's constraints, or undefined when none can. */
  private solveDim(dim: Dim, constraints: readonly Constraint[]): string[] | undefined {
    if (isSet(dim)) {
      // A set meets each wanted set and avoids each unwanted one: pick, from each wanted set, a name no unwanted set has.
      const avoided = new Set<string>();
      for (const c of constraints) if (!c.holds) for (const name of c.set) avoided.add(name);
      const picked = new Set<string>();
      for (const c of constraints) {
        if (!c.holds) continue;
        const name = firstNotIn(c.set, avoided);
        if (name === undefined) return undefined;
        picked.add(name);
      }
      return [...picked];
    }
    const universe = this.universes[baseOf(dim) as OneOf];
    let smallest: ReadonlySet<string> | undefined;
    for (const c of constraints) if (c.holds && (smallest === undefined || c.set.size < smallest.size)) smallest = c.set;
    for (const atom of smallest ?? universe) {
      if (universe.has(atom) && constraints.every((c) => c.set.has(atom) === c.holds)) return [atom];
    }
    return undefined;
  }

  private atomsOf(store: Store, shape: Shape, j: number): UnitAtoms {
    const solved = (dim: Dim) => this.solveDim(dim, store.get(dim) ?? [])!;
    return {
      customer: solved('customer')[0]!,
      channel: solved('channel')[0]!,
      coupon: solved('coupon')[0]!,
      value: Number(solved('value')[0]),
      groups: solved('groups'),
      ...(shape === 'items' && { product: solved(itemDim('product', j))[0]! }),
      categories: shape === 'items' ? solved(itemDim('categories', j)) : [],
    };
  }
}

function firstNotIn(names: ReadonlySet<string>, avoided: ReadonlySet<string>): string | undefined {
  for (const name of names) if (!avoided.has(name)) return name;
  return undefined;
}

/** The dimension of the j-th unit's item facts. */
const itemDim = (base: 'product' | 'categories', j: number): Dim => (j === 0 ? base : `${base}#${j}`);

/** A rule's constraints for the j-th unit of an order: its item conditions on that unit's own item facts. */
function constraintsOf(rule: Predicate, j: number): Constraint[] {
  if (j === 0) return rule.constraints;
  return rule.constraints.map((c) => (c.dim === 'product' || c.dim === 'categories' ? { ...c, dim: itemDim(c.dim, j) } : c));
}
