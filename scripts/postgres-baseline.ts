// Writes src/storage/migrations/postgres-baseline.ts: the statements every migration runs on a new
// PostgreSQL database, which a new database then gets in one step (src/storage/postgres-baseline.ts).
// It needs a PostgreSQL server: TEST_POSTGRES_URL, else the local one (postgres@127.0.0.1:5432);
// it makes a database of its own there and drops it. `--check` writes nothing and fails when the
// committed file is not what the migrations run now (the PostgreSQL test lane checks this too).
//
//   npx tsx scripts/postgres-baseline.ts           # write the file
//   npx tsx scripts/postgres-baseline.ts --check   # compare only
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresSnapshotSource, recordPostgresSnapshot } from '../src/storage/postgres-recording.js';
import { keepGenerated } from './generated-file.js';

const OUT = 'src/storage/migrations/postgres-baseline.ts';

const admin = new URL(process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const name = `affnet_snapshot_${randomBytes(6).toString('hex')}`;
const server = new pg.Client({ connectionString: admin.toString() });
await server.connect();
try {
  await server.query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  keepGenerated(OUT, postgresSnapshotSource(await recordPostgresSnapshot(url.toString())), 'npm run sql:sync');
} finally {
  await server.query(`drop database if exists ${name} with (force)`);
  await server.end();
}
