// npx tsx bench/clicks-partitioning.ts [--clicks 10000000] [--skip-migration]
//
// Clicks on PostgreSQL, one table against monthly partitions, at a realistic size. Two fresh
// databases: A migrated up to 0025 (one clicks table), B to the latest (clicks partitioned by
// month on the id). Both get the same N clicks, spread evenly from the start of the month twelve
// months ago up to now (so the oldest month is a whole one, as retention finds it), in id order, in
// 2,000-row INSERTs given to A and B alternately: machine load that comes and goes (this machine is
// shared) then weighs on both alike. Then it times the reads the service makes of clicks, retention
// of the oldest month (A: 1,000-row deletes by id range; B: the repository's partition drop) with
// a click writer running beside it, the same once more behind a long read of clicks, and last the
// migration to partitions on A's remaining clicks. Prints a Markdown table and writes it to
// bench/results/<date>-clicks-partitioning.md.
//
// PostgreSQL: BENCH_POSTGRES_URL, else TEST_POSTGRES_URL, else the local server; the user must be
// allowed to create databases. Both databases are dropped at the end, also on failure or Ctrl-C.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, sql } from 'kysely';
import { onServer, urlOf } from '../test/helpers/databases.js';
import { openDatabase, type Database } from '../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../src/storage/migrate.js';
import { CLICK_COLUMNS, ClicksRepository } from '../src/storage/repositories/clicks.js';
import { monthStart } from '../src/storage/month-partitions.js';
import { clickIdTimePrefix } from '../src/lib/click-id-time.js';
import { newClickId } from '../src/domain/links/click-ids.js';
import { SeededRandom } from '../src/seed/seeded-random.js';

const { values: args } = parseArgs({
  options: {
    clicks: { type: 'string', default: '10000000' },
    'skip-migration': { type: 'boolean', default: false },
  },
});
const CLICKS = Number(args.clicks);
if (!Number.isInteger(CLICKS) || CLICKS < 20_000) throw new Error('--clicks must be an integer of at least 20000');

const ADMIN_URL = process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const BATCH_ROWS = 2_000;
const RETENTION_BATCH = 1_000;
// The click writer flushes every 200 ms; the writer beside retention does the same.
const WRITER_INTERVAL_MS = 200;
const LOOKUPS = 10_000;
const LOOKUP_WARM_UP = 500;
const SCAN_REPETITIONS = 10;
const MONTH_COUNT_REPETITIONS = 20;
const LINKS = 100_000;
const DAY_MS = 86_400_000;

const runStarted = Date.now();
const now = runStarted;
const clicksFrom = monthStart(now, -12);
const oldestMonthEnd = monthStart(now, -11);
const secondMonthEnd = monthStart(now, -10);
const countedMonth = monthStart(now, -6);

