// What a person sees of their sessions: each gets an id of its own to name it by (never the token),
// the device and country it was opened from, the client address (kept SESSION_ADDRESS_DAYS, then
// blanked by a scheduled task) and the hash of the browser's "known device" token, which tells a
// sign-in from a browser the person used before from one on a new device. Sessions opened before
// this migration get an id and nothing else (they were opened from somewhere unknown).
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newId = () => `ses_${[...randomBytes(16)].map((b) => BASE62[b % 62]).join('')}`;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  for (const column of ['id', 'device', 'country', 'address', 'device_hash']) await db.schema.alterTable('sessions').addColumn(column, text).execute();
  const { rows } = await sql<{ token_hash: string }>`select token_hash from sessions`.execute(db);
  for (const row of rows) await sql`update sessions set id = ${newId()} where token_hash = ${row.token_hash}`.execute(db);
  await db.schema.createIndex('sessions_id_idx').unique().on('sessions').column('id').execute();
  // Addresses are blanked by when their session was opened.
  await db.schema.createIndex('sessions_address_idx').on('sessions').column('created_at').where(sql.ref('address'), 'is not', null).execute();
}
