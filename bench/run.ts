// npm run bench -- [--scale 100k|1m] [--duration 10] [--connections 50] [--only 'a|b'] [--workers N] [--closed-only] [--repeat N] [--node-args '...'] [--profile DIR] [--cold-cache]
//
// Starts the built service (production mode) on the benchmark data set and, in the same run, a
// bare node:http server: the ceiling of any Node service here. Drives both with wrk, the server
// pinned to core 0 and wrk to core 1, and reports req/s, p50, p99, errors, timeouts and each scenario's
// ratio to the bare baseline, plus the service's peak RSS and cold-start time. Each scenario is then
// driven again at half the rate it reached (bench/open-loop.ts): latency as users feel it, counted
// from each request's intended send time. Then a shop's order export of 100,000 orders is
// previewed (bench/reconciliation-preview.ts): its time and the service's RSS. The tables are
// printed and written to bench/results/<date>-<scale>.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/storage/database.js';
import { clickIdTimePrefix } from '../src/lib/click-id-time.js';
import type { OpenLoopResult } from './open-loop.js';
import { RECONCILIATION_STEP, reconciliationPreview } from './reconciliation-preview.js';
import { benchKey, biggestPublicBrands, diskReadMb, ensureTools, evictFromPageCache, log, measuringCpu, openLoop, pinned, residentMb, sleep, waitFor, wrk, type CpuPerRequest, type Load, type Result } from './harness.js';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '100k' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    // Writes a V8 CPU profile of the service (node --cpu-prof) to this directory; summarise it
    // with `npx tsx bench/profile-summary.ts <file>`.
    profile: { type: 'string' },
    // Serves with `affnet serve --workers N` on cores 0..N-1 (needs REDIS_URL); wrk stays on core 1,
    // so with two cores it shares the second worker's.
    workers: { type: 'string', default: '1' },
    // wrk only, no fixed-rate run: like for like with an older harness, whose scenarios did not
    // leave a fixed-rate run's clicks for the next one to share the core with.
    'closed-only': { type: 'boolean', default: false },
    // Runs each scenario N times in a row on the same service, with its RSS after each run: whether
    // memory levels off or keeps growing.
    repeat: { type: 'string', default: '1' },
    // Options for the service's node (e.g. '--max-semi-space-size=8'), for memory experiments.
    'node-args': { type: 'string', default: '' },
    // SQLite only: the database's files are dropped from the operating system's page cache after
    // each warm-up, so the measured run reads from the disk what the service does not hold itself.
    'cold-cache': { type: 'boolean', default: false },
  },
});
const scale = args.scale;
const duration = Number(args.duration);
const connections = Number(args.connections);
const databaseUrl = process.env.DATABASE_URL || `sqlite:./data/bench-${scale}.sqlite`;
const sqliteFile = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : undefined;
// PostgreSQL keeps its own buffers, which only a restart of the server empties.
if (args['cold-cache'] && !sqliteFile) throw new Error('--cold-cache is for a SQLite data set: PostgreSQL keeps the pages in its own shared buffers');
const SERVICE_PORT = 3901;
const BARE_PORT = 3902;
/** The service's Prometheus port: its event-loop delay monitor gives the serving thread's longest pause. */
const METRICS_PORT = 3903;
const NO_OPEN_LOOP: OpenLoopResult & { requests: number } & CpuPerRequest = { rate: 0, sent: 0, answered: 0, errors: 0, late: 0, warmupAnswered: 0, p50: Number.NaN, p99: Number.NaN, p999: Number.NaN, max: Number.NaN, requests: 0, cpuUs: { all: Number.NaN, serving: Number.NaN } };
/** The open-loop rate, as a share of the closed-loop throughput of the same scenario in the same run. */
const OPEN_LOOP_SHARE = 0.5;

function ensureData(): void {
  if (sqliteFile && !existsSync(sqliteFile)) {
    log(`No data set at ${sqliteFile}: generating it (npm run bench:data -- --scale ${scale})...`);
    execFileSync('npm', ['run', 'bench:data', '--', '--scale', scale], { stdio: 'inherit' });
  }
}

const workers = Number(args.workers);
const repeat = Number(args.repeat);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat must be a whole number from 1');
if (!Number.isInteger(workers) || workers < 1 || workers > cpus().length) throw new Error(`--workers must be from 1 to ${cpus().length}`);