const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Rows: as the service writes them (19 columns of CLICK_COLUMNS, user agent and analytics facts
// filled in), from a fixed seed so A and B hold the same rows and a rerun the same data.

const COUNTRIES: Array<[string, number]> = [['BR', 40], ['US', 15], ['PT', 8], ['MX', 6], ['AR', 5], ['DE', 4], ['GB', 4], ['FR', 3], ['ES', 3], ['ZZ', 2], ['IN', 2], ['CO', 2], ['CL', 2], ['IT', 2], ['CA', 2]];
const AGENTS: Array<{ agent: string; device: string; browser: string; os: string; weight: number }> = [
  { agent: 'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.102 Mobile Safari/537.36', device: 'mobile', browser: 'Chrome', os: 'Android', weight: 34 },
  { agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', device: 'mobile', browser: 'Safari', os: 'iOS', weight: 24 },
  { agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 352.0.0.38.100', device: 'mobile', browser: 'Instagram', os: 'iOS', weight: 4 },
  { agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', device: 'desktop', browser: 'Chrome', os: 'Windows', weight: 20 },
  { agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', device: 'desktop', browser: 'Safari', os: 'macOS', weight: 8 },
  { agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0', device: 'desktop', browser: 'Firefox', os: 'Windows', weight: 4 },
  { agent: 'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1', device: 'tablet', browser: 'Safari', os: 'iOS', weight: 6 },
];
const BOT_AGENT = { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', device: 'other', browser: 'Googlebot', os: 'Other' };
const REFERERS: Array<[string, number]> = [['(direct)', 35], ['instagram.com', 20], ['google.com', 15], ['facebook.com', 10], ['t.co', 5], ['youtube.com', 5], ['(blog)', 10]];

/** Picks an index by weight with one uniform draw. */
function weightedPicker(weights: number[]): (draw: number) => number {
  const total = weights.reduce((a, b) => a + b, 0);
  const bounds: number[] = [];
  let sum = 0;
  for (const w of weights) bounds.push((sum += w) / total);
  return (draw) => {
    const index = bounds.findIndex((b) => draw < b);
    return index === -1 ? bounds.length - 1 : index;
  };
}

const hex8 = (rnd: SeededRandom) => rnd.int(0, 0xffffffff).toString(16).padStart(8, '0');
const uuidFrom = (rnd: SeededRandom) => {
  const h = hex8(rnd) + hex8(rnd) + hex8(rnd) + hex8(rnd);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
};

class ClickRows {
  private readonly rnd = new SeededRandom(20261124);
  private readonly links: Array<{ link: string; affiliate: string; channel: string; brand: string }>;
  private readonly country = weightedPicker(COUNTRIES.map(([, w]) => w));
  private readonly agent = weightedPicker(AGENTS.map((a) => a.weight));
  private readonly referer = weightedPicker(REFERERS.map(([, w]) => w));

  constructor() {
    const affiliates = Array.from({ length: 500 }, () => uuidFrom(this.rnd));
    const channels = affiliates.map(() => uuidFrom(this.rnd));
    const brands = Array.from({ length: 2_000 }, () => uuidFrom(this.rnd));
    this.links = Array.from({ length: LINKS }, (_, i) => ({ link: uuidFrom(this.rnd), affiliate: affiliates[i % affiliates.length]!, channel: channels[i % channels.length]!, brand: brands[(i * 7) % brands.length]! }));
  }

  /** The values of one click made at `time` with id `id`, in CLICK_COLUMNS order. */
  row(id: string, time: number): unknown[] {
    const rnd = this.rnd;
    // A few links take most clicks, as on a real network.
    const link = this.links[Math.floor(LINKS * rnd.float() ** 3)]!;
    const roll = rnd.float();
    const flag = roll < 0.03 ? 'bot' : roll < 0.04 ? 'head' : roll < 0.12 ? 'repeat' : roll < 0.13 ? 'suspicious' : 'counted';
    const agent = flag === 'bot' ? BOT_AGENT : AGENTS[this.agent(rnd.float())]!;
    const referer = REFERERS[this.referer(rnd.float())]![0];
    const values: Record<(typeof CLICK_COLUMNS)[number], unknown> = {
      id,
      link_id: link.link,
      affiliate_id: link.affiliate,
      channel_id: link.channel,
      organization_id: link.brand,
      mdasc: null,
      created_at: new Date(time).toISOString(),
      is_bot: flag === 'bot' ? 1 : 0,
      is_head: flag === 'head' ? 1 : 0,
      is_repeat: flag === 'repeat' ? 1 : 0,
      is_suspicious: flag === 'suspicious' ? 1 : 0,
      is_suspended: 0,
      counted: flag === 'counted' ? 1 : 0,
      visitor_hash: hex8(rnd) + hex8(rnd) + hex8(rnd) + hex8(rnd),
      user_agent: agent.agent,
      country: COUNTRIES[this.country(rnd.float())]![0],
      device: agent.device,
      browser: agent.browser,
      os: agent.os,
      referer_host: referer === '(blog)' ? `blog-${rnd.int(1, 2000)}.example` : referer,
      asn: null,
    };
    return CLICK_COLUMNS.map((c) => values[c]);
  }

  /** The id of a click at `time`: newClickId's format (12 hex of ms, 20 random hex), seeded. */
  id(time: number): string {
    return clickIdTimePrefix(time) + hex8(this.rnd) + hex8(this.rnd) + hex8(this.rnd).slice(0, 4);
  }

  /** Clicks `from` to `to` (exclusive) of the evenly spread history, flattened for one INSERT. */
  history(from: number, to: number, sampled: (index: number, id: string) => void): unknown[] {
    const step = (now - clicksFrom) / CLICKS;
    const values: unknown[] = [];
    for (let i = from; i < to; i++) {
      const time = Math.floor(clicksFrom + (i + this.rnd.float()) * step);
      const id = this.id(time);
      sampled(i, id);
      values.push(...this.row(id, time));
    }
    return values;
  }

  /** A batch of clicks made now, with the service's own ids, as the click writer sends them. */
  current(count: number): unknown[] {
    const values: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const time = Date.now();
      values.push(...this.row(newClickId(time), time));
    }
    return values;
  }

  /** An id of the right shape and time range that no click has. */
  unknownId(): string {
    return this.id(Math.floor(clicksFrom + this.rnd.float() * (now - clicksFrom)));
  }
}

// ---------------------------------------------------------------------------------------------
// Timing helpers

const insertSqlByRows = new Map<number, string>();
/** One multi-row INSERT of every CLICK_COLUMNS column, SQL text made once per row count. */
function insertSql(rows: number): string {
  let text = insertSqlByRows.get(rows);
  if (!text) {
    const width = CLICK_COLUMNS.length;
    const tuples = Array.from({ length: rows }, (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`);
    text = `insert into clicks (${CLICK_COLUMNS.join(', ')}) values ${tuples.join(', ')}`;
    insertSqlByRows.set(rows, text);
  }
  return text;
}

/** Milliseconds one INSERT of these flattened rows takes. */
async function timedInsert(database: Database, values: unknown[]): Promise<number> {
  const started = performance.now();
  await database.db.executeQuery(CompiledQuery.raw(insertSql(values.length / CLICK_COLUMNS.length), values));
  return performance.now() - started;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

function percentile(values: number[], p: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface Latency {
  median: number;
  p95: number;
  count: number;
}
const latency = (values: number[]): Latency => ({ median: percentile(values, 50), p95: percentile(values, 95), count: values.length });

/** Runs `query` on A and B in turn `times` times (who goes first alternates), timing each. */
async function alternately(times: number, query: (database: Database, repetition: number) => Promise<unknown>, a: Database, b: Database): Promise<[number[], number[]]> {
  const msA: number[] = [];
  const msB: number[] = [];
  for (let i = 0; i < times; i++) {
    const order: Array<[Database, number[]]> = i % 2 === 0 ? [[a, msA], [b, msB]] : [[b, msB], [a, msA]];
    for (const [database, into] of order) into.push((await timed(() => query(database, i))).ms);
  }
  return [msA, msB];
}

/**
 * While `work` runs, a click writer inserts one 2,000-row batch every 200 ms (the first at once),
 * as the service's writer does under load; the time each batch took.
 */
async function withWriter<T>(database: Database, rows: ClickRows, work: () => Promise<T>): Promise<{ result: T; ms: number; batchesMs: number[] }> {
  let done = false;
  const batchesMs: number[] = [];
  const writer = (async () => {
    while (!done) {
      const started = performance.now();
      batchesMs.push(await timedInsert(database, rows.current(BATCH_ROWS)));
      const wait = WRITER_INTERVAL_MS - (performance.now() - started);
      if (!done && wait > 0) await sleep(wait);
    }
  })();
  try {
    const { ms, result } = await timed(work);
    return { result, ms, batchesMs };
  } finally {
    done = true;
    await writer;
  }
}

/** Retention on A, as pruneOlderThan does it on SQLite: 1,000 oldest rows per statement, no pause. */
async function deleteInBatches(database: Database, before: number, keepGoing: () => boolean = () => true): Promise<{ rows: number; statementsMs: number[] }> {
  const statement = CompiledQuery.raw('delete from clicks where id in (select id from clicks where id < $1 order by id limit $2)', [clickIdTimePrefix(before), RETENTION_BATCH]);
  const statementsMs: number[] = [];
  let rows = 0;
  while (keepGoing()) {
    const { ms, result } = await timed(() => database.db.executeQuery(statement));
    statementsMs.push(ms);
    const deleted = Number(result.numAffectedRows ?? 0n);
    rows += deleted;
    if (deleted < RETENTION_BATCH) break;
  }
  return { rows, statementsMs };
}

interface Sizes {
  tableMb: number;
  indexMb: number;
  /** The largest single index a click is appended to (B: one month's partition). */
  largestIndexMb: number;
  partitions: number;
}

async function sizes(database: Database): Promise<Sizes> {
  const { rows } = await sql<{ table: number; index: number; largest: number; partitions: number }>`
    select sum(pg_table_size(relid))::bigint as table, sum(pg_indexes_size(relid))::bigint as index,
      max(pg_indexes_size(relid))::bigint as largest, count(*)::int as partitions
    from (
      select relid from pg_partition_tree('clicks') where isleaf
      -- A plain table is no partition tree: itself then.
      union all select 'clicks'::regclass where not exists (select from pg_partition_tree('clicks'))
    ) as leaves`.execute(database.db);
  const row = rows[0]!;
  const mb = (bytes: number) => Number(bytes) / 1024 / 1024;
  return { tableMb: mb(row.table), indexMb: mb(row.index), largestIndexMb: mb(row.largest), partitions: row.partitions };
}

// ---------------------------------------------------------------------------------------------
// Databases: created here, dropped whatever happens.

const suffix = randomBytes(4).toString('hex');
const names = { a: `affnet_bench_clicks_${suffix}_a`, b: `affnet_bench_clicks_${suffix}_b` };
const opened: Database[] = [];

const admin = (statement: string) => onServer(ADMIN_URL, (client) => client.query(statement));

let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.allSettled(opened.map((d) => d.close()));
    for (const name of Object.values(names)) {
      await admin(`drop database if exists ${name} with (force)`).catch((error: unknown) => log(`could not drop ${name}: ${String(error)}`));
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: dropping the benchmark databases`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// The run

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (n >= 100 ? fmt(n) : n >= 10 ? fmt(n, 1) : fmt(n, 2));
const ratio = (b: number, a: number) => (a > 0 ? `${(b / a).toFixed(2)}×` : '—');
const monthName = (time: number) => new Date(time).toISOString().slice(0, 7);

async function run(): Promise<string> {
  const loadAtStart = loadavg();
  for (const name of Object.values(names)) await admin(`create database ${name}`);
  const a = openDatabase(urlOf(ADMIN_URL, names.a), { poolSize: 4 });
  opened.push(a);
  const b = openDatabase(urlOf(ADMIN_URL, names.b), { poolSize: 4 });
  opened.push(b);
  await migrateTo(a, '0025-installation-settings');
  await migrateToLatest(b);
  const repoA = new ClicksRepository(a);
  const repoB = new ClicksRepository(b);
  // A fresh database gets partitions from this month on; a service that has run for a year on
  // partitions has one per past month too (the migration makes them for existing clicks).
  await repoB.prepareMonths(clicksFrom, 12 + 3);
  const { rows: serverRows } = await sql<{ version: string; buffers: string }>`select current_setting('server_version') as version, current_setting('shared_buffers') as buffers`.execute(a.db);
  const server = serverRows[0]!;

  // --- inserts ------------------------------------------------------------------------------
  log(`inserting ${fmt(CLICKS)} clicks into ${names.a} (one table) and ${names.b} (partitions)`);
  const rows = new ClickRows();
  const lookupIds: string[] = [];
  // Selection sampling: exactly LOOKUPS ids, each row equally likely.
  let toSample = Math.min(LOOKUPS, CLICKS);
  const sampler = new SeededRandom(7);
  const sample = (index: number, id: string) => {
    if (toSample > 0 && sampler.float() * (CLICKS - index) < toSample) {
      lookupIds.push(id);
      toSample--;
    }
  };
  const window = Math.min(1_000_000, Math.floor(CLICKS / 10));
  const insertMs = { a: 0, b: 0 };
  const firstWindowMs = { a: 0, b: 0 };
  const lastWindowMs = { a: 0, b: 0 };
  const wallStarted = performance.now();
  for (let from = 0, batch = 0; from < CLICKS; from += BATCH_ROWS, batch++) {
    const to = Math.min(CLICKS, from + BATCH_ROWS);
    const values = rows.history(from, to, sample);
    const order = batch % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const which of order) {
      const took = await timedInsert(which === 'a' ? a : b, values);
      insertMs[which] += took;
      if (from < window) firstWindowMs[which] += took;
      if (from >= CLICKS - window) lastWindowMs[which] += took;
    }
    if (to % 1_000_000 === 0 || to === CLICKS) {
      const perSecond = (which: 'a' | 'b') => fmt((to / insertMs[which]) * 1000);
      log(`  ${fmt(to)} rows: A ${perSecond('a')} rows/s, B ${perSecond('b')} rows/s so far (${fmt((performance.now() - wallStarted) / 1000)} s)`);
    }
  }
  const { rows: defaultRows } = await sql<{ n: number }>`select count(*)::int as n from clicks_default`.execute(b.db);
  if (defaultRows[0]!.n !== 0) log(`warning: ${defaultRows[0]!.n} clicks went to clicks_default`);

  // Autovacuum would get there on its own; done now so both start the reads settled alike.
  log('vacuum (analyze)');
  const vacuumA = await timed(() => sql`vacuum (analyze) clicks`.execute(a.db));
  const vacuumB = await timed(() => sql`vacuum (analyze) clicks`.execute(b.db));
  const sizeA = await sizes(a);
  const sizeB = await sizes(b);

  // --- reads --------------------------------------------------------------------------------
  log('lookups');
  const shuffled = new SeededRandom(11).shuffled(lookupIds);
  await alternately(LOOKUP_WARM_UP, (database, i) => (database === a ? repoA : repoB).find(shuffled[i % shuffled.length]!), a, b);
  const [foundA, foundB] = await alternately(
    shuffled.length,
    async (database, i) => {
      if (!(await (database === a ? repoA : repoB).find(shuffled[i]!))) throw new Error(`click ${shuffled[i]} not found`);
    },
    a,
    b,
  );
  const unknownIds = Array.from({ length: LOOKUPS }, () => rows.unknownId());
  const [unknownA, unknownB] = await alternately(
    unknownIds.length,
    async (database, i) => {
      if (await (database === a ? repoA : repoB).find(unknownIds[i]!)) throw new Error(`click ${unknownIds[i]} should not exist`);
    },
    a,
    b,
  );
  log('min(created_at)');
  const [oldestA, oldestB] = await alternately(SCAN_REPETITIONS, (database) => sql`select min(created_at) from clicks`.execute(database.db), a, b);
  log(`count of ${monthName(countedMonth)}`);
  let monthClicks = 0;
  const [monthA, monthB] = await alternately(
    MONTH_COUNT_REPETITIONS,
    async (database) => {
      const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from clicks where id >= ${clickIdTimePrefix(countedMonth)} and id < ${clickIdTimePrefix(monthStart(countedMonth, 1))}`.execute(database.db);
      monthClicks = counted[0]!.n;
    },
    a,
    b,
  );

  // --- retention ----------------------------------------------------------------------------
  log('writer alone (baseline)');
  const idleA: number[] = [];
  const idleB: number[] = [];
  for (let i = 0; i < 10; i++) {
    idleA.push(await timedInsert(a, rows.current(BATCH_ROWS)));
    idleB.push(await timedInsert(b, rows.current(BATCH_ROWS)));
    await sleep(WRITER_INTERVAL_MS);
  }
  log(`retention of ${monthName(clicksFrom)}: A deletes in batches`);
  const retentionA = await withWriter(a, rows, () => deleteInBatches(a, oldestMonthEnd));
  log(`retention of ${monthName(clicksFrom)}: B drops the partition`);
  const retentionB = await withWriter(b, rows, () => repoB.dropMonthsEndedBy(oldestMonthEnd));
  if (retentionA.result.rows !== retentionB.result) log(`warning: A deleted ${retentionA.result.rows} clicks, B dropped ${retentionB.result}`);
  const statements = retentionA.result.statementsMs;
  const tenth = Math.max(1, Math.floor(statements.length / 10));

  // Retention of the next month while a long read of clicks is running (an analytics rebuild
  // starts with min(created_at), and reads every click inside the same transaction; pg_dump holds
  // every table likewise): retention starts a fifth into the read, one writer batch two fifths in.
  const scanMs = { a: percentile(oldestA, 50), b: percentile(oldestB, 50) };
  log(`retention of ${monthName(oldestMonthEnd)} behind a full read of clicks`);
  const behindScan = async (database: Database, retention: (stop: () => boolean) => Promise<unknown>, readMs: number) => {
    const read = timed(() => sql`select min(created_at) from clicks`.execute(database.db));
    await sleep(readMs / 5);
    let readDone = false;
    let insertDone = false;
    void read.finally(() => (readDone = true));
    const retained = timed(() => retention(() => !(readDone && insertDone)));
    await sleep(readMs / 5);
    const insert = await timedInsert(database, rows.current(BATCH_ROWS));
    insertDone = true;
    const [readTook, retentionTook] = await Promise.all([read, retained]);
    return { readMs: readTook.ms, retentionMs: retentionTook.ms, insertMs: insert };
  };
  const scanA = await behindScan(a, (keepGoing) => deleteInBatches(a, secondMonthEnd, keepGoing), scanMs.a);
  const scanB = await behindScan(b, () => repoB.dropMonthsEndedBy(secondMonthEnd), scanMs.b);

  // --- the migration itself, on what A holds now ----------------------------------------------
  let migration: { rows: number; ms: number } | undefined;
  if (!args['skip-migration']) {
    const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from clicks`.execute(a.db);
    log(`migration 0026 on A's ${fmt(counted[0]!.n)} clicks`);
    // That migration alone: later ones have nothing to do with clicks.
    const { ms: took } = await timed(() => migrateTo(a, '0026-partitioned-clicks'));
    migration = { rows: counted[0]!.n, ms: took };
  }
  const loadAtEnd = loadavg();

  // --- report -------------------------------------------------------------------------------
  const rate = (rowsDone: number, took: number) => fmt((rowsDone / took) * 1000);
  const windowLabel = window === 1_000_000 ? '1M' : fmt(window);
  const lat = (l: Latency) => `${ms(l.median)} / ${ms(l.p95)}`;
  const latRow = (label: string, x: number[], y: number[]) => `| ${label} | ${lat(latency(x))} | ${lat(latency(y))} | ${ratio(percentile(y, 50), percentile(x, 50))} |`;
  const batches = (values: number[]) => (values.length === 0 ? '—' : `${values.length}: ${ms(percentile(values, 50))} / ${ms(Math.max(...values))}`);
  const mb = (n: number) => fmt(n);
  const lines = [
    `## Clicks on PostgreSQL: one table (A) against monthly partitions (B), ${fmt(CLICKS)} clicks, ${new Date(runStarted).toISOString().slice(0, 10)}`,
    '',
    `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, shared with other work (load average ${loadAtStart[0]!.toFixed(1)} at the start, ${loadAtEnd[0]!.toFixed(1)} at the end). PostgreSQL ${server.version}, shared_buffers ${server.buffers}. Whole run ${fmt((Date.now() - runStarted) / 60_000, 1)} min.`,
    `A: migrated to 0025 (one clicks table); B: the latest (a partition per month, ${sizeB.partitions} with the default one). The same ${fmt(CLICKS)} clicks in both (${fmt(CLICKS / ((now - clicksFrom) / DAY_MS))} a day, ${monthName(clicksFrom)} to now; ${fmt(monthClicks)} in a whole month), ${fmt(BATCH_ROWS)} rows per INSERT, each batch given to A and B in turn. Latencies: median / p95 in ms, from this process over TCP to the local server.`,
    '',
    '| figure | A: one table | B: monthly partitions | B / A |',
    '|---|---|---|---|',
    `| insert ${fmt(CLICKS)} clicks, s | ${fmt(insertMs.a / 1000, 1)} | ${fmt(insertMs.b / 1000, 1)} | ${ratio(insertMs.b, insertMs.a)} |`,
    `| insert rate, rows/s | ${rate(CLICKS, insertMs.a)} | ${rate(CLICKS, insertMs.b)} | ${ratio(insertMs.a, insertMs.b)} |`,
    `| insert rate, first ${windowLabel} rows, rows/s | ${rate(window, firstWindowMs.a)} | ${rate(window, firstWindowMs.b)} | ${ratio(firstWindowMs.a, firstWindowMs.b)} |`,
    `| insert rate, last ${windowLabel} rows, rows/s | ${rate(window, lastWindowMs.a)} | ${rate(window, lastWindowMs.b)} | ${ratio(lastWindowMs.a, lastWindowMs.b)} |`,
    `| vacuum (analyze) after the load, s | ${fmt(vacuumA.ms / 1000, 1)} | ${fmt(vacuumB.ms / 1000, 1)} | ${ratio(vacuumB.ms, vacuumA.ms)} |`,
    `| table size, MB | ${mb(sizeA.tableMb)} | ${mb(sizeB.tableMb)} | ${ratio(sizeB.tableMb, sizeA.tableMb)} |`,
    `| index size, MB | ${mb(sizeA.indexMb)} | ${mb(sizeB.indexMb)} | ${ratio(sizeB.indexMb, sizeA.indexMb)} |`,
    `| table + index, MB | ${mb(sizeA.tableMb + sizeA.indexMb)} | ${mb(sizeB.tableMb + sizeB.indexMb)} | ${ratio(sizeB.tableMb + sizeB.indexMb, sizeA.tableMb + sizeA.indexMb)} |`,
    `| largest single index (B: one month), MB | ${mb(sizeA.largestIndexMb)} | ${mb(sizeB.largestIndexMb)} | ${ratio(sizeB.largestIndexMb, sizeA.largestIndexMb)} |`,
    latRow(`lookup of an existing click by id (${fmt(LOOKUPS)}), ms`, foundA, foundB),
    latRow(`lookup of an unknown id (${fmt(LOOKUPS)}), ms`, unknownA, unknownB),
    latRow(`\`select min(created_at) from clicks\` (${SCAN_REPETITIONS}), ms`, oldestA, oldestB),
    latRow(`count of one month's clicks by id range (${MONTH_COUNT_REPETITIONS}), ms`, monthA, monthB),
    `| retention of the oldest month (${monthName(clicksFrom)}): clicks gone | ${fmt(retentionA.result.rows)} | ${fmt(retentionB.result)} | |`,
    `| … time, s | ${fmt(retentionA.ms / 1000, 2)} | ${fmt(retentionB.ms / 1000, 2)} | ${ratio(retentionB.ms, retentionA.ms)} |`,
    `| … clicks/s | ${rate(retentionA.result.rows, retentionA.ms)} | ${rate(retentionB.result, retentionB.ms)} | |`,
    `| … A: ms per 1,000-row delete, first / last tenth of the month (median) | ${ms(percentile(statements.slice(0, tenth), 50))} / ${ms(percentile(statements.slice(-tenth), 50))} | — | |`,
    `| writer: one ${fmt(BATCH_ROWS)}-row INSERT alone, ms (median of 10) | ${ms(percentile(idleA, 50))} | ${ms(percentile(idleB, 50))} | ${ratio(percentile(idleB, 50), percentile(idleA, 50))} |`,
    `| writer during retention: batches (one every ${WRITER_INTERVAL_MS} ms): median / max ms | ${batches(retentionA.batchesMs)} | ${batches(retentionB.batchesMs)} | |`,
    `| retention of the next month (${monthName(oldestMonthEnd)}) during a \`min(created_at)\` read of clicks (read took A ${ms(scanA.readMs)}, B ${ms(scanB.readMs)} ms): one writer batch, ms | ${ms(scanA.insertMs)} | ${ms(scanB.insertMs)} | ${ratio(scanB.insertMs, scanA.insertMs)} |`,
    `| … retention itself, ms (A: deletes until the read and the batch were done) | ${ms(scanA.retentionMs)} | ${ms(scanB.retentionMs)} | |`,
  ];
  if (migration) {
    lines.push(`| migration 0026 on A's remaining ${fmt(migration.rows)} clicks, s | ${fmt(migration.ms / 1000, 1)} (${fmt((migration.ms / 1000 / migration.rows) * 1e7 / 60, 1)} min per 10M) | — | |`);
  }
  return `${lines.join('\n')}\n`;
}

let exitCode = 0;
try {
  const report = await run();
  process.stdout.write(`\n${report}`);
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/${new Date(runStarted).toISOString().slice(0, 10)}-clicks-partitioning.md`;
  writeFileSync(file, report);
  log(`written to ${file}`);
} catch (error) {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await cleanUp();
}
process.exit(exitCode);
