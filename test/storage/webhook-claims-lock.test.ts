// SQLite: the webhook dispatcher asks for due deliveries every second on the serving connection.
// With nothing due it must not take the write lock: the click writer holds that lock for its
// rollup steps, and a serving thread waiting for it stalls every request it is answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDriver from 'better-sqlite3';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { WebhooksRepository } from '../../src/storage/repositories/webhooks.js';

test('looking for due deliveries when none is due succeeds while another connection holds the write lock', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-claims-'));
  const path = join(dir, 'db.sqlite');
  const database = openDatabase(`sqlite:${path}`);
  const other = new SqliteDriver(path);
  try {
    await migrateToLatest(database);
    other.pragma('busy_timeout = 0');
    other.exec('begin immediate');
    const now = new Date().toISOString();
    const claimed = await new WebhooksRepository(database).claimDue('instance-1', now, new Date(Date.now() + 60_000).toISOString(), 10, 4);
    assert.deepEqual(claimed, []);
    other.exec('rollback');
  } finally {
    other.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
