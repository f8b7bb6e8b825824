// Example orders for a change of terms: built from the kinds of units the comparison found, and
// each computed under both terms with explainCommission, as the service computes an order's
// commission, so an example shown to a brand or its affiliates is always true.
import { explainCommission, type CommissionItemFacts, type CommissionOrderFacts } from './commission-rules.js';
import { NONE, type RegionSpace, type UnitAtoms } from './terms-regions.js';
import type { CommissionTerms, UnitKind } from './terms-changes.js';

/** An order, and what it earns under the current terms and under the next. */
export interface TermsExample {
  order: CommissionOrderFacts;
  before: number;
  after: number;
}

/** How far an order's items may fall short of its value or pass it, whatever the value: the least tolerance of a report. */
const SLACK = 100;
/** Values tried first: round amounts read best. */
const ROUND_VALUES = [10_000, 1_000, 100_000, 100, 1_000_000, 50_000, 5_000, 500, 100_000_000];
/** Enough for every unit's few shapes; a search past it gives no example rather than time. */
const MAX_TRIES = 5_000;
/** Searches for a unit's facts in another interval of values. */
const MAX_SEARCHES = 500;

interface Sources {
  space: RegionSpace;
  /** The kinds of units to build orders of, the likeliest first. */
  units: UnitKind[];
  /** How many of the first units the comparison's cause names: their orders are tried before the others'. */
  focus: number;
  /** A rule of the next terms taking units of several rules in one order: orders with one item of each. */
  together?: { after: number; sources: number[] } | undefined;
}

/** An order that earns less (or more) under the next terms than under the current ones, if one of the tried shapes does. */
export function findExample(current: CommissionTerms, next: CommissionTerms, want: 'less' | 'more', from: Sources): TermsExample | undefined {
  let tries = 0;
  for (const order of candidates(from)) {
    if (++tries > MAX_TRIES) return undefined;
    const before = explainCommission(current.rules, current.default, order).total;
    const after = explainCommission(next.rules, next.default, order).total;
    if (want === 'less' ? after < before : after > before) return { order, before, after };
  }
  return undefined;
}

/** Orders of the focused units first (those the cause names), the round values of every unit before the others. */
function* candidates(from: Sources): Generator<CommissionOrderFacts> {
  if (from.together) yield* together(from.space, from.together);
  const atIntervals = new AtIntervals(from.space);
  const units = from.units.filter((u): u is UnitKind & { atoms: UnitAtoms } => u.atoms !== 'assumed');
  for (const group of [units.slice(0, from.focus), units.slice(from.focus)]) {
    for (const value of ROUND_VALUES) for (const unit of group) yield* ordersOf(from.space, unit, atIntervals.of(unit, value), value);
    // Then the value the comparison found, and the ends of each interval of values the rules tell apart.
    const ends = from.space.intervals.flat().filter(Number.isFinite);
    for (const unit of group) for (const value of new Set([...(unit.value === undefined ? [] : [unit.value]), ...ends])) yield* ordersOf(from.space, unit, atIntervals.of(unit, value), value);
  }
}

/** A kind of unit's facts with the order's value in another interval: the search found it in one only. */
class AtIntervals {
  private readonly known = new Map<string, UnitAtoms | undefined>();
  private searches = 0;

  constructor(private readonly space: RegionSpace) {}

  of(unit: UnitKind & { atoms: UnitAtoms }, value: number): UnitAtoms | undefined {
    const interval = this.space.intervals.findIndex(([lo, hi]) => value >= lo && value <= hi);
    if (interval < 0 || interval === unit.atoms.value) return interval < 0 ? undefined : unit.atoms;
    const key = `${unit.shape}:${unit.before}:${unit.after}:${interval}`;
    if (!this.known.has(key)) {
      const found = ++this.searches > MAX_SEARCHES ? undefined : this.space.unit(unit.shape, unit.before, unit.after, { interval });
      this.known.set(key, found === 'assumed' ? undefined : found);
    }
    return this.known.get(key);
  }
}

/** Orders of a kind of unit at a value: without items, or with items of the kind in a few shapes. */
function* ordersOf(space: RegionSpace, unit: UnitKind, atoms: UnitAtoms | undefined, value: number): Generator<CommissionOrderFacts> {
  if (!atoms) return;
  const order = { ...orderFacts(space, atoms), value };
  if (unit.shape === 'whole') yield { ...order, items: [] };
  else for (const lines of linesFor(value)) yield { ...order, items: lines.map(([price, quantity]) => itemFacts(space, atoms, price, quantity)) };
}

/** One item of each unit a rule takes from several rules in one order (as many of them as one order can hold), the value shared among them. */
function* together(space: RegionSpace, { after, sources }: { after: number; sources: number[] }): Generator<CommissionOrderFacts> {
  let units: UnitAtoms[] = [];
  const taken: Array<[number, number]> = [];
  for (const before of sources) {
    const found = space.units('items', [...taken, [before, after]]);
    if (found === undefined || found === 'assumed') continue;
    taken.push([before, after]);
    units = found;
  }
  if (units.length === 0) return;
  const [lo, hi] = space.intervals[units[0]!.value]!;
  for (const value of [...ROUND_VALUES, lo]) {
    if (value < lo || value > hi) continue;
    const share = Math.floor(value / units.length);
    const items = units.map((atoms, i) => itemFacts(space, atoms, i === 0 ? value - share * (units.length - 1) : share, 1));
    yield { ...orderFacts(space, units[0]!), value, items };
  }
}

/** Items (price, quantity) for an order of the value: one at the value, a little under or over it, free, or many units of a part. */
function linesFor(value: number): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [[[value, 1]]];
  if (value >= SLACK) lines.push([[value - SLACK, 1]]);
  lines.push([[value + SLACK, 1]]);
  if (value <= SLACK) lines.push([[0, 1]], [[0, 1_000]]);
  if (value >= 2) lines.push([[Math.floor(value / 2), 2]]);
  if (value >= 100) lines.push([[Math.floor(value / 100), 100]]);
  return lines;
}

function orderFacts(space: RegionSpace, atoms: UnitAtoms): Omit<CommissionOrderFacts, 'value' | 'items'> {
  return {
    ...(atoms.customer !== NONE && { customerIsNew: atoms.customer === 'new' }),
    ...(atoms.channel !== NONE && { channelKind: space.nameOf('channel', atoms.channel) }),
    ...(atoms.coupon !== NONE && { coupon: space.nameOf('coupon', atoms.coupon) }),
    affiliateGroups: atoms.groups,
  };
}

function itemFacts(space: RegionSpace, atoms: UnitAtoms, price: number, quantity: number): CommissionItemFacts {
  return { id: space.nameOf('product', atoms.product ?? ''), price, quantity, categories: atoms.categories };
}
