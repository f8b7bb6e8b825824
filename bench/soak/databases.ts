// The stores a soak phase runs on, made for it and removed after it: a SQLite file in a temporary
// directory, or a PostgreSQL database with a unique name; and the Redis keys under the phase's own
// prefix, which the service leaves behind (repeat windows and counters live an hour).
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export function scratchSqlite(): ScratchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-soak-'));
  return { url: `sqlite:${join(dir, 'soak.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new database on the server of `adminUrl` (whose user may create databases). */
export async function scratchPostgres(adminUrl: string): Promise<ScratchDatabase> {
  const name = `affnet_soak_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
}

export const scratchRedisPrefix = (): string => `affnet-soak-${randomBytes(6).toString('hex')}:`;

/** Deletes every key under `prefix`; how many. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
  return deleted;
}
