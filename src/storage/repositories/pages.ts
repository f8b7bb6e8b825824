// Pages of filtered lists: the rows of one page and the total matching the same filters, asked
// for together. The total goes through countOf, so a slow count is remembered (see totals.ts).
import type { Compilable, CompiledQuery } from 'kysely';
import type { Database } from '../database.js';
import { compiledCount, countOf, type CountQuery, type CountRow } from './totals.js';

/** Which rows of a list: `limit` rows after skipping `offset`. */
export interface PageWindow {
  limit: number;
  offset: number;
}

export interface Page<Row> {
  rows: Row[];
  total: number;
}

export async function pageWithTotal<Row>(
  database: Database,
  rows: Promise<Row[]>,
  count: CountQuery,
  options: { rememberAs?: Compilable<unknown> } = {},
): Promise<Page<Row>> {
  const [page, total] = await Promise.all([rows, countOf(database, count, options)]);
  return { rows: page, total };
}

/** A page and its total from queries compiled once per shape (see CompiledShapes). */
export function compiledPage<Row>(database: Database, rows: CompiledQuery<Row>, count: CompiledQuery<CountRow>): Promise<Page<Row>> {
  return pageWithTotal(database, rowsOf(database, rows), compiledCount(database, count));
}

/** The rows a compiled query returns. */
export async function rowsOf<Row>(database: Database, query: CompiledQuery<Row>): Promise<Row[]> {
  return (await database.db.executeQuery(query)).rows;
}
