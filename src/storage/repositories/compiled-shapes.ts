// Queries built and compiled once per shape. A list's query differs from one request to the next
// by which filters are given and how many values each holds; the rest is its values. Building it
// with Kysely and compiling it to SQL cost more per request than some of the statements run, so a
// query is built once per shape, with stand-ins for its values, and each request only puts its
// values where the stand-ins were.
import { CompiledQuery, type Compilable } from 'kysely';
import { RecentMap } from '../../lib/recent-map.js';

type Value = string | number;
/** A query's values by name: one value, or a list (an `in (…)`), or undefined for a filter not given. */
export type QueryValues = Record<string, Value | readonly Value[] | undefined>;

/** A yes-or-no filter as the query compares it (a 0 or 1 column), or undefined when not given. */
export const flagValue = (value: boolean | undefined): number | undefined => (value === undefined ? undefined : value ? 1 : 0);

/** Where a compiled parameter comes from: a value (of a list, at `index`), or the same every time. */
type Slot = { name: string; index?: number } | { constant: unknown };

interface Shape {
  sql: string;
  slots: Slot[];
}

/** No value a caller gives starts with this (a NUL character): a stand-in cannot be mistaken for one. */
const STAND_IN = '\u0000value:';
/** Shapes are few (filters given × list lengths), but a list's length comes from a request. */
const MAX_SHAPES = 2_000;

export class CompiledShapes {
  private readonly shapes = new RecentMap<string, Shape>(MAX_SHAPES);

  /**
   * The query `build` makes from `values`, compiled. `build` must hand each value to Kysely as it
   * is (a stand-in reaches it in its place) and may decide only by whether a value is given and a
   * list's length; it runs once per shape.
   */
  compiled<V extends QueryValues, R>(name: string, values: V, build: (values: V) => Compilable<R>): CompiledQuery<R> {
    const key = shapeKey(name, values);
    let shape = this.shapes.get(key);
    if (!shape) this.shapes.set(key, (shape = compileShape(name, values, build)));
    return CompiledQuery.raw(shape.sql, shape.slots.map((slot) => valueOf(slot, values)));
  }
}

function shapeKey(name: string, values: QueryValues): string {
  let key = name;
  for (const field in values) {
    const value = values[field];
    if (value !== undefined) key += `|${field}${Array.isArray(value) ? `[${value.length}]` : ''}`;
  }
  return key;
}

function compileShape<V extends QueryValues, R>(name: string, values: V, build: (values: V) => Compilable<R>): Shape {
  const standIns: QueryValues = {};
  for (const field in values) {
    const value = values[field];
    if (value === undefined) continue;
    standIns[field] = Array.isArray(value) ? value.map((_, i) => `${STAND_IN}${field}.${i}`) : `${STAND_IN}${field}`;
  }
  const { sql, parameters } = build(standIns as V).compile();
  const placed = new Set<string>();
  const slots = parameters.map((parameter): Slot => {
    if (typeof parameter !== 'string' || !parameter.startsWith(STAND_IN)) return { constant: parameter };
    placed.add(parameter);
    const [field, index] = parameter.slice(STAND_IN.length).split('.') as [string, string | undefined];
    return index === undefined ? { name: field } : { name: field, index: Number(index) };
  });
  // A value the query dropped or wrote into its text would be answered with the first request's.
  const expected = Object.values(standIns).flat();
  const missing = expected.filter((standIn) => !placed.has(standIn as string));
  if (missing.length > 0 || sql.includes(STAND_IN)) throw new Error(`query ${name}: values not passed as parameters: ${missing.join(', ').replaceAll(STAND_IN, '')}`);
  return { sql, slots };
}

function valueOf(slot: Slot, values: QueryValues): unknown {
  if ('constant' in slot) return slot.constant;
  const value = values[slot.name];
  return slot.index === undefined ? value : (value as readonly Value[])[slot.index];
}
