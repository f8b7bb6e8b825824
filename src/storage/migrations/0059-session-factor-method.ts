// How a session passed its person's second factor: totp, passkey or recovery_code. A recovery code
// opens one sign-in but confirms no change, so a session that passed with one is not "recently
// verified" for the changes that ask again. Rows written before say nothing (null): they came from
// a code, a passkey or an enrolment, and count as before.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('session_second_factors').addColumn('method', textType(dialect)).execute();
}
