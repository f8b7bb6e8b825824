// Records the PostgreSQL snapshot of the migrations (src/storage/postgres-baseline.ts): every
// migration replayed on a new, empty database, and each statement a migration ran kept as the
// script ran it. `npm run sql:sync` writes it (scripts/postgres-baseline.ts); a test holds a new
// database made from it equal to one made by the migrations.
import { openDatabase } from './database.js';
import { replayMigrations } from './migrate.js';
import { isMakingMonthPartition } from './month-partitions.js';
import { snapshotApplies, snapshotStatement, type PostgresSnapshot } from './postgres-baseline.js';

/** The snapshot of every migration, recorded on the empty PostgreSQL database at `url` (which it migrates). */
export async function recordPostgresSnapshot(url: string): Promise<PostgresSnapshot> {
  const migrations: { name: string; statements: string[] }[] = [];
  let recording: string[] | undefined;
  const database = openDatabase(url, {
    poolSize: 1,
    onQuery: (query) => {
      const statement = recording && !isMakingMonthPartition() ? snapshotStatement(query) : undefined;
      if (statement !== undefined) recording!.push(statement);
    },
  });
  try {
    if (!(await snapshotApplies(database.db))) throw new Error('the snapshot is recorded on an empty database, in its public schema');
    await replayMigrations(database, async (name, run) => {
      recording = [];
      migrations.push({ name, statements: recording });
      try {
        await run();
      } finally {
        recording = undefined;
      }
    });
  } finally {
    await database.close();
  }
  return { migrations };
}

/** The source of src/storage/migrations/postgres-baseline.ts holding `snapshot`. */
export function postgresSnapshotSource(snapshot: PostgresSnapshot): string {
  return [
    '// Written by `npm run sql:sync` (scripts/postgres-baseline.ts); do not edit. The statements the migrations',
    '// named here run on a new PostgreSQL database, given to a new database in one step (src/storage/postgres-baseline.ts).',
    "import type { PostgresSnapshot } from '../postgres-baseline.js';",
    '',
    `export const POSTGRES_SNAPSHOT: PostgresSnapshot = ${JSON.stringify(snapshot, null, 2)};`,
    '',
  ].join('\n');
}
