// Each test file gets a database of its own: a fresh SQLite file, or — when the suite runs with
// TEST_POSTGRES_URL — a fresh PostgreSQL database created for it and dropped afterwards, so runs
// never see each other's data.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { systemClock, type Clock } from '../../src/lib/clock.js';
import { payeeKeysFor, servicesOver, type Services } from '../../src/services.js';

export interface TestDatabase {
  url: string;
  dialect: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

/**
 * scrypt's cost of the passwords tests set (PASSWORD_HASH_COST): the lowest the service takes. At
 * the default a hash took 0.1–0.25 s of CPU, about half of the OpenAPI walk's time; what a cost
 * does is the same at any cost, and a password set at one still verifies at another.
 */
export const TEST_PASSWORD_HASH_COST = 10;
/** The same, as the variable of the services and commands the tests start. */
export const TEST_PASSWORDS = { PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) };

export const postgresAdminUrl = (): string | undefined => process.env.TEST_POSTGRES_URL || undefined;

/**
 * A database of its own for a test: an empty one, or with `migrated`, one holding every migration
 * already. A migrated one is a copy of a template migrated once for every test file of the day
 * (named by a hash of the migrations and the date: migrations make the current months'
 * partitions): a database on PostgreSQL, a file on SQLite. Copying takes a tenth of the time
 * migrating each one took.
 */
export async function freshDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const admin = postgresAdminUrl();
  if (!admin) {
    const dir = mkdtempSync(join(tmpdir(), 'affnet-test-'));
    const file = join(dir, 'test.sqlite');
    if (options.migrated) copyFileSync(await migratedSqliteTemplate(), file);
    return { url: `sqlite:${file}`, dialect: 'sqlite', drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const template = options.migrated ? await migratedTemplate(admin) : undefined;
  const name = `affnet_test_${randomBytes(6).toString('hex')}`;
  await onServer(admin, async (client) => {
    await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    // A commit need not wait for its WAL to reach the disk: a test database outlives no crash, and
    // the suite's writes then wait for the CPU only, not for a flush each.
    await client.query(`alter database ${name} set synchronous_commit = off`);
  });
  return {
    url: urlOf(admin, name),
    dialect: 'postgres',
    drop: () => onServer(admin, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** `work` on a connection of its own to the PostgreSQL server of `admin` (creating and dropping databases). */
export async function onServer<T>(admin: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The address of database `name` on the server of `admin`. */
export function urlOf(admin: string, name: string): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A hash of the migrations' sources: read once per process, not for every database a file makes. */
let migrationsHash: ReturnType<typeof createHash> | undefined;

/** The template's name: the migrations' sources and today's date (UTC). */
function templateName(): string {
  if (!migrationsHash) {
    migrationsHash = createHash('sha256');
    const dir = new URL('../../src/storage/migrations/', import.meta.url);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts')).sort()) migrationsHash.update(file).update(readFileSync(new URL(file, dir)));
    migrationsHash.update(readFileSync(new URL('../../src/storage/migrate.ts', import.meta.url)));
  }
  const hash = migrationsHash.copy().update(new Date().toISOString().slice(0, 10));
  return `affnet_template_${hash.digest('hex').slice(0, 16)}`;
}

/**
 * The migrated template, made by the first test file that needs it: under an advisory lock, so
 * concurrent files wait for it rather than make it twice; migrated under another name and renamed
 * once complete, so a file stopped halfway never leaves a half-migrated template. Templates
 * made two days ago or before are dropped (another checkout's, of other migrations, may be in use).
 */
async function migratedTemplate(admin: string): Promise<string> {
  const name = templateName();
  return onServer(admin, async (client) => {
    await client.query("select pg_advisory_lock(hashtext('affnet:test-template'))");
    try {
      const existing = await client.query<{ datname: string; made: string | null }>(
        "select datname, shobj_description(oid, 'pg_database') as made from pg_database where datname like 'affnet_template_%'",
      );
      if (existing.rows.some((row) => row.datname === name)) return name;
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      for (const row of existing.rows) if (!row.made || row.made < yesterday) await client.query(`drop database if exists ${row.datname} with (force)`);
      const building = `${name}_building`;
      await client.query(`create database ${building}`);
      const database = openDatabase(urlOf(admin, building));
      try {
        await migrateToLatest(database);
      } finally {
        await database.close();
      }
      await client.query(`alter database ${building} rename to ${name}`);
      await client.query(`comment on database ${name} is '${new Date().toISOString().slice(0, 10)}'`);
      return name;
    } finally {
      await client.query("select pg_advisory_unlock(hashtext('affnet:test-template'))");
    }
  });
}

/**
 * The migrated SQLite template, made by the first test file that needs it: migrated under a name
 * of its own and renamed once complete (closed, its journal written back into it), so concurrent
 * files never read a half-made one; at worst two make it, and the last rename wins. Templates of
 * two days ago or before are removed.
 */
async function migratedSqliteTemplate(): Promise<string> {
  const path = join(tmpdir(), `${templateName()}.sqlite`);
  if (existsSync(path)) return path;
  const twoDaysAgo = Date.now() - 2 * 86_400_000;
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith('affnet_template_'))) {
    const old = join(tmpdir(), name);
    if ((statSync(old, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < twoDaysAgo) rmSync(old, { force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), 'affnet-template-'));
  try {
    const building = join(dir, 'template.sqlite');
    const database = openDatabase(`sqlite:${building}`);
    try {
      await migrateToLatest(database);
    } finally {
      await database.close();
    }
    renameSync(building, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return path;
}

/**
 * With TEST_REDIS_URL, the service under test uses Redis, under a key prefix of its own so that
 * concurrent test files never share counters or messages.
 */
export function redisEnv(): Record<string, string> {
  const url = process.env.TEST_REDIS_URL;
  return url ? { REDIS_URL: url, REDIS_PREFIX: `affnet-test-${randomBytes(6).toString('hex')}:` } : {};
}

/**
 * The services over a database opened by a test (to arrange data or check what a command did),
 * on the system clock, telling no other process about changes.
 */
export function servicesFor(database: Database, clock: Clock = systemClock, options: { payeeKey?: string } = {}): Services {
  const payeeKeys = options.payeeKey ? payeeKeysFor({ databaseUrl: ':memory:', payeeEncryptionKey: options.payeeKey, payeeEncryptionOldKeys: [], payeeKeyFile: null }).keys : undefined;
  // No payout minimum: tests of the minimum set their own.
  return servicesOver(database, { clock, publicUrl: 'http://go.test', publisher: { publish: async () => {} }, payoutMinimums: new Map(), passwordHashCost: TEST_PASSWORD_HASH_COST, ...(payeeKeys && { payeeKeys }) });
}