function zipfSample(items: string[], draws: number, s = 1.0): string[] {
  // Inverse-CDF sampling with a fixed seed: rank r is drawn with probability ∝ 1 / r^s.
  const weights = items.map((_, i) => 1 / (i + 1) ** s);
  const total = weights.reduce((a, b) => a + b, 0);
  const cdf: number[] = [];
  let acc = 0;
  for (const w of weights) cdf.push((acc += w / total));
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const out: string[] = [];
  for (let i = 0; i < draws; i++) {
    const u = random();
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    out.push(items[lo]!);
  }
  return out;
}

interface Scenario extends Load {
  name: string;
  baseline: 'redirect' | 'json';
}

/** Analytics over the data set's clicks (the 90 days before its anchor), at one connection: latency, not throughput. */
function analyticsScenarios(auth: string, brandAuth: string, anchor: string): Scenario[] {
  const day = (daysBefore: number) => new Date(Date.parse(anchor) - daysBefore * 86_400_000).toISOString().slice(0, 10);
  const range = (days: number) => `start=${day(days)}&end=${day(1)}`;
  return [
    { name: 'analytics: timeseries 30 d, one affiliate', paths: [`/affiliate/analytics?${range(30)}`], baseline: 'json', headers: auth, connections: 1 },
    { name: 'analytics: top countries 90 d', paths: [`/affiliate/analytics?groupBy=countries&${range(90)}`], baseline: 'json', headers: auth, connections: 1 },
    { name: 'analytics: top links 7 d', paths: [`/affiliate/analytics?groupBy=links&limit=10&${range(7)}`], baseline: 'json', headers: auth, connections: 1 },
    // Local days in Berlin start at 23:00 UTC: the range's edges are read from the hourly rows.
    { name: 'analytics: top links 7 d, Europe/Berlin', paths: [`/affiliate/analytics?groupBy=links&limit=10&timezone=Europe/Berlin&${range(7)}`], baseline: 'json', headers: auth, connections: 1 },
    { name: "analytics: a brand's affiliates 30 d", paths: [`/advertiser/analytics?groupBy=affiliates&${range(30)}`], baseline: 'json', headers: brandAuth, connections: 1 },
  ];
}

