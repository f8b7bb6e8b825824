// npm run bench:feed -- [--items 1000000] [--description 300] [--postgres URL] [--duration 10] [--profile DIR] [--file PATH]
//
// Imports a generated Google Merchant Center XML feed (30% of items in groups of three options,
// every seventh out of stock) through a real feed run of the built service in production mode, on
// a fresh database: SQLite by default, or a new database on the PostgreSQL server of --postgres
// (dropped afterwards). The feed is written to a gzip file first and served from it on loopback,
// so making it costs nothing while the run is measured.
//
// The service is pinned to core 0, the bare node:http server too, and wrk to core 1, as in
// `npm run bench`. Before the run, redirects are driven for --duration seconds (the idle ratio to
// the bare 302 server); then the feed is saved, which runs it at once on the job runner, and
// redirects are driven in --duration-second rounds until the run ends. Prints the run's report,
// its time, items per second, the service's peak RSS (VmHWM: the feed's worker thread is in the
// same process) and the redirect ratios, and writes them to bench/results/<date>-feed-<items>.md.
// With --file, only writes the feed (gzip) to PATH and exits.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { createService } from '../src/server.js';
import { brandInput } from '../test/helpers/world.js';
import { googleXml } from '../test/helpers/feeds.js';
import { onServer, urlOf } from '../test/helpers/databases.js';
import { benchKey, ensureTools, log, pinned, residentMb, sleep, waitFor, wrk, type Result } from './harness.js';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000000' },
    description: { type: 'string', default: '300' },
    postgres: { type: 'string' },
    duration: { type: 'string', default: '10' },
    file: { type: 'string' },
    // Writes a V8 CPU profile of the service to this directory (see `npm run bench`'s --profile).
    profile: { type: 'string' },
  },
});
const shape = { items: Number(args.items), descriptionChars: Number(args.description) };
const duration = Number(args.duration);
const BRAND = '22222222-2222-4222-8222-222222222222';
const AFFILIATE = 'aff-feed-bench';
const SERVICE_PORT = 3911;
const BARE_PORT = 3912;

async function writeFeed(file: string): Promise<void> {
  await pipeline(Readable.from(googleXml(shape)), createGzip(), createWriteStream(file));
}

if (args.file) {
  await writeFeed(args.file);
  console.log(`wrote ${shape.items} items to ${args.file}`);
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'affnet-feed-bench-'));
const postgresName = `affnet_feed_bench_${process.pid}`;
const onPostgres = (statement: string) => onServer(args.postgres!, (client) => client.query(statement));
const databaseUrl = () => (args.postgres ? urlOf(args.postgres, postgresName) : `sqlite:${join(work, 'bench.db')}`);

/** The brand, an affiliate with a site, and the service's tables: made in-process, before the built service starts. */
async function prepare(url: string): Promise<void> {
  const service = await createService(loadConfig({ DATABASE_URL: url, PUBLIC_URL: 'http://go.bench', SCHEDULE_POLL_MS: '0', MAIL_POLL_MS: '0' }));
  try {
    await service.services.imports.upsertBrand(brandInput({ id: BRAND, name: 'Bench shop', slug: 'bench-shop', site: 'https://www.example.com' }));
    await service.services.channels.ensureKinds();
    await service.services.access.upsertAffiliate(AFFILIATE, 'Feed bench');
    await service.services.channels.create(AFFILIATE, 'site', 'Bench blog');
  } finally {
    await service.close();
  }
}

/** Serves the gzip file on loopback, as a shop's server sends a compressed feed. */
async function serveFeed(file: string): Promise<{ url: string; close: () => void }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip', 'content-length': String(statSync(file).size) });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`, close: () => server.close() };
}

interface Run {
  status: string;
  reason?: string;
  items: number;
  added: number;
  updated: number;
  refused: number;
  bytes: number;
  startedAt: string;
  finishedAt?: string;
}

