// GET /metrics on METRICS_PORT, scraped from a running server and parsed as Prometheus text: each
// metric says what the requests sent here did (API answers, redirects by outcome, clicks written,
// cache lookups, refusals), and the process, database and outbox figures are there.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshDatabase, redisEnv, type TestDatabase } from '../helpers/databases.js';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { buildWorld, BRANDS, type World } from '../helpers/world.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { openDatabase } from '../../src/storage/database.js';

let testDb: TestDatabase;
let world: World;
let server: ServerProcess;
let metricsUrl: string;

before(async () => {
  testDb = await freshDatabase({ migrated: true });
  const database = openDatabase(testDb.url);
  try {
    world = await buildWorld(database);
  } finally {
    await database.close();
  }
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}`;
  server = await startServerProcess({ DATABASE_URL: testDb.url, REDIS_URL: '', ...redisEnv(), METRICS_PORT: String(metricsPort), CLICK_FLUSH_MS: '50', FAILED_KEY_LIMIT: '1', WEBHOOK_POLL_MS: '0' });
});
after(async () => {
  await server?.stop();
  await testDb?.drop();
});

/** Prometheus text as series → value; throws on any line that is neither a comment nor a sample. */
function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a Prometheus sample: ${line}`);
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => `${k}=${v}`).sort();
    series.set(labels.length ? `${match[1]}{${labels.join(',')}}` : match[1]!, Number(match[3]));
  }
  return series;
}

const scrape = async () => parse(await (await fetch(`${metricsUrl}/metrics`)).text());

test('the metrics count what was sent: API answers, redirects by outcome, clicks written, cache lookups, refusals', async () => {
  const key = world.keys.aff1;
  const api = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers, redirect: 'manual' });
  for (let i = 0; i < 3; i++) assert.equal((await api('/affiliate/brands', { 'x-api-key': key })).status, 200);
  assert.equal((await api('/affiliate/brands')).status, 401);
  const created = await api('/affiliate/shortener/url', { 'x-api-key': key, 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }) });
  assert.equal(created.status, 200);
  const code = ((await created.json()) as Array<{ shortUrls: string[] }>).flatMap((c) => c.shortUrls)[0]!.split('/').pop()!;
  // A new link is announced as changed (through Redis, and to every poll of changed links for the
  // next two seconds, polls overlapping by that much), which drops its cache entry: redirect once
  // that has passed (a poll a second, plus margin), so it stays cached.
  await sleep(3500);
  for (const agent of [`${BROWSER_UA} one`, `${BROWSER_UA} two`, 'Googlebot/2.1 (+http://www.google.com/bot.html)']) assert.equal((await api(`/${code}`, { 'user-agent': agent })).status, 302);
  assert.equal((await api(`/${code}`, { 'user-agent': `${BROWSER_UA} three` }, { method: 'HEAD' })).status, 302);
  assert.equal((await api('/Zz9Zz9Zz9')).status, 404);
  // FAILED_KEY_LIMIT is 1 here: the second invalid key from this address is refused.
  assert.equal((await api('/affiliate/brands', { 'x-api-key': `afn_${'x'.repeat(32)}` })).status, 401);
  assert.equal((await api('/affiliate/brands', { 'x-api-key': `afn_${'y'.repeat(32)}` })).status, 429);

  // Written, then added to the link's count and the rollups in the background.
  const m = await pollUntil(scrape, (s) => s.get('affnet_clicks_written_total') === 4 && s.get('affnet_clicks_buffered') === 0 && s.get('affnet_clicks_unsummed') === 0, { timeoutMs: 15_000 });
  const expected: Record<string, number> = {
    'http_request_duration_seconds_count{method=GET,route=/affiliate/brands,status=200}': 3,
    'http_request_duration_seconds_count{method=GET,route=/affiliate/brands,status=401}': 2,
    'http_request_duration_seconds_count{method=GET,route=/affiliate/brands,status=429}': 1,
    'http_request_duration_seconds_count{method=POST,route=/affiliate/shortener/url,status=200}': 1,
    'http_request_duration_seconds_count{method=GET,route=/:code,status=302}': 3,
    'http_request_duration_seconds_count{method=HEAD,route=/:code,status=302}': 1,
    'http_request_duration_seconds_count{method=GET,route=/:code,status=404}': 1,
    'affnet_redirects_total{outcome=counted}': 2,
    'affnet_redirects_total{outcome=bot}': 1,
    'affnet_redirects_total{outcome=head}': 1,
    'affnet_redirects_total{outcome=repeat}': 0,
    'affnet_redirects_total{outcome=suspicious}': 0,
    'affnet_redirects_total{outcome=suspended}': 0,
    'affnet_redirects_total{outcome=not_found}': 1,
    'affnet_clicks_written_total': 4,
    'affnet_clicks_unsummed': 0,
    'affnet_click_write_failures_total': 0,
    'affnet_rate_limit_refusals_total{rule=invalid_keys}': 1,
    'affnet_webhook_outbox_pending': 0,
    'affnet_webhook_outbox_overdue_seconds': 0,
    'affnet_db_query_errors_total': 0,
  };
  for (const [series, value] of Object.entries(expected)) assert.equal(m.get(series), value, series);
  assert.ok((m.get('affnet_redirect_cache_lookups_total{result=miss}') ?? 0) >= 2, 'the new code and the unknown one were looked up');
  assert.ok((m.get('affnet_redirect_cache_lookups_total{result=hit}') ?? 0) >= 3, 'later redirects of the code came from the cache');
  assert.ok((m.get('affnet_redirect_cache_held{measure=entries}') ?? 0) >= 2, 'the cache holds the codes looked up');
  assert.ok((m.get('affnet_redirect_cache_held{measure=bytes}') ?? 0) >= 200 * 2, 'and says what they cost');
  assert.ok((m.get('affnet_click_write_duration_seconds_count') ?? 0) >= 1);
  assert.ok((m.get('process_resident_memory_bytes') ?? 0) > 10_000_000, 'RSS');
  for (const series of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'http_request_duration_seconds_bucket{le=0.005,method=GET,route=/affiliate/brands,status=200}']) assert.ok(m.has(series), series);
  // The scheduled tasks (retention of clicks, webhooks, postbacks' deliveries, mail, unconfirmed sign-ups and the tag's reports, sessions' and audit entries' addresses; order locks, claims to accept; statements) run when a new installation starts.
  assert.equal(m.get('affnet_jobs_total{outcome=done,queue=scheduled}'), 14, 'the eight retention tasks, the order locks, the claims, the terms in force, the group tiers, the statements and the brand scores ran once');
  assert.equal(m.get('affnet_jobs_total{outcome=failed,queue=mail}'), 0, 'the mail queue is counted, nothing given up');
  if (testDb.dialect === 'postgres') assert.equal(m.get('affnet_db_pool_connections{state=max}'), 10);
  if (process.env.TEST_REDIS_URL) assert.equal(m.get('affnet_redis_up'), 1);
});

test('the metrics port answers nothing but /metrics, and the public port has no /metrics', async () => {
  assert.equal((await fetch(`${metricsUrl}/`)).status, 404);
  assert.equal((await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status, 404);
  assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
});