async function scenarios(database: Database, key: string, brandKey: string): Promise<Scenario[]> {
  const { db } = database;
  const random = database.dialect === 'postgres' ? sql`random()` : sql`random()`;
  const uniformCodes = (await db.selectFrom('short_links').select('code').where('active', '=', 1).orderBy(random).limit(100_000).execute()).map((r) => `/${r.code}`);
  const hotCodes = (await db.selectFrom('short_links').select('code').where('active', '=', 1).orderBy(random).limit(10_000).execute()).map((r) => `/${r.code}`);
  const bigBrands = await biggestPublicBrands(database, 20);
  const categories = (await db.selectFrom('brand_categories').select('category').distinct().limit(10).execute()).map((r) => r.category);
  const manifestFile = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length).replace(/\.sqlite$/, '.json') : `./data/bench-${scale}.json`;
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>) : {};
  const words = [
    ...((manifest.frequentWords as string[] | undefined) ?? ['sneakers', 'coffee']).slice(0, 3),
    ...((manifest.rareWords as string[] | undefined) ?? ['headphones']).slice(0, 3),
  ];
  const pages = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
  const auth = `x-api-key: ${key}`;
  const browser = 'user-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
  const someBrand = bigBrands[0]!;
  return [
    { name: 'redirect, Zipf codes', paths: zipfSample(hotCodes, 100_000), baseline: 'redirect', headers: browser },
    { name: 'redirect, uniform codes', paths: uniformCodes, baseline: 'redirect', headers: browser },
    // A tracker's click: two sub-ids, each value seen on many clicks (ad sets and creatives).
    {
      name: 'redirect, Zipf codes, with sub-ids',
      paths: zipfSample(hotCodes, 100_000).map((path, i) => `${path}?sub1=adset-${i % 97}&sub2=creative-${i % 1_009}`),
      baseline: 'redirect',
      headers: browser,
    },
    {
      name: 'brands list',
      paths: [...pages(20).map((p) => `/affiliate/brands?page=${p}`), ...categories.map((c) => `/affiliate/brands?categories=${encodeURIComponent(c)}`), '/affiliate/brands?isPublic=true&isHighlight=true'],
      baseline: 'json',
      headers: auth,
    },
    {
      name: 'products, filters',
      paths: bigBrands.flatMap((b) => pages(5).map((p) => `/affiliate/products?organizationIds=${b}&isAvailable=true&limit=20&page=${p}`)),
      baseline: 'json',
      headers: auth,
    },
    { name: 'products, search', paths: words.map((w) => `/affiliate/products?search=${encodeURIComponent(w)}&limit=20`), baseline: 'json', headers: auth },
    {
      name: 'products, price range',
      paths: ['1000:5000', '5000:20000', '20000:100000', '0:999'].map((r) => `/affiliate/products?price=${r}&limit=20`),
      baseline: 'json',
      headers: auth,
    },
    {
      name: 'campaigns, filters',
      paths: [
        ...pages(10).map((p) => `/affiliate/campaigns?types=Offer&status=onTime&limit=20&page=${p}`),
        ...pages(10).map((p) => `/affiliate/campaigns?types=PersonalCoupon,GenericCoupon&limit=20&page=${p}`),
        `/affiliate/campaigns?organizationId=${someBrand}`,
      ],
      baseline: 'json',
      headers: auth,
    },
    {
      name: 'orders, date range',
      paths: ['2025-01-01', '2025-04-01', '2025-07-01', '2025-10-01'].flatMap((from) => pages(5).map((p) => `/affiliate/orders?from=${from}&to=2026-06-30&limit=50&page=${p}`)),
      baseline: 'json',
      headers: auth,
    },
    // An affiliate's links of one type, newest first: the page the portal's links list asks for.
    { name: 'links list', paths: pages(20).map((p) => `/affiliate/shortener/urls?type=BrandPage&limit=20&page=${p}`), baseline: 'json', headers: auth },
    {
      name: 'shortener create',
      paths: ['/affiliate/shortener/url'],
      baseline: 'json',
      method: 'POST',
      body: JSON.stringify({ organizationId: someBrand, type: 'BrandPage', mdasc: 'bench-{rand}' }),
      headers: `${auth}|content-type: application/json`,
    },
    ...analyticsScenarios(auth, `x-api-key: ${brandKey}`, typeof manifest.anchor === 'string' ? manifest.anchor : '2026-11-01T00:00:00.000Z'),
  ].map((s) => ({ ...s, headers: s.headers })) as Scenario[];
}

/**
 * The clicks stored since `since` (a click id time prefix), once the service has written them all:
 * it is asked until the figure has reached `expected` and stood still for 1 s, or stood still
 * for 3 s.
 */
async function storedClicks(since: string, expected: number): Promise<{ stored: number; counted: number }> {
  const database = openDatabase(databaseUrl);
  try {
    let last = { stored: -1, counted: -1 };
    let still = Date.now();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(250)) {
      const row = await database.db.selectFrom('clicks').select((eb) => [eb.fn.countAll<number>().as('stored'), eb.fn.sum<number>('counted').as('counted')]).where('id', '>=', since).executeTakeFirstOrThrow();
      const now = { stored: Number(row.stored), counted: Number(row.counted ?? 0) };
      if (now.stored !== last.stored) still = Date.now();
      else if (Date.now() - still > (now.stored >= expected ? 1000 : 3000)) return now;
      last = now;
    }
    return last;
  } finally {
    await database.close();
  }
}

/**
 * The longest delay the service's event-loop monitor saw since it was last read (prom-client's
 * nodejs_eventloop_lag_max_seconds, reset by each read), in ms; NaN when the metrics do not answer.
 */
