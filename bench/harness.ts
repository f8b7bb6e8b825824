// What the benchmarks share: the built service and wrk ready, processes pinned to cores, load
// driven by wrk (closed loop) or bench/open-loop.ts (fixed rate), and the CPU and resident memory
// a process used, read from /proc (Linux).
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenLoopResult } from './open-loop.js';
import { isStale } from '../scripts/build-freshness.mjs';
import type { Database } from '../src/storage/database.js';

/** The run's work directory: the load generators' path files. */
const work = join(tmpdir(), `affnet-bench-${process.pid}`);
mkdirSync(work, { recursive: true });
/** wrk's and the fixed-rate load's connections when a load does not say. */
export const DEFAULT_CONNECTIONS = 50;

export const log = (line: string) => process.stderr.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a load generator sends: paths (one drawn per request), and the same method, body and headers on each. */
export interface Load {
  paths: string[];
  method?: string;
  body?: string;
  headers?: string;
  /** Connections for this load (default: DEFAULT_CONNECTIONS, or the bench's --connections). */
  connections?: number;
}

export function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(command, commandArgs, { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

export function ensureTools(): void {
  if (spawnSync('wrk', ['--version']).error) {
    log('wrk is not installed; installing it from Debian packages (apt-get install wrk)...');
    const installed = spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], { stdio: 'inherit' });
    if (installed.status !== 0) throw new Error('wrk is required: install it with `apt-get install wrk`');
  }
  // Run directly (`tsx bench/run.ts`, not `npm run bench`), a build older than the sources
  // would measure other code than the checkout's.
  if (isStale('dist/server/main.js', 'src')) run('npm', ['run', 'build']);
}

/**
 * A key for the bench's load, made with the built command: the affiliate's or brand's, with a
 * raised per-key limit (a real operator feature; limiting stays on).
 */
export function benchKey(databaseUrl: string, owner: '--affiliate' | '--brand', id: string): string {
  return run('node', ['dist/server/main.js', 'keys', 'create', owner, id, '--rate-limit', '1000000000', '--name', 'bench'], { DATABASE_URL: databaseUrl }).trim().split('\n').at(-1)!;
}

export const pinned = (core: number | string, command: string, commandArgs: string[]) =>
  cpus().length > 1 ? { command: 'taskset', args: ['-c', String(core), command, ...commandArgs] } : { command, args: commandArgs };

export async function waitFor(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url, { redirect: 'manual' })).status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** A process and its children (Linux), e.g. the primary of `serve --workers` and its workers. */
export function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}

/**
 * CPU time (user + system, Linux) `pid`'s tree has used so far, in ms: of all its threads, and of
 * the serving threads alone (each process's main thread, whose id is the process id). Read before
 * and after a run, it gives the CPU each request cost, which time stolen by other guests on the
 * host does not inflate as it does req/s. PostgreSQL's and Redis' own processes are not included.
 */
export function cpuMs(pid: number): { all: number; serving: number } {
  const ticksPerSecond = 100; // USER_HZ on Linux
  const used = (stat: string) => {
    // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
    const fields = readFileSync(stat, 'utf8').split(')').at(-1)!.trim().split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / ticksPerSecond);
  };
  const tree = processTree(pid);
  return {
    all: tree.reduce((sum, one) => sum + used(`/proc/${one}/stat`), 0),
    serving: tree.reduce((sum, one) => sum + used(`/proc/${one}/task/${one}/stat`), 0),
  };
}

export interface CpuPerRequest {
  /** µs of CPU per answered request, all threads; and of the serving threads alone. */
  cpuUs: { all: number; serving: number };
}

/** Runs `load` and says how many µs of `pid`'s CPU each of its requests cost. */
export function measuringCpu<R extends { requests: number }>(pid: number, load: () => R): R & CpuPerRequest {
  const before = cpuMs(pid);
  const result = load();
  const after = cpuMs(pid);
  const per = (ms: number) => (result.requests > 0 ? (ms * 1000) / result.requests : Number.NaN);
  return { ...result, cpuUs: { all: per(after.all - before.all), serving: per(after.serving - before.serving) } };
}

/**
 * Resident memory of the largest process of `pid`'s tree, in MB (the bound is per process): its
 * peak so far (Linux VmHWM), or with 'VmRSS' what it holds now.
 */
