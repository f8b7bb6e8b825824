// Runs the whole suite: every test file against the embedded SQLite database and, at the same
// time, again against PostgreSQL + Redis (all but the files about the embedded database alone;
// plus the multi-instance tests, which need both), and ends with one line "N passed, N failed"
// for the two runs together.
//
// PostgreSQL and Redis come from TEST_POSTGRES_URL / TEST_REDIS_URL (defaults: the local
// servers). When they cannot be reached the second run is skipped and said so plainly — except
// in CI (CI=true), where that is a failure.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildTestTree } from './test-tree.mjs';
import { collectedOutput } from './collected-output.mjs';

const postgresUrl = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const testFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => join(dir, e.name))
    .sort();

// Files about the embedded database alone (its backup, its snapshot of the migrations, its page
// cache, the first start on it, the commands and settings tried on a SQLite file of their own):
// they open no PostgreSQL or Redis whatever the run, so the second run would repeat the first.
const EMBEDDED_ONLY = [
  'test/cli/backup.test.ts',
  'test/cli/config.test.ts',
  'test/cli/first-start.test.ts',
  'test/cli/payee.test.ts',
  'test/cli/thread-priority.test.ts',
  'test/storage/list-totals.test.ts',
  'test/storage/sqlite-baseline.test.ts',
  'test/storage/sqlite-page-cache.test.ts',
];
// The typed client's own tests run against a live server on each database.
const everywhere = [...testFiles('test/api'), ...testFiles('test/security'), ...testFiles('test/cli'), ...testFiles('test/storage'), ...testFiles('packages/client')];
for (const file of EMBEDDED_ONLY) if (!everywhere.includes(file)) throw new Error(`EMBEDDED_ONLY names ${file}, which is not a test file of the suite`);
const onEveryDatabase = everywhere.filter((file) => !EMBEDDED_ONLY.includes(file));
// Unit tests of pure logic need no database, and the portal's browser tests look at pages, not
// storage: the first run only.
const unit = testFiles('test/unit');
const browser = testFiles('test/browser');
const sharedOnly = testFiles('test/scale');

// The files that take longest (the slowest-files lines of past runs), longest first: they start
// first, so the others fill the second lane beside them and no long file runs alone at the end.
// Add a file here when it shows among the slowest.
const LONGEST_FIRST = [
  'test/browser/portal-fit.test.ts',
  'test/browser/portal.test.ts',
  'test/browser/language-crawl.test.ts',
  'test/api/openapi-fuzz.test.ts',
  'test/browser/second-factors.test.ts',
  'test/security/route-rules.test.ts',
  'test/scale/soak.test.ts',
  'test/browser/operator-money.test.ts',
  'test/api/redirect.test.ts',
];
/** Folders of this run (the test tree, the runs' outputs and timings), removed when it ends. */
const temporary = [];
process.on('exit', () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
const temporaryDir = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

const longestFirst = (files) => [...LONGEST_FIRST.filter((f) => files.includes(f)), ...files.filter((f) => !LONGEST_FIRST.includes(f))];

function reachable(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || defaultPort), timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Runs node's test runner and returns its counts, with its output: echoed as it comes, or (for a
 * run beside another) kept in a file and printed once the run has ended, so two runs' lines never
 * mix.
 */
