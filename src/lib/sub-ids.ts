// Sub-ids: the affiliate's own labels on a click (a tracker's ad set, creative, click id…), passed
// as GET /{code}?sub1=…&sub2=… and carried from the click to the order it earns.
//
// - Names are compared as the redirect compares a visitor's parameter names (percent-decoded,
//   ignoring case: src/lib/query-names.ts), so SUB1 and %73ub1 are sub1.
// - A value is kept percent-decoded ('+' a space) when it is 1 to 100 characters, none of them a
//   control or invisible character (Unicode Cc, Cf, Zl, Zp). Any other value (longer, with such a
//   character, empty, or not valid percent-encoded UTF-8) is not kept: the click is stored without
//   that sub-id, and the redirect answers as usual. A visitor is never stranded over a label.
// - A name given twice keeps its first value.
// - They are never passed on to the brand (visitor-query.ts drops them, as it drops mdasc).
//
// A click stores the ones it carries as one nullable text column, a JSON object of the present
// ones in name order ({"sub1":"adset-7","sub2":"creative-3"}); an order keeps them in columns
// sub1 … sub5 (filtered and grouped by). Only a redirect whose query holds "sub" (or a
// percent-escape of its letters) reads them.
import { parameterName } from './query-names.js';

export const SUB_ID_NAMES = ['sub1', 'sub2', 'sub3', 'sub4', 'sub5'] as const;
export type SubIdName = (typeof SUB_ID_NAMES)[number];
/** The present sub-ids, by name. */
export type SubIds = Partial<Record<SubIdName, string>>;

/** The longest value kept, in characters. */
export const MAX_SUB_ID_LENGTH = 100;

/** A query that may name a sub-id: "sub" in any case, any of its letters possibly percent-escaped. */
const SUB_HINT = /(?:s|%[57]3)(?:u|%[57]5)(?:b|%[46]2)/i;
/** What no kept value holds: controls, invisible format characters, line and paragraph separators. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export const isSubIdName = (name: string): name is SubIdName => (SUB_ID_NAMES as readonly string[]).includes(name);

/** The sub-ids a query filters by (its parameters sub1 … sub5), or undefined when it names none. */
export function subIdFiltersOf(query: Partial<Record<SubIdName, string>>): SubIds | undefined {
  let subIds: SubIds | undefined;
  for (const name of SUB_ID_NAMES) if (query[name] !== undefined) (subIds ??= {})[name] = query[name];
  return subIds;
}

/** A value as kept, or undefined when it is not kept (see above). */
export function keptSubId(raw: string): string | undefined {
  let value: string;
  try {
    value = decodeURIComponent(raw.includes('+') ? raw.replace(/\+/g, ' ') : raw);
  } catch {
    return undefined;
  }
  if (value === '' || value.length > 2 * MAX_SUB_ID_LENGTH || UNPRINTABLE.test(value)) return undefined;
  // Characters, not UTF-16 units: an emoji is one.
  if (value.length > MAX_SUB_ID_LENGTH && [...value].length > MAX_SUB_ID_LENGTH) return undefined;
  return value;
}

/** The sub-ids a visitor's query string (after '?') carries. */
export function subIdsOfQuery(query: string): SubIds {
  const found: SubIds = {};
  if (!SUB_HINT.test(query)) return found;
  const seen = new Set<SubIdName>();
  for (const parameter of query.split('&')) {
    if (!SUB_HINT.test(parameter)) continue;
    const name = parameterName(parameter);
    if (!isSubIdName(name) || seen.has(name)) continue;
    seen.add(name);
    const equals = parameter.indexOf('=');
    const value = equals === -1 ? undefined : keptSubId(parameter.slice(equals + 1));
    if (value !== undefined) found[name] = value;
  }
  return found;
}

/** The sub-ids as a click stores them (JSON, names in order), or undefined when there are none. */
export function storedSubIds(subIds: SubIds): string | undefined {
  let stored: SubIds | undefined;
  for (const name of SUB_ID_NAMES) {
    const value = subIds[name];
    if (value !== undefined) (stored ??= {})[name] = value;
  }
  return stored && JSON.stringify(stored);
}

/** What a click stores for a visitor's query: undefined (nothing) unless it carries a sub-id. */
export const storedSubIdsOfQuery = (query: string): string | undefined => (SUB_HINT.test(query) ? storedSubIds(subIdsOfQuery(query)) : undefined);

/** A click's stored sub-ids as the columns an order keeps them in (null where absent). */
export function subIdColumns(stored: string | null | undefined): Record<SubIdName, string | null> {
  const parsed: Record<string, unknown> = stored ? (JSON.parse(stored) as Record<string, unknown>) : {};
  const value = (name: SubIdName) => (typeof parsed[name] === 'string' ? parsed[name] : null);
  return { sub1: value('sub1'), sub2: value('sub2'), sub3: value('sub3'), sub4: value('sub4'), sub5: value('sub5') };
}

/** The present sub-ids of an order's columns, or undefined when it has none (the API then omits the field). */
export function subIdsOfColumns(row: Partial<Record<SubIdName, string | null>>): SubIds | undefined {
  let present: SubIds | undefined;
  for (const name of SUB_ID_NAMES) {
    const value = row[name];
    if (value !== null && value !== undefined) (present ??= {})[name] = value;
  }
  return present;
}
