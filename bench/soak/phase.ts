// One soak phase from start to finish: a fresh database with the world, the servers (their
// PostgreSQL and Redis reached through TCP proxies, each in a process of its own, when the phase
// cuts them), the mixed load for the phase's time with PostgreSQL cut at a third of it and Redis
// at two thirds, a graceful stop, and the count of what was stored against what the load was told.
// Everything it made is removed at the end: the database, the Redis keys under its prefix, the
// proxies.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/storage/database.js';
import type { TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { pollUntil } from '../../test/helpers/wait.js';
import { startProxyProcess } from './proxy-process.js';
import { deleteRedisKeys, scratchPostgres, scratchRedisPrefix, scratchSqlite, type ScratchDatabase } from './databases.js';
import { prepareWorld, SOAK_PUBLIC_URL } from './world.js';
import { serverLaunch, startServer, type ServerProcess } from './servers.js';
import { ServerMonitor, type LogEntry, type LogGroup, type ReadinessChange, type StatsSample } from './monitor.js';
import { MixedLoad, type LoadResult } from './load.js';
import { OUTAGE_GRACE_MS } from './checks.js';

export interface PhaseSpec {
  name: string;
  instances: number;
  /** SQLite alone, or PostgreSQL (admin URL: a database is created on it) with Redis. */
  store: { kind: 'sqlite' } | { kind: 'postgres'; adminUrl: string; redisUrl: string };
  durationMs: number;
  rate: number;
  concurrency: number;
  /** Cut PostgreSQL once and Redis once during the run (PostgreSQL store only). */
  outages: boolean;
  /** `build`: the compiled build even if sources changed since (the caller has just built it). */
  launch?: 'build' | 'newest';
  /** Short links made before the load and visited once on each server before it (see MixedLoad.prime); 480 when not given. */
  firstLinks?: number;
  log?: (line: string) => void;
}

export interface OutageWindow {
  store: 'postgres' | 'redis';
  /** When the connections were cut and when the store could be reached again (ms since the load began). */
  startMs: number;
  endMs: number;
}

export interface InstanceReport {
  atReady: StatsSample;
  afterWarmUp: StatsSample;
  atEnd: StatsSample;
  samples: StatsSample[];
  readiness: ReadinessChange[];
  logs: LogGroup[];
  /** Error lines outside the outage windows and their grace time. */
  errorsOutsideOutages: LogEntry[];
  exit: { code: number | null; signal: NodeJS.Signals | null; tookMs: number };
}

export interface PhaseResult {
  name: string;
  instances: number;
  database: 'sqlite' | 'postgres';
  redis: boolean;
  launch: 'build' | 'sources';
  durationMs: number;
  /** When the warm-up ended, in ms since the servers were ready: the priming, then warmUpFor() of load. */
  warmUpMs: number;
  rate: number;
  concurrency: number;
  load: LoadResult;
  outages: OutageWindow[];
  servers: InstanceReport[];
  clicks: { received: number; stored: number; missingCount: number; missing: string[]; extraCount: number };
  orders: { accepted: number; stored: number; missingCount: number; extraCount: number };
}

const inOutage = (atMs: number, outages: OutageWindow[]) => outages.some((w) => atMs >= w.startMs && atMs <= w.endMs + OUTAGE_GRACE_MS);

/** Warm-up: a tenth of the run, at least 15 s, at most half of it. */
export const warmUpFor = (durationMs: number): number => Math.min(Math.max(durationMs / 10, 15_000), durationMs / 2);
/** Each outage lasts a sixtieth of the run (10 s in 10 minutes), 3 s at least. */
export const outageLengthFor = (durationMs: number): number => Math.min(Math.max(durationMs / 60, 3000), 10_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepUntil = (time: number) => sleep(Math.max(0, time - Date.now()));

/** The same URL with its host and port replaced by the proxy's. */
function through(proxy: TcpProxy, url: string): string {
  const changed = new URL(url);
  changed.hostname = '127.0.0.1';
  changed.port = String(proxy.port);
  return changed.toString();
}

async function proxyTo(url: string, defaultPort: number): Promise<TcpProxy> {
  const { hostname, port } = new URL(url);
  return startProxyProcess(hostname, Number(port || defaultPort));
}

async function storedIds(databaseUrl: string, tag: string): Promise<{ clicks: string[]; orders: string[] }> {
  const database = openDatabase(databaseUrl);
  try {
    const clicks = (await database.db.selectFrom('clicks').select('id').execute()).map((r) => r.id);
    const orders = (await database.db.selectFrom('orders').select('order_id').where('order_id', 'like', `${tag}-order-%`).execute()).map((r) => r.order_id);
    return { clicks, orders };
  } finally {
    await database.close();
  }
}

/** Priming visits a second, all servers together: well within what one instance stores as it goes. */
const PRIMING_RATE = 800;

async function storedClicksReach(databaseUrl: string, count: number, timeoutMs = 120_000): Promise<void> {
  const database = openDatabase(databaseUrl);
  try {
    const stored = async () => Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const seen = await pollUntil(stored, (n) => n >= count, { timeoutMs, everyMs: 500 });
    if (seen < count) throw new Error(`only ${seen} of the ${count} priming clicks stored after ${timeoutMs / 1000} s`);
  } finally {
    await database.close();
  }
}

export async function runPhase(spec: PhaseSpec): Promise<PhaseResult> {
  const log = spec.log ?? (() => {});
  const tag = `soak${randomBytes(4).toString('hex')}`;
  const { store } = spec;
  const database: ScratchDatabase = store.kind === 'sqlite' ? scratchSqlite() : await scratchPostgres(store.adminUrl);
  const redisPrefix = scratchRedisPrefix();
  const proxies: { postgres?: TcpProxy; redis?: TcpProxy } = {};
  const servers: ServerProcess[] = [];
  const monitors: ServerMonitor[] = [];
  try {
    log(`${spec.name}: preparing the database`);
    const world = await prepareWorld(database.url, spec.firstLinks);

    const env: Record<string, string> = { DATABASE_URL: database.url, REDIS_URL: '', PUBLIC_URL: SOAK_PUBLIC_URL, TRUST_PROXY: '1' };
    if (store.kind === 'postgres') {
      env.REDIS_URL = store.redisUrl;
      env.REDIS_PREFIX = redisPrefix;
      if (spec.outages) {
        proxies.postgres = await proxyTo(database.url, 5432);
        proxies.redis = await proxyTo(store.redisUrl, 6379);
        env.DATABASE_URL = through(proxies.postgres, database.url);
        env.REDIS_URL = through(proxies.redis, store.redisUrl);
      }
    }
    const launch = serverLaunch(spec.launch);
    log(`${spec.name}: starting ${spec.instances} server(s) from the ${launch.from === 'build' ? 'compiled build' : 'sources'}`);
    // Every server that started is kept for the cleanup, even when another one failed to.
    const started = await Promise.allSettled(Array.from({ length: spec.instances }, () => startServer(env, launch)));
    for (const outcome of started) if (outcome.status === 'fulfilled') servers.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;

    const epoch = Date.now();
    monitors.push(...servers.map((server) => new ServerMonitor(server, epoch, Math.min(Math.max(spec.durationMs / 20, 1000), 5000))));
    monitors.forEach((m) => m.start());
    const atReady = monitors.map((m) => m.samples[0]!);
    const load = new MixedLoad({ servers: servers.map((s) => s.url), world, durationMs: spec.durationMs, rate: spec.rate, concurrency: spec.concurrency, tag, epoch });
    log(`${spec.name}: visiting the ${world.links.length} first links once on each server`);
    await load.prime(PRIMING_RATE);
    // The load begins once every priming click is stored: a backlog of clicks held in memory
    // would count as memory the service keeps.
    await storedClicksReach(database.url, load.progress().clicks);
    // The warm-up, the outages and the load's own time count from the end of the priming.
    const loadStart = Date.now();
    const warmUpMs = loadStart - epoch + warmUpFor(spec.durationMs);
    let afterWarmUp: StatsSample[] = [];
    const warmUpTimer = setTimeout(() => (afterWarmUp = monitors.map((m) => m.sample())), warmUpFor(spec.durationMs));
    const progress = setInterval(() => {
      const p = load.progress();
      log(`${spec.name}: ${Math.round((Date.now() - epoch) / 1000)} s, ${p.requests} requests, ${p.serverErrors} 5xx, ${p.clicks} clicks`);
    }, 30_000);

    const outages: OutageWindow[] = [];
    const cutOnce = async (which: 'postgres' | 'redis', proxy: TcpProxy, atFraction: number) => {
      await sleepUntil(loadStart + spec.durationMs * atFraction);
      const startMs = Date.now() - epoch;
      await proxy.cut();
      log(`${spec.name}: ${which} cut at ${Math.round(startMs / 1000)} s`);
      await sleep(outageLengthFor(spec.durationMs));
      await proxy.restore();
      const endMs = Date.now() - epoch;
      log(`${spec.name}: ${which} back at ${Math.round(endMs / 1000)} s`);
      outages.push({ store: which, startMs, endMs });
    };
    const cuts = proxies.postgres && proxies.redis ? [cutOnce('postgres', proxies.postgres, 1 / 3), cutOnce('redis', proxies.redis, 2 / 3)] : [];

    let result: LoadResult;
    try {
      result = await load.run();
    } finally {
      clearInterval(progress);
      clearTimeout(warmUpTimer);
      await Promise.all(cuts);
    }
    const atEnd = monitors.map((m) => m.sample());
    monitors.forEach((m) => m.stop());

    log(`${spec.name}: stopping the server(s) with SIGTERM`);
    const exits = await Promise.all(servers.map((s) => s.stop()));
    const stored = await storedIds(database.url, tag);
    const storedClicks = new Set(stored.clicks);
    const missing = [...result.clickIds].filter((id) => !storedClicks.has(id));
    const storedOrders = new Set(stored.orders);

    return {
      name: spec.name,
      instances: spec.instances,
      database: store.kind,
      redis: store.kind === 'postgres',
      launch: launch.from,
      durationMs: result.durationMs,
      warmUpMs,
      rate: spec.rate,
      concurrency: spec.concurrency,
      load: result,
      outages: outages.sort((a, b) => a.startMs - b.startMs),
      servers: monitors.map((m, i) => ({
        atReady: atReady[i]!,
        afterWarmUp: afterWarmUp[i] ?? atReady[i]!,
        atEnd: atEnd[i]!,
        samples: m.samples,
        readiness: m.readiness,
        logs: m.logGroups(),
        errorsOutsideOutages: m.logEntries().filter((e) => (e.level === 'error' || e.level === 'fatal') && !inOutage(e.atMs, outages)),
        exit: exits[i]!,
      })),
      clicks: {
        received: result.clickIds.size,
        stored: storedClicks.size,
        missingCount: missing.length,
        missing: missing.slice(0, 10),
        extraCount: stored.clicks.filter((id) => !result.clickIds.has(id)).length,
      },
      orders: {
        accepted: result.ordersAccepted.size,
        stored: storedOrders.size,
        missingCount: [...result.ordersAccepted].filter((id) => !storedOrders.has(id)).length,
        extraCount: stored.orders.filter((id) => !result.ordersAccepted.has(id)).length,
      },
    };
  } finally {
    monitors.forEach((m) => m.stop());
    await Promise.all(servers.map((s) => s.stop(5000)));
    await proxies.postgres?.close();
    await proxies.redis?.close();
    await database.drop();
    if (store.kind === 'postgres') await deleteRedisKeys(store.redisUrl, redisPrefix);
  }
}