function run(label, files, env, { echo = true } = {}) {
  const heading = `\n# ===== ${label}: ${files.length} files =====\n`;
  const started = performance.now();
  const kept = echo ? undefined : join(temporaryDir('affnet-test-output-'), 'tap.txt');
  const out = kept ? createWriteStream(kept) : process.stdout;
  out.write(heading);
  const durations = join(temporaryDir('affnet-test-times-'), 'files.json');
  return new Promise((resolve) => {
    // node --test sorts its files by name; the driver keeps this order. Its test processes take
    // its flags: plain Node, the TypeScript lines in stack traces.
    const child = spawn(process.execPath, ['--enable-source-maps', 'scripts/test-driver.mjs', durations, ...longestFirst(files).map(inTree)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const counts = { pass: 0, fail: 0, skipped: 0, cancelled: 0, todo: 0 };
    // "not ok" lines, with the subtests that hold them, so the closing summary can name every
    // failure: a CI log is often read from its end only.
    const failures = [];
    const path = [];
    let tail = '';
    // The YAML block under a "not ok" line (its error, expected, actual and stack), kept short.
    let detail;
    child.stdout.on('data', (chunk) => {
      out.write(chunk);
      const text = tail + chunk;
      const lines = text.split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) {
        if (detail) {
          if (/^ *\.\.\.$/.test(line)) detail = undefined;
          else if (line.trim() && !/^ *(---|duration_ms:|type:|location:|failureType:)/.test(line) && detail.length < 10) detail.push(line.trim());
        }
        const match = /^# (pass|fail|skipped|cancelled|todo) (\d+)$/.exec(line);
        if (match) counts[match[1]] = Number(match[2]);
        const subtest = /^( *)# Subtest: (.*)$/.exec(line);
        if (subtest) path.splice(subtest[1].length / 4, Infinity, subtest[2]);
        const notOk = /^( *)not ok \d+ - (.*)$/.exec(line);
        if (notOk) {
          const name = [...path.slice(0, notOk[1].length / 4), notOk[2]].join(' > ');
          // A suite fails with its failing tests: name only the innermost.
          if (!failures.some((f) => f.name.startsWith(`${name} > `))) failures.push({ name, detail: (detail = []) });
        }
      }
    });
    child.on('close', (code) => {
      const result = { ...counts, label, failures, code: code ?? 1, slowest: slowestFiles(durations), kept, seconds: (performance.now() - started) / 1000 };
      if (kept) out.end(() => resolve(result));
      else resolve(result);
    });
  });
}

/** The ten test files whose tests took longest, from the durations reporter's line. */
function slowestFiles(path) {
  try {
    const files = JSON.parse(readFileSync(path, 'utf8').trim() || '[]');
    return files.sort((a, b) => b[1] - a[1]).slice(0, 10).map(([file, ms]) => `${(ms / 1000).toFixed(1)} s ${relative(file.startsWith(tree) ? tree : process.cwd(), file).replace(/^\.bundled\//, '').replace(/\.js$/, '.ts')}`);
  } catch {
    return [];
  }
}

// The checks (type check, lint, generated SQL, typed client) run beside the suite: each takes one
// core, and the lint alone takes minutes; their output follows the suite's, and a failed check
// fails the run.
const checks = collectedOutput(process.execPath, ['scripts/checks.mjs']);

// The files run from a tree with their JavaScript made once (scripts/test-tree.mjs), removed at the end.
const tree = temporaryDir('affnet-test-tree-');
const inTree = await buildTestTree(process.cwd(), tree, [...new Set([...unit, ...everywhere, ...browser, ...sharedOnly])]);

// Tests run the built command (test/helpers/built-cli.ts): built here once from the current
// sources (after the tree, so it is newer than every file of it), so no two test files build it
// at the same time.
execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

// The two runs go at once: each leaves the machine's cores idle at times (a browser loading, a
// server starting, a clock test waiting), which the other fills. TEST_RUNS_ONE_AFTER_THE_OTHER=1
// runs them in turn, for timings of each alone.
const oneAfterTheOther = Boolean(process.env.TEST_RUNS_ONE_AFTER_THE_OTHER);
const skippedSuites = [];
const [pgUp, redisUp] = await Promise.all([reachable(postgresUrl, 5432), reachable(redisUrl, 6379)]);
const sqliteRun = run('SQLite', [...unit, ...everywhere, ...browser], { TEST_POSTGRES_URL: '', TEST_REDIS_URL: '' });
if (oneAfterTheOther) await sqliteRun;
const sharedRun = pgUp && redisUp ? run('PostgreSQL + Redis', [...onEveryDatabase, ...sharedOnly], { TEST_POSTGRES_URL: postgresUrl, TEST_REDIS_URL: redisUrl }, { echo: oneAfterTheOther }) : undefined;
const results = [await sqliteRun];
if (sharedRun) {
  const shared = await sharedRun;
  if (shared.kept) process.stdout.write(readFileSync(shared.kept));
  results.push(shared);
} else {
  const missing = [!pgUp && `PostgreSQL at ${postgresUrl}`, !redisUp && `Redis at ${redisUrl}`].filter(Boolean).join(' and ');
  skippedSuites.push(`PostgreSQL + Redis suite skipped: cannot connect to ${missing} (set TEST_POSTGRES_URL / TEST_REDIS_URL)`);
  if (process.env.CI) results.push({ pass: 0, fail: 1, skipped: 0, cancelled: 0, todo: 0, code: 1 });
}

const checked = await checks;
process.stdout.write(`\n# ===== checks =====\n${checked.output}`);
if (checked.code !== 0) {
  const failures = [{ name: 'the type check, the lint, the generated SQL or the typed client (see "===== checks =====" above)', detail: [] }];
  results.push({ pass: 0, fail: 1, skipped: 0, cancelled: 0, todo: 0, code: 1, label: 'checks', failures });
}

const total = results.reduce((t, r) => ({ pass: t.pass + r.pass, fail: t.fail + r.fail + r.cancelled, skipped: t.skipped + r.skipped }), { pass: 0, fail: 0, skipped: 0 });
const failedRun = results.some((r) => r.code !== 0);
// Each run's own time: the one that ends last sets the suite's, and its files are the ones to move or speed up.
for (const r of results) if (r.seconds) console.log(`# ${r.label}: ended after ${Math.round(r.seconds)} s`);
for (const r of results) if (r.slowest?.length) console.log(`\n# slowest files (${r.label}), their tests' time:\n${r.slowest.map((line) => `#   ${line}`).join('\n')}`);
for (const r of results) {
  for (const { name, detail } of r.failures ?? []) console.log(`# failed (${r.label}): ${name}${detail.map((line) => `\n#     ${line}`).join('')}`);
}
for (const line of skippedSuites) console.log(`\n# ${line}${process.env.CI ? ' — a failure in CI' : ''}`);
if (failedRun && total.fail === 0) total.fail = 1; // a run that crashed before reporting still fails
console.log(`\n${total.pass} passed, ${total.fail} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(failedRun || total.fail > 0 ? 1 : 0);
