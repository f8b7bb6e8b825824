// A column kept off its indexes on SQLite. SQLite's planner takes an index on an equality or a
// range whenever it has one, without weighing that the list order stops after a page; writing the
// column as `+column`, an expression no index holds, leaves it to walk the order it is given.
// PostgreSQL's planner weighs the limit itself (and has no unary plus for text), so there the
// column stays as it is.
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../database.js';

export function offIndex<T>(database: Database, column: string): RawBuilder<T> {
  return database.dialect === 'sqlite' ? sql<T>`+${sql.ref(column)}` : sql<T>`${sql.ref(column)}`;
}