async function main(): Promise<void> {
  ensureTools();
  const url = databaseUrl();
  if (args.postgres) await onPostgres(`create database ${postgresName}`);
  const feedFile = join(work, 'feed.xml.gz');
  log(`Writing ${shape.items.toLocaleString('en-US')} items to ${feedFile}...`);
  await writeFeed(feedFile);
  log(`${Math.round(statSync(feedFile).size / 1e6)} MB of gzip. Preparing the database...`);
  await prepare(url);
  const feed = await serveFeed(feedFile);

  const bareCmd = pinned(0, process.execPath, ['bench/bare-server.mjs', String(BARE_PORT)]);
  const bare = spawn(bareCmd.command, bareCmd.args, { stdio: 'ignore' });
  const profiling = args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [];
  const serviceCmd = pinned(0, process.execPath, [...profiling, 'dist/server/main.js', 'serve']);
  const env = { ...process.env, DATABASE_URL: url, WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' };
  const service = spawn(serviceCmd.command, serviceCmd.args, {
    env: { MALLOC_ARENA_MAX: '2', ...env, NODE_ENV: 'production', TRUST_PROXY: '1', PORT: String(SERVICE_PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${SERVICE_PORT}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${SERVICE_PORT}`;
  try {
    await waitFor(`${base}/healthz`, service);
    await waitFor(`http://127.0.0.1:${BARE_PORT}/`, bare);
    const brandKey = benchKey(url, '--brand', BRAND);
    const affiliateKey = benchKey(url, '--affiliate', AFFILIATE);
    // A new connection each time: a kept one may be closed by the service's keep-alive timeout as it is reused.
    const api = async (method: string, path: string, key: string, body?: object) => {
      const response = await fetch(`${base}${path}`, { method, headers: { 'x-api-key': key, connection: 'close', ...(body ? { 'content-type': 'application/json' } : {}) }, body: body && JSON.stringify(body) });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as unknown;
    };
    // The shortener answers the affiliate's channels, each with its links (the spec's shape, no envelope).
    const links = (await api('POST', '/affiliate/shortener/url', affiliateKey, { organizationId: BRAND, type: 'BrandPage' })) as { shortUrls: string[] }[];
    const redirect = { paths: [new URL(links[0]!.shortUrls[0]!).pathname] };

    const bareRedirect = wrk(`http://127.0.0.1:${BARE_PORT}`, { paths: ['/r'] }, duration);
    wrk(base, redirect, 2); // warm-up
    const idle = wrk(base, redirect, duration);
    const rssBefore = residentMb(service.pid!);
    log(`Idle: ${Math.round(idle.rps)} redirects/s (ratio ${(idle.rps / bareRedirect.rps).toFixed(2)}), peak RSS ${rssBefore} MB. Saving the feed...`);

    const started = performance.now();
    await api('PUT', '/advertiser/feeds/bench', brandKey, { url: feed.url, format: 'google-xml', schedule: 'daily' });
    // Each round, and whether the run had started when it began (the job runner takes it within a poll).
    const rounds: { result: Result; started: boolean }[] = [];
    const lastRun = async () => ((await api('GET', '/advertiser/feeds/bench/runs?limit=1', brandKey)) as { data: Run[] }).data[0];
    let last = await lastRun();
    while (last?.status !== 'complete' && last?.status !== 'failed') {
      rounds.push({ result: wrk(base, redirect, duration), started: last !== undefined });
      log(`  ${Math.round(rounds.at(-1)!.result.rps)} redirects/s while importing (${last ? `${last.items.toLocaleString('en-US')} items read` : 'not started'})`);
      last = await lastRun();
    }
    const seconds = last.finishedAt ? (Date.parse(last.finishedAt) - Date.parse(last.startedAt)) / 1000 : (performance.now() - started) / 1000;
    const rss = residentMb(service.pid!);
    await sleep(100);

    const ratio = (r: Result) => (r.rps / bareRedirect.rps).toFixed(2);
    const spread = (ratios: number[]) => {
      const sorted = [...ratios].sort((a, b) => a - b);
      return `lowest ${sorted[0]!.toFixed(2)}, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}, highest ${sorted.at(-1)!.toFixed(2)}`;
    };
    const during = rounds.filter((round) => round.started).map((round) => round.result);
    // The last round may end after the run did.
    const busy = during.length > 1 ? during.slice(0, -1) : during;
    const meanRps = busy.reduce((sum, r) => sum + r.rps, 0) / Math.max(1, busy.length);
    const database = args.postgres ? 'PostgreSQL' : 'SQLite';
    const report = [
      `# Feed import, ${shape.items.toLocaleString('en-US')} items, ${database}, ${new Date().toISOString().slice(0, 10)}`,
      '',
      `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. The built service in production mode and the bare node:http server on core 0, wrk on core 1 (1 thread, 50 connections, ${duration} s rounds, a new visitor per request).`,
      '',
      `- Feed: ${shape.items.toLocaleString('en-US')} items, ${Math.round(last.bytes / 1e6)} MB of XML (${Math.round(statSync(feedFile).size / 1e6)} MB gzip), served with gzip encoding.`,
      `- Run: ${last.status}${last.reason ? ` (${last.reason})` : ''}: ${last.items.toLocaleString('en-US')} items read, ${last.added.toLocaleString('en-US')} products added, ${last.refused.toLocaleString('en-US')} refused.`,
      `- Time: ${seconds.toFixed(0)} s (${Math.round(last.items / seconds).toLocaleString('en-US')} items/s), from the run's start to its end.`,
      `- Service peak RSS: ${rssBefore} MB before the run (after the idle redirects), ${rss} MB at its end.`,
      `- Redirects: bare 302 ${Math.round(bareRedirect.rps).toLocaleString('en-US')}/s; the service idle ${Math.round(idle.rps).toLocaleString('en-US')}/s (ratio ${ratio(idle)}); while importing ${Math.round(meanRps).toLocaleString('en-US')}/s on average over ${busy.length} rounds (ratio ${(meanRps / bareRedirect.rps).toFixed(2)}; by round: ${spread(during.map((r) => r.rps / bareRedirect.rps))}), p99 ${Math.max(...busy.map((r) => r.p99)).toFixed(1)} ms at worst, ${busy.reduce((sum, r) => sum + r.errors + r.timeouts, 0)} errors or timeouts.`,
      '',
    ].join('\n');
    process.stdout.write(`\n${report}`);
    mkdirSync('bench/results', { recursive: true });
    const file = `bench/results/${new Date().toISOString().slice(0, 10)}-feed-${shape.items}${args.postgres ? '-postgres' : ''}.md`;
    writeFileSync(file, report);
    log(`Written to ${file}`);
  } finally {
    service.kill('SIGTERM');
    bare.kill('SIGTERM');
    feed.close();
    await sleep(1000);
    if (args.postgres) await onPostgres(`drop database if exists ${postgresName} with (force)`).catch((error: unknown) => log(`could not drop ${postgresName}: ${String(error)}`));
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
