// Each test file gets a database of its own: a fresh SQLite file, or — when the suite runs with
// TEST_POSTGRES_URL — a fresh PostgreSQL database created for it and dropped afterwards, so runs
// never see each other's data.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/storage/database.js';
import { systemClock, type Clock } from '../../src/lib/clock.js';
import { payeeKeysFor, servicesOver, type Services } from '../../src/services.js';

export interface TestDatabase {
  url: string;
  dialect: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

export const postgresAdminUrl = (): string | undefined => process.env.TEST_POSTGRES_URL || undefined;

export async function freshDatabase(): Promise<TestDatabase> {
  const admin = postgresAdminUrl();
  if (!admin) {
    const dir = mkdtempSync(join(tmpdir(), 'affnet-test-'));
    return { url: `sqlite:${join(dir, 'test.sqlite')}`, dialect: 'sqlite', drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `affnet_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dialect: 'postgres',
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
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
  return servicesOver(database, { clock, publicUrl: 'http://go.test', publisher: { publish: async () => {} }, payoutMinimums: new Map(), ...(payeeKeys && { payeeKeys }) });
}
