// Reads aside (slow counts) on a SQLite file: a serving instance runs them on its click writer's
// thread and connection, not on a read worker of their own (one V8 heap and connection fewer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { openClickSink } from '../../src/storage/click-sink.js';

test('with a click writer, reads aside run on its thread and connection, and end with it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-reads-aside-'));
  const database = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`, { sqliteCacheMb: 3 });
  try {
    await migrateToLatest(database);
    const sink = openClickSink(database, { countEveryMs: 60_000, ipDatabase: null });
    const read = await database.readAside!('select count(*) as n from short_links', []);
    assert.deepEqual(read.rows, [{ n: 0 }]);
    const cache = await database.readAside!('pragma cache_size', []);
    assert.deepEqual(cache.rows, [{ cache_size: -3 * 1024 }], 'the configured page cache');
    await sink.close();
    await assert.rejects(database.readAside!('select 1 as one', []), 'once the click writer is closed, its thread no longer answers reads');
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a click writer (tools, tests), reads aside have a read worker of their own', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-reads-aside-'));
  const database = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
  try {
    await migrateToLatest(database);
    const read = await database.readAside!('select count(*) as n from short_links', []);
    assert.deepEqual(read.rows, [{ n: 0 }]);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