export function residentMb(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  const resident = (one: number) => {
    const status = readFileSync(`/proc/${one}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  };
  return Math.round(Math.max(...processTree(pid).map(resident)) / 1024);
}

export interface Result {
  /** Answers received (any status). */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx/3xx, and socket errors other than timeouts. */
  errors: number;
  /** Requests wrk gave up on after its 2 s timeout: the latency tail, not failures. */
  timeouts: number;
  /** Answers that were not 2xx/3xx. */
  non2xx: number;
}

function toMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

let loadRuns = 0;
/**
 * The first octet of the visitor addresses of the next load run: each run of this bench (warm-ups
 * included) sends from a /8 of its own, so no visitor of one run repeats one of another and every
 * click must count (200 runs before a block comes round again; a full bench has about 60).
 */
const nextAddressBlock = (): string => String(11 + (loadRuns++ % 200));

/** The scenario's paths, one a line, in a file of the run's work directory (both load generators read it). */
function writePaths(paths: string[]): string {
  const file = join(work, `paths-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, paths.join('\n') + '\n');
  return file;
}

export function wrk(url: string, scenario: Load, seconds: number): Result {
  const pathsFile = writePaths(scenario.paths);
  const { command, args: wrkArgs } = pinned(1, 'wrk', ['-t1', `-c${scenario.connections ?? DEFAULT_CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', 'bench/wrk-paths.lua', url]);
  const seed = String(Math.floor(Math.random() * 2 ** 30));
  const out = run(command, wrkArgs, { PATHS_FILE: pathsFile, METHOD: scenario.method ?? 'GET', BODY: scenario.body ?? '', HEADERS: scenario.headers ?? '', SEED: seed, ADDRESS_BLOCK: nextAddressBlock() });
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p50 = toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? '');
  const p99 = toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const [connect, read, write, timeouts] = socket ? socket.slice(1).map(Number) : [0, 0, 0, 0];
  return { requests, rps, p50, p99, errors: non2xx + connect! + read! + write!, timeouts: timeouts!, non2xx };
}

/**
 * The scenario driven at a fixed rate (bench/open-loop.ts, pinned like wrk): latency from each
 * request's intended send time, so queueing behind a stall is counted, not hidden.
 */
export function openLoop(url: string, scenario: Load, rate: number, seconds: number): OpenLoopResult {
  const pathsFile = writePaths(scenario.paths);
  const { command, args: loadArgs } = pinned(1, process.execPath, [
    // A young generation of 64 MB: the generator's own scavenges (each a pause in sending, counted
    // as latency) fell from about 300 to 62 in a 12 s run at 7,000 req/s.
    '--max-semi-space-size=64',
    '--min-semi-space-size=64',
    '--import',
    'tsx',
    'bench/open-loop.ts',
    '--url',
    url,
    '--rate',
    String(Math.max(1, Math.round(rate))),
    '--seconds',
    String(seconds),
    '--paths',
    pathsFile,
    '--connections',
    String(scenario.connections ?? DEFAULT_CONNECTIONS),
    '--method',
    scenario.method ?? 'GET',
    '--body',
    scenario.body ?? '',
    '--headers',
    scenario.headers ?? '',
    '--address-block',
    nextAddressBlock(),
  ]);
  return JSON.parse(run(command, loadArgs).trim().split('\n').at(-1)!) as OpenLoopResult;
}

/** The public brands with the most products, most first: whose product lists the bench asks for. */
export async function biggestPublicBrands(database: Database, count: number): Promise<string[]> {
  const { db } = database;
  const rows = await db
    .selectFrom('products')
    .select(['organization_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('organization_id', 'in', db.selectFrom('brands').select('id').where('is_public', '=', 1))
    .groupBy('organization_id')
    .orderBy('n', 'desc')
    .limit(count)
    .execute();
  return rows.map((row) => row.organization_id);
}

/**
 * Drops these files' pages from the operating system's page cache (posix_fadvise DONTNEED through
 * GNU dd's `iflag=nocache`; no privilege needed, unlike /proc/sys/vm/drop_caches) and answers how
 * many MB of them are still resident (util-linux's fincore): what a first read after it finds.
 */
export function evictFromPageCache(files: string[]): number {
  const present = files.filter((file) => existsSync(file));
  for (const file of present) run('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
  const resident = present.map((file) => Number(run('fincore', ['--bytes', '--noheadings', '--output', 'RES', file]).trim()));
  return Math.round(resident.reduce((sum, bytes) => sum + bytes, 0) / 2 ** 20);
}

/** What the process has read from the disk so far, in MB (its threads' included; page cache hits are not counted). */
export function diskReadMb(pid: number): number {
  const bytes = Number(/^read_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  return bytes / 2 ** 20;
}
