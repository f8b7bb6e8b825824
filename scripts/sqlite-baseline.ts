// Writes src/storage/migrations/sqlite-baseline.ts: what every migration leaves in a new SQLite
// database (its tables, indexes, triggers and rows), which a new database then gets in one step
// (src/storage/sqlite-baseline.ts). `--check` writes nothing and fails when the committed file is
// not what the migrations make now (npm test runs it): a migration added without it would still
// run, after the snapshot, but every new database would pay for it again.
//
//   npx tsx scripts/sqlite-baseline.ts           # write the file
//   npx tsx scripts/sqlite-baseline.ts --check   # compare only
import { openDatabase } from '../src/storage/database.js';
import { migrationNames, replayMigrations } from '../src/storage/migrate.js';
import { readSqliteSnapshot } from '../src/storage/sqlite-baseline.js';
import { keepGenerated } from './generated-file.js';

const OUT = 'src/storage/migrations/sqlite-baseline.ts';

const database = openDatabase(':memory:');
try {
  await replayMigrations(database);
  const snapshot = await readSqliteSnapshot(database.db, migrationNames().at(-1)!);
  const text = [
    '// Written by `npm run sql:sync` (scripts/sqlite-baseline.ts); do not edit. What the migrations through',
    '// `through` leave in a new SQLite database, given to a new database in one step (src/storage/sqlite-baseline.ts).',
    "import type { SqliteSnapshot } from '../sqlite-baseline.js';",
    '',
    `export const SQLITE_SNAPSHOT: SqliteSnapshot = ${JSON.stringify(snapshot, null, 2)};`,
    '',
  ].join('\n');
  keepGenerated(OUT, text, 'npm run sql:sync');
} finally {
  await database.close();
}