async function longestLoopPauseMs(): Promise<number> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
    const match = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
    return match ? Number(match[1]) * 1000 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function main(): Promise<void> {
  ensureTools();
  ensureData();
  const database = openDatabase(databaseUrl);
  const affiliate = (await database.db.selectFrom('affiliates').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  // A real operator feature raises the benchmark key's limit; limiting stays on.
  const key = benchKey(databaseUrl, '--affiliate', affiliate);
  // The brand with the most clicks of the first affiliate's links, for the brand's analytics.
  const brand = (await database.db.selectFrom('click_rollups').select('value').where('affiliate_id', '=', affiliate).where('organization_id', '=', '').where('link_id', '=', '').where('dimension', '=', 'brand').groupBy('value').orderBy((eb) => eb.fn.sum('counted'), 'desc').limit(1).executeTakeFirst())?.value;
  const brandKey = brand ? benchKey(databaseUrl, '--brand', brand) : '';
  // --connections, for every scenario that does not set its own.
  const all = (await scenarios(database, key, brandKey)).map((one) => ({ ...one, connections: one.connections ?? connections }));
  await database.close();
  // --only: scenarios whose name contains any of its parts, separated by '|' (names hold commas).
  const wanted = args.only?.split('|').map((part) => part.trim()).filter(Boolean);
  const selected = wanted ? all.filter((s) => wanted.some((part) => s.name.includes(part))) : all;

  log('Starting the bare node:http baseline, then the service (production mode)...');
  const bareCmd = pinned(0, process.execPath, ['bench/bare-server.mjs', String(BARE_PORT)]);
  const bare = spawn(bareCmd.command, bareCmd.args, { stdio: 'ignore' });
  // The baseline is up before the service starts: the cold start is the service's alone, not
  // shared with another process starting on the same core.
  await waitFor(`http://127.0.0.1:${BARE_PORT}/`, bare).catch((error: unknown) => {
    bare.kill('SIGTERM');
    throw error;
  });
  const profiling = args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [];
  const serviceCores = workers === 1 ? 0 : `0-${workers - 1}`;
  const serviceCmd = pinned(serviceCores, process.execPath, [...profiling, ...args['node-args'].split(' ').filter(Boolean), 'dist/server/main.js', 'serve', ...(workers > 1 ? ['--workers', String(workers)] : [])]);
  const started = performance.now();
  // Started as `npm start` and the systemd unit start it: glibc's malloc arenas limited to two.
  const service = spawn(serviceCmd.command, serviceCmd.args, {
    env: { MALLOC_ARENA_MAX: '2', ...process.env, NODE_ENV: 'production', TRUST_PROXY: '1', REDIS_PREFIX: `bench-${Date.now()}:`, DATABASE_URL: databaseUrl, PORT: String(SERVICE_PORT), METRICS_PORT: String(METRICS_PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${SERVICE_PORT}` },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let serviceErr = '';
  service.stderr.on('data', (chunk: Buffer) => {
    serviceErr += chunk.toString();
    process.stderr.write(chunk);
  });
  try {
    await waitFor(`http://127.0.0.1:${SERVICE_PORT}/healthz`, service);
    const coldStartMs = Math.round(performance.now() - started);
    // The first worker answers /healthz; the others start after it.
    for (const deadline = Date.now() + 60_000; workers > 1 && !serviceErr.includes(`serving with ${workers} workers`); await sleep(50)) {
      if (Date.now() > deadline) throw new Error(`the service did not start ${workers} workers within 60 s`);
    }

    const baselines = {
      redirect: measuringCpu(bare.pid!, () => wrk(`http://127.0.0.1:${BARE_PORT}`, { paths: ['/r'] }, duration)),
      json: measuringCpu(bare.pid!, () => wrk(`http://127.0.0.1:${BARE_PORT}`, { paths: ['/json'] }, duration)),
    };
    const busy = measuringCpu(bare.pid!, () => wrk(`http://127.0.0.1:${BARE_PORT}`, { paths: ['/busy'] }, duration));
    const rows: string[] = [];
    const line = (name: string, r: Result & CpuPerRequest, ratio: string, peakRss = '—') =>
      `| ${name} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} | ${r.timeouts} | ${ratio} | ${Math.round(r.cpuUs.all).toLocaleString('en-US')} (${Math.round(r.cpuUs.serving).toLocaleString('en-US')}) | ${peakRss} |`;
    rows.push(
      line('bare node:http, 302', baselines.redirect, '1.00'),
      line('bare node:http, JSON', baselines.json, '1.00'),
      line('bare node:http, JSON after 1 ms of CPU', busy, (busy.rps / baselines.json.rps).toFixed(2)),
    );
    const clickChecks: string[] = [];
    const openRows: string[] = [];
    const openRates: Array<[Scenario, number]> = [];
    const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '—');
    const rssAfterRuns = new Map<string, number[]>();
    /** With --cold-cache: per measured run, the database's MB still in the page cache as it began and what the service read from the disk during it. */
    const coldRuns: string[] = [];
    for (const [scenario, run] of selected.flatMap((one) => Array.from({ length: repeat }, (_, i) => [one, i + 1] as const))) {
      log(`Scenario: ${scenario.name}${repeat > 1 ? `, run ${run} of ${repeat}` : ''}`);
      const since = clickIdTimePrefix(Date.now());
      const warm = wrk(`http://127.0.0.1:${SERVICE_PORT}`, scenario, 2); // warm-up: caches, JIT, SQLite pages
      const resident = args['cold-cache'] ? evictFromPageCache([sqliteFile!, `${sqliteFile}-wal`]) : 0;
      const readBefore = args['cold-cache'] ? diskReadMb(service.pid!) : 0;
      const result = measuringCpu(service.pid!, () => wrk(`http://127.0.0.1:${SERVICE_PORT}`, scenario, duration));
      if (args['cold-cache']) coldRuns.push(`${scenario.name}: ${resident} MB resident, ${Math.round(diskReadMb(service.pid!) - readBefore)} MB read`);
      // The peak so far, so the scenario that raised it shows.
      const name = repeat > 1 ? `${scenario.name}, run ${run}` : scenario.name;
      rows.push(line(name, result, (result.rps / baselines[scenario.baseline].rps).toFixed(2), String(residentMb(service.pid!))));
      // Its CPU too: what the other threads (click writer, read worker) spend beside a list at a
      // fixed rate is the background work its tail shares the core with.
      // Read once to start the event-loop monitor's window afresh (each read resets it).
      if (!args['closed-only']) await longestLoopPauseMs();
      const open = args['closed-only']
        ? NO_OPEN_LOOP
        : measuringCpu(service.pid!, () => {
            const one = openLoop(`http://127.0.0.1:${SERVICE_PORT}`, scenario, OPEN_LOOP_SHARE * result.rps, duration);
            return { ...one, requests: one.warmupAnswered + one.answered };
          });
      if (!args['closed-only']) openRates.push([scenario, OPEN_LOOP_SHARE * result.rps]);
      if (!args['closed-only']) openRows.push(`| ${name} | ${open.rate.toLocaleString('en-US')} | ${ms(open.p50)} | ${ms(open.p99)} | ${ms(open.p999)} | ${ms(open.max)} | ${ms(await longestLoopPauseMs())} | ${open.errors} | ${open.late} | ${Math.round(open.cpuUs.all).toLocaleString('en-US')} (${Math.round(open.cpuUs.serving).toLocaleString('en-US')}) |`);
      if (scenario.baseline === 'redirect') {
        // Every visitor is new (wrk-paths.lua), so every click must be counted. wrk leaves out the
        // answers still in flight when a run ends (at most one per connection): the service
        // answered and stored those clicks too.
        const redirects = warm.requests - warm.non2xx + result.requests - result.non2xx + open.warmupAnswered + open.answered - open.errors;
        const inFlight = 2 * (scenario.connections ?? connections);
        const { stored, counted } = await storedClicks(since, redirects);
        const ok = counted === stored && stored >= redirects && stored - redirects <= inFlight;
        const verdict = ok ? `every one counted (${stored - redirects} answered after wrk stopped reading)` : `**MISMATCH** (timeouts: ${warm.timeouts + result.timeouts})`;
        clickChecks.push(`- ${name}: ${redirects.toLocaleString('en-US')} redirects answered 302 (warm-ups and the fixed-rate run included), ${stored.toLocaleString('en-US')} clicks stored, ${counted.toLocaleString('en-US')} counted: ${verdict}.`);
        if (!ok) process.exitCode = 1;
      }
      if (repeat > 1) rssAfterRuns.set(scenario.name, [...(rssAfterRuns.get(scenario.name) ?? []), residentMb(service.pid!, 'VmRSS')]);
    }
    // The harness's own floor: the bare 302 server at the rate the first redirect scenario was
    // driven at (its tail is the generator's, the host's and node:http's, none of the service's).
    const redirectRate = openRates.find(([scenario]) => scenario.baseline === 'redirect')?.[1];
    if (redirectRate !== undefined) {
      log('Fixed rate: the bare 302 server at the redirect rate');
      const floor = openLoop(`http://127.0.0.1:${BARE_PORT}`, { paths: ['/r'], connections }, redirectRate, duration);
      openRows.unshift(`| bare node:http, 302 (this harness's floor) | ${floor.rate.toLocaleString('en-US')} | ${ms(floor.p50)} | ${ms(floor.p99)} | ${ms(floor.p999)} | ${ms(floor.max)} | — | ${floor.errors} | ${floor.late} | — |`);
    }
    // A timed step after the scenarios, so the file's rows do not share the core with them.
    const reconciliation =
      !wanted || wanted.some((part) => RECONCILIATION_STEP.includes(part))
        ? await reconciliationPreview(`http://127.0.0.1:${SERVICE_PORT}`, databaseUrl, service.pid!, brand ? { id: brand, key: brandKey } : undefined)
        : '';
    const rss = residentMb(service.pid!);
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    const sizeNote = databaseUrl.startsWith('sqlite:') ? ` (${Math.round(statSync(databaseUrl.slice(7)).size / 1e6)} MB file)` : '';
    const report = [
      `# Benchmark, scale ${scale}, ${new Date().toISOString().slice(0, 10)}`,
      '',
      `Machine: ${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Database: ${databaseUrl.split(':')[0]}${sizeNote}${process.env.REDIS_URL ? ', Redis' : ''}.${workers > 1 ? ` Service: \`serve --workers ${workers}\` on cores 0-${workers - 1} (wrk shares core 1 with a worker).` : ''}`,
      `wrk: 1 thread, ${connections} connections (analytics: 1, for latency), ${duration} s per scenario after a 2 s warm-up; server on core 0, wrk on core 1. Ratios: req/s against the bare node:http server of the same kind (302 or JSON) in this run. The bare JSON after 1 ms of CPU shows what queueing alone does to a request costing about as much as a list page. CPU per request: user + system time of the server's processes during the measured run, over the answers, of every thread (the service's click writer and read worker included; not PostgreSQL's or Redis') and in parentheses of the serving thread alone: unlike req/s, time the host gives other guests does not move it.`,
      '',
      '| scenario | req/s | p50 ms | p99 ms | errors | timeouts (> 2 s) | ratio to bare | CPU µs per request (serving thread) | service peak RSS so far, MB |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Service peak RSS: ${rss} MB. Cold start (spawn to first /healthz answer): ${coldStartMs} ms.`,
      '',
      ...(args['cold-cache']
        ? [`Cold page cache (--cold-cache): the database's files were dropped from the operating system's page cache after each warm-up (the service's own caches stay warm); as each measured run began, what was still resident, and what the service read from the disk during it: ${coldRuns.join('; ')}.`, '']
        : []),
      ...[...rssAfterRuns].map(([scenario, mbs]) => `RSS after each run of ${scenario} (VmRSS, MB): ${mbs.join(', ')}.\n`),
      ...(openRows.length > 0
        ? [
            `At a fixed rate: each scenario again, driven at ${OPEN_LOOP_SHARE * 100} % of the req/s it reached above (bench/open-loop.ts, same connections, ${duration} s after a 2 s warm-up), latency counted from each request's intended send time. Late: answered more than 2 s after that time, or not at all. The longest pause: the largest delay of the service's event-loop monitor (perf_hooks.monitorEventLoopDelay, read from its metrics) over the run, warm-up included: the longest any request waited for the serving thread.`,
            '',
            '| scenario | rate, req/s | p50 ms | p99 ms | p99.9 ms | max ms | serving thread\'s longest pause, ms | errors | late | CPU µs per request, warm-up included (serving thread) |',
            '|---|---|---|---|---|---|---|---|---|---|',
            ...openRows,
            '',
          ]
        : []),
      ...(clickChecks.length > 0 ? ['Clicks (each request a new visitor):', '', ...clickChecks, ''] : []),
      ...(reconciliation !== '' ? [reconciliation] : []),
    ].join('\n');
    process.stdout.write(`\n${report}`);
    mkdirSync('bench/results', { recursive: true });
    const variant = `${databaseUrl.startsWith('postgres') ? '-postgres' : ''}${workers > 1 ? `-workers${workers}` : ''}${repeat > 1 ? `-repeat${repeat}` : ''}${args['cold-cache'] ? '-cold-cache' : ''}${args.only ? '-partial' : ''}`;
    const file = `bench/results/${new Date().toISOString().slice(0, 10)}-${scale}${variant}.md`;
    writeFileSync(file, report);
    log(`Written to ${file}`);
  } finally {
    service.kill('SIGTERM');
    bare.kill('SIGTERM');
    await sleep(500);
  }
}

await main();
