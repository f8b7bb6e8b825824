// npm run soak -- --minutes N [--rate 400] [--concurrency 32] [--links 40000] [--only 1|2]
//
// The soak test: N minutes (fractions allowed) of mixed load — redirects from many visitors, list
// reads, link creation, conversions — against one instance on a fresh SQLite file, then the same
// against two instances on a fresh PostgreSQL database and Redis, with PostgreSQL cut once (at a
// third of the run) and Redis once (at two thirds) through TCP proxies. Before the load, each
// instance is sent one visit to each of the --links first links (40,000: more codes than the
// redirect cache holds at its default budget), so the warm-up ends with the bounded caches full
// and the RSS growth after it is growth of what is not bounded. Prints a Markdown report
// (also written to bench/results/<date>-soak-<N>min.md) and exits 1 when a check fails: a 5xx
// other than the 503s of an outage, a lost click, RSS growth over 10 % after warm-up, an fd leak.
//
// PostgreSQL and Redis: SOAK_POSTGRES_URL / SOAK_REDIS_URL, else TEST_POSTGRES_URL /
// TEST_REDIS_URL, else the local servers. The PostgreSQL user must be allowed to create databases;
// the servers themselves are never stopped, only the proxies in front of them are cut.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runPhase, outageLengthFor, warmUpFor, type PhaseResult } from './soak/phase.js';
import { machineLine, phaseMarkdown } from './soak/report.js';
import { verdicts } from './soak/checks.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '32' },
    links: { type: 'string', default: '40000' },
    only: { type: 'string' },
  },
});

const minutes = Number(args.minutes);
const rate = Number(args.rate);
const concurrency = Number(args.concurrency);
const firstLinks = Number(args.links);
if (!(minutes > 0) || !(rate > 0) || !(concurrency >= 1) || !(firstLinks >= 1)) throw new Error('--minutes, --rate, --concurrency and --links must be positive numbers');
const durationMs = Math.round(minutes * 60_000);
const postgresUrl = process.env.SOAK_POSTGRES_URL || process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.SOAK_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const results: PhaseResult[] = [];
if (args.only !== '2') {
  results.push(await runPhase({ name: 'Phase 1: one instance, SQLite', instances: 1, store: { kind: 'sqlite' }, durationMs, rate, concurrency, outages: false, launch: 'build', firstLinks, log }));
}
if (args.only !== '1') {
  results.push(
    await runPhase({
      name: 'Phase 2: two instances, PostgreSQL + Redis, each cut once',
      instances: 2,
      store: { kind: 'postgres', adminUrl: postgresUrl, redisUrl },
      durationMs,
      rate,
      concurrency,
      outages: true,
      launch: 'build',
      firstLinks,
      log,
    }),
  );
}

const report = [
  `## Soak run, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${minutes} min per phase`,
  '',
  machineLine(),
  `Warm-up: the priming, then ${warmUpFor(durationMs) / 1000} s of load; outages ${outageLengthFor(durationMs) / 1000} s each.`,
  '',
  ...results.map((r) => phaseMarkdown(r)),
].join('\n');
process.stdout.write(`\n${report}\n`);
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/${new Date().toISOString().slice(0, 10)}-soak-${minutes}min.md`;
writeFileSync(file, `${report}\n`);
log(`Written to ${file}`);

const failed = results.flatMap((r) => verdicts(r).filter((v) => !v.ok).map((v) => `${r.name}: ${v.check} — ${v.detail}`));
for (const line of failed) log(`FAIL ${line}`);
process.exit(failed.length > 0 ? 1 : 0);
