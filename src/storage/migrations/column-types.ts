import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Text compared byte by byte in both databases (SQLite's default BINARY, PostgreSQL's "C"), so
 * ORDER BY and tie-breakers give the same order whatever the server's locale.
 */
export function textType(dialect: Dialect): 'text' | RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`text collate "C"` : 'text';
}
