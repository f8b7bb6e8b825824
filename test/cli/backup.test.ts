// `affnet backup` copies the embedded database while the service serves clicks and conversions,
// and `affnet restore` puts a copy back (only once nothing has the database open), contents intact.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDriver from 'better-sqlite3';
import { runCli } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { BROWSER_UA, item } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';

let dir: string;
let databaseFile: string;
let affiliateKey: string;
let brandKey: string;
const env = () => ({ DATABASE_URL: `sqlite:${databaseFile}`, REDIS_URL: '' });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'affnet-backup-'));
  databaseFile = join(dir, 'affnet.sqlite');
  const database = openDatabase(`sqlite:${databaseFile}`);
  try {
    await migrateToLatest(database);
    affiliateKey = (await buildWorld(database)).keys.aff1;
    brandKey = (await servicesFor(database).access.createApiKey({ brandId: BRANDS.acme, rateLimit: 1_000_000 })).key;
  } finally {
    await database.close();
  }
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Every table's rows, hashed in a stable order: two databases with equal digests hold the same data. */
function digest(file: string): Map<string, { rows: number; hash: string }> {
  const db = new SqliteDriver(file, { readonly: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all() as string[];
    return new Map(
      tables.map((table) => {
        const rows = db.prepare(`select * from "${table}"`).raw().all().map((row) => JSON.stringify(row)).sort();
        return [table, { rows: rows.length, hash: createHash('sha256').update(rows.join('\n')).digest('hex') }];
      }),
    );
  } finally {
    db.close();
  }
}

/** Redirects and conversions as fast as one client sends them, until stopped; what was answered. */
function load(server: ServerProcess, code: string) {
  let running = true;
  let redirects = 0;
  let conversions = 0;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const res = await fetch(`${server.url}/${code}`, { redirect: 'manual', headers: { 'user-agent': `${BROWSER_UA} visitor/${i}` } });
      const clickId = /clickId=([0-9a-f]{32})/.exec(res.headers.get('location') ?? '')?.[1];
      assert.ok(clickId, `redirect ${res.status}`);
      redirects++;
      if (i % 3 === 0) {
        const conversion = await fetch(`${server.url}/advertiser/conversions`, {
          method: 'POST',
          headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
          body: JSON.stringify({ clickId, orderId: `backup-${i}`, value: 2500, items: [item(2500)] }),
        });
        assert.equal(conversion.status, 201, await conversion.text());
        conversions++;
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { redirects, conversions };
    },
  };
}

describe('backup and restore of the embedded database', () => {
  test('a backup taken under redirect and conversion load is a sound snapshot; restored, the database holds exactly its contents', { timeout: 120_000 }, async (t) => {
    const server = await startServerProcess({ ...env(), CLICK_FLUSH_MS: '50', CLICK_VELOCITY_LIMIT: '0' });
    const backup = join(dir, 'under-load.sqlite');
    try {
      const created = await fetch(`${server.url}/affiliate/shortener/url`, {
        method: 'POST',
        headers: { 'x-api-key': affiliateKey, 'content-type': 'application/json' },
        body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }),
      });
      const code = ((await created.json()) as Array<{ shortUrls: string[] }>).flatMap((c) => c.shortUrls)[0]!.split('/').pop()!;
      const traffic = load(server, code);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const result = await runCli(['backup', backup], env());
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sent = await traffic.stop();
      t.diagnostic(`${result.stdout.trim()}; load: ${JSON.stringify(sent)}`);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Backed up .* to .*under-load\.sqlite \(\d+\.\d MiB in \d+ ms\)$/m);

      // Refused while the service has the database open.
      const refused = await runCli(['restore', backup], env());
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /is open in another process \(a running service or command\): stop every instance using it, then restore/);
    } finally {
      assert.equal(await server.stop(), 0);
    }

    // The snapshot is sound and caught the load in the middle: clicks and orders, fewer than in the end.
    const copy = new SqliteDriver(backup, { readonly: true });
    try {
      assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(copy.pragma('foreign_key_check'), []);
      const count = (table: string) => (copy.prepare(`select count(*) from ${table}`).pluck().get() as number);
      assert.ok(count('clicks') > 0 && count('orders') > 0, 'clicks and orders were written before the backup');
      // Every order the copy holds has its click: a conversion is never in a snapshot without the click it names.
      assert.equal(copy.prepare('select count(*) from orders o where o.click_id is not null and not exists (select 1 from clicks c where c.id = o.click_id)').pluck().get(), 0);
    } finally {
      copy.close();
    }
    const before = digest(databaseFile);
    const inBackup = digest(backup);
    assert.ok(before.get('clicks')!.rows > inBackup.get('clicks')!.rows, 'the load went on after the backup');

    const restored = await runCli(['restore', backup], env());
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /The database it replaced is kept as .*affnet\.sqlite\.replaced-/);
    assert.deepEqual(digest(databaseFile), inBackup, 'the restored database holds exactly what the backup holds');
    const kept = readdirSync(dir).find((name) => name.startsWith('affnet.sqlite.replaced-'))!;
    assert.deepEqual(digest(join(dir, kept)), before, 'the replaced database is kept as it was');

    // And the service starts on it.
    const again = await startServerProcess(env());
    try {
      assert.equal((await fetch(`${again.url}/affiliate/brands`, { headers: { 'x-api-key': affiliateKey } })).status, 200);
    } finally {
      await again.stop();
    }
  });

  test('backup never overwrites a file, restore refuses what is not a backup, PostgreSQL points to pg_dump', async () => {
    const existing = join(dir, 'existing.sqlite');
    writeFileSync(existing, 'keep me');
    const overwrite = await runCli(['backup', existing], env());
    assert.notEqual(overwrite.code, 0);
    assert.match(overwrite.stderr, /exists already: choose a new file name/);

    const garbage = await runCli(['restore', existing], env());
    assert.notEqual(garbage.code, 0);
    assert.match(garbage.stderr, /is not a (readable )?SQLite database/);
    assert.ok(!existsSync(`${databaseFile}.restoring`));

    const postgres = await runCli(['backup', join(dir, 'pg.sqlite')], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/nothing' });
    assert.notEqual(postgres.code, 0);
    assert.match(postgres.stderr, /DATABASE_URL is PostgreSQL: back it up with pg_dump and restore with pg_restore/);
  });
});
