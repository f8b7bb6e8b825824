// The plan of every statement the bench's list requests run, on the bench data: the brands page,
// products by brand, orders by date range and the links page, each asked as the bench asks them
// (through the service's whole request pipeline, in this process). Each request runs three times to
// warm what it keeps in memory, then once more with its statements recorded; each statement is then
// explained on the same database: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN ANALYZE (rows
// and execution time, without the per-node timing's overhead). Prints Markdown. Two runs can list
// different statements: a total remembered from the warm-up (a slow count) is not counted again, and
// the API key is read again once its cached entry has expired.
//
//   npx tsx bench/plans.ts --scale 100k                                   # the SQLite bench data
//   DATABASE_URL=postgres://…/bench100k npx tsx bench/plans.ts --scale 100k
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'light-my-request';
import type { CompiledQuery, QueryResult } from 'kysely';
import { loadConfig } from '../src/config.js';
import { createService } from '../src/server.js';
import { openDatabase, type Database } from '../src/storage/database.js';
import { biggestPublicBrands } from './harness.js';

const { values: args } = parseArgs({ options: { scale: { type: 'string', default: '100k' } } });
const databaseUrl = process.env.DATABASE_URL || `sqlite:./data/bench-${args.scale}.sqlite`;

/** The statements sent while `recording` is on: through Kysely, or as SQL text to SQLite's read paths (the counts). */
const recorded: Array<{ sql: string; parameters: readonly unknown[] }> = [];
let recording = false;

function recordingDatabase(database: Database): Database {
  // Every statement Kysely runs outside a transaction goes through the database's one executor
  // (builders only compiled, or nested in another, never reach it).
  const executor = database.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = <R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> => {
    if (recording) recorded.push({ sql: compiled.sql, parameters: compiled.parameters });
    return execute(compiled);
  };
  const recordingRead =
    <T>(read: (sqlText: string, parameters: readonly unknown[]) => T) =>
    (sqlText: string, parameters: readonly unknown[]): T => {
      if (recording) recorded.push({ sql: sqlText, parameters });
      return read(sqlText, parameters);
    };
  const readHere = database.readHere?.bind(database);
  const readAside = database.readAside?.bind(database);
  return {
    ...database,
    ...(readHere && { readHere: recordingRead(readHere) }),
    ...(readAside && { readAside: recordingRead(readAside) }),
  };
}

/** The statement on one line, its long select lists shortened. */
const oneLine = (sqlText: string) =>
  sqlText
    .replace(/\s+/g, ' ')
    .replace(/^select (.{60}).*? from /i, 'select $1… from ')
    .slice(0, 400);

async function explain(statement: { sql: string; parameters: readonly unknown[] }, sqlite: BetterSqlite3.Database | undefined, postgres: pg.Client | undefined): Promise<string> {
  if (sqlite) {
    const rows = sqlite.prepare(`explain query plan ${statement.sql}`).all(...(statement.parameters as unknown[])) as Array<{ id: number; parent: number; detail: string }>;
    const depth = new Map<number, number>([[0, -1]]);
    return rows
      .map((row) => {
        depth.set(row.id, (depth.get(row.parent) ?? -1) + 1);
        return `${'  '.repeat(depth.get(row.id)!)}${row.detail}`;
      })
      .join('\n');
  }
  const result = await postgres!.query(`explain (analyze, costs off, timing off) ${statement.sql}`, statement.parameters as unknown[]);
  return result.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
}

async function main(): Promise<void> {
  const database = recordingDatabase(openDatabase(databaseUrl));
  const config = loadConfig({ DATABASE_URL: databaseUrl, PUBLIC_URL: 'http://go.bench', SCHEDULE_POLL_MS: '0', WEBHOOK_POLL_MS: '0', MAIL_POLL_MS: '0', ...(database.dialect === 'postgres' && { PAYEE_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') }) });
  const service = await createService(config, { database });
  await service.app.ready();
  const { db } = database;
  const affiliate = (await db.selectFrom('affiliates').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const { key } = await service.services.access.createApiKey({ affiliateId: affiliate, rateLimit: 1_000_000_000 });
  // As the bench: the public brand with the most products.
  const [bigBrand] = await biggestPublicBrands(database, 1);
  if (!bigBrand) throw new Error(`${databaseUrl} has no public brand with products: make the bench data first (bench/data.ts)`);
  const requests = [
    ['brands, page 5', '/affiliate/brands?page=5'],
    ["products of a brand, available, page 3", `/affiliate/products?organizationIds=${bigBrand}&isAvailable=true&limit=20&page=3`],
    ['orders of a date range, page 3', '/affiliate/orders?from=2025-04-01&to=2026-06-30&limit=50&page=3'],
    ["the affiliate's links, page 3", '/affiliate/shortener/urls?type=BrandPage&limit=20&page=3'],
  ] as const;
  const sqlite = database.dialect === 'sqlite' ? new BetterSqlite3(database.sqlitePath, { readonly: true }) : undefined;
  const postgres = database.dialect === 'postgres' ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await postgres?.connect();
  console.log(`# Plans of the list requests (${database.dialect}, ${databaseUrl.replace(/\/\/[^@]*@/, '//')})\n`);
  for (const [name, url] of requests) {
    const send = () => inject(service.handler, { method: 'GET', url, headers: { 'x-api-key': key } });
    for (let i = 0; i < 3; i++) {
      const warm = await send();
      if (warm.statusCode !== 200) throw new Error(`${url}: ${warm.statusCode} ${warm.body}`);
    }
    recorded.length = 0;
    recording = true;
    await send();
    recording = false;
    console.log(`## ${name}: \`GET ${url.replace(bigBrand, '<brand>')}\`\n`);
    for (const statement of recorded.splice(0)) {
      console.log(`\`${oneLine(statement.sql)}\`\n\n\`\`\`\n${await explain(statement, sqlite, postgres)}\n\`\`\`\n`);
    }
  }
  sqlite?.close();
  await postgres?.end();
  await service.close();
  await database.close();
}

await main();
