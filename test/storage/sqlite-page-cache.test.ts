// Each SQLite connection keeps the configured page cache (SQLITE_CACHE_MB), not SQLite's build
// default of 16 MB: the service's memory budget counts on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';

test('the serving connection and the read worker keep the configured page cache', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-cache-'));
  const database = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`, { sqliteCacheMb: 3 });
  try {
    const serving = await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db);
    assert.equal(serving.rows[0]?.cache_size, -3 * 1024);
    const read = await database.readAside!('pragma cache_size', []);
    assert.deepEqual(read.rows, [{ cache_size: -3 * 1024 }]);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
