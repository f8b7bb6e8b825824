// The soak test in its short form (npm run soak runs it for minutes): mixed load against one real
// server on SQLite, then against two on PostgreSQL + Redis with each of them cut once through a
// TCP proxy (the shared servers other test files use are never touched). Nothing but the 503s of
// an outage may fail, every click handed out must be stored, and file descriptors must stay flat.
// Memory is reported, not asserted: a run this short is mostly warm-up.
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { runPhase, type PhaseResult } from '../../bench/soak/phase.js';
import { FD_MARGIN, outageOf, serverErrorsOutsideOutages, unansweredCount } from '../../bench/soak/checks.js';
import { REQUEST_KINDS, type RequestKind } from '../../bench/soak/load.js';
import { growthPercent } from '../../bench/soak/process-stats.js';

const DURATION_MS = 25_000;
// Gentle enough to share the machine with the other test file the suite runs alongside.
const RATE = 150;
const CONCURRENCY = 16;
/** Links visited once on each instance before the load (the soak proper primes its caches with 40,000). */
const FIRST_LINKS = 600;
/** Answers (below 500) each kind must reach, so the run cannot pass by sending nothing. */
const FLOORS: Record<RequestKind, number> = { redirect: 500, list: 50, create: 10, conversion: 20 };

const served = (result: PhaseResult, kind: RequestKind) =>
  Object.entries(result.load.tally[kind].statuses)
    .filter(([status]) => Number(status) < 500)
    .reduce((n, [, count]) => n + count, 0);

function report(t: TestContext, result: PhaseResult): void {
  const kinds = REQUEST_KINDS.map((kind) => `${kind} ${JSON.stringify(result.load.tally[kind].statuses)}`).join('; ');
  t.diagnostic(`${result.name}: ${kinds}; ${result.load.serverErrors.length} 5xx; clicks ${result.clicks.received} received, ${result.clicks.stored} stored`);
  result.servers.forEach((s, i) => {
    t.diagnostic(
      `instance ${i + 1}: RSS ${s.atReady.rssMb} MB at ready, ${s.afterWarmUp.rssMb} MB after warm-up, ${s.atEnd.rssMb} MB at end (${growthPercent(s.afterWarmUp.rssMb, s.atEnd.rssMb)} %); ` +
        `fds ${s.atReady.fds} / ${s.afterWarmUp.fds} / ${s.atEnd.fds}; readiness ${s.readiness.map((r) => `${(r.atMs / 1000).toFixed(1)} s ${r.state}`).join(' → ')}`,
    );
  });
}

function assertSoaked(result: PhaseResult): void {
  const outside = serverErrorsOutsideOutages(result);
  assert.deepEqual(outside.slice(0, 5), [], `${outside.length} 5xx outside an outage window`);
  assert.equal(unansweredCount(result), 0, `requests without an answer: ${JSON.stringify(result.load.unexpected.filter((u) => typeof u.status === 'string').slice(0, 5))}`);

  const { clicks, orders } = result;
  const primed = result.load.priming.requests / result.instances;
  assert.ok(Number.isInteger(primed) && primed >= FIRST_LINKS, `${result.load.priming.requests} priming visits on ${result.instances} instance(s): each first link once on each`);
  assert.equal(result.load.priming.clicks, result.load.priming.requests, 'every priming visit answered with a click');
  assert.equal(clicks.missingCount, 0, `answered clicks never stored, e.g. ${clicks.missing.join(', ')}`);
  assert.equal(clicks.extraCount, 0, 'stored clicks that no 302 handed out');
  assert.equal(clicks.stored, clicks.received);
  assert.equal(orders.missingCount, 0, `${orders.missingCount} of ${orders.accepted} accepted orders not stored`);

  for (const kind of REQUEST_KINDS) assert.ok(served(result, kind) >= FLOORS[kind], `only ${served(result, kind)} ${kind} requests served (floor ${FLOORS[kind]})`);

  result.servers.forEach((server, i) => {
    assert.equal(server.exit.code, 0, `instance ${i + 1} did not stop cleanly: ${JSON.stringify(server.exit)}`);
    assert.ok(server.atEnd.fds - server.afterWarmUp.fds <= FD_MARGIN, `instance ${i + 1} file descriptors grew from ${server.afterWarmUp.fds} to ${server.atEnd.fds}`);
    assert.deepEqual(server.errorsOutsideOutages.slice(0, 3), [], `instance ${i + 1} logged errors outside an outage`);
  });
}

describe('soak, short form', () => {
  test('one instance on SQLite: mixed load with no 5xx at all, every click stored', { timeout: 120_000 }, async (t) => {
    const result = await runPhase({ name: 'one instance, SQLite', instances: 1, store: { kind: 'sqlite' }, durationMs: DURATION_MS, rate: RATE, concurrency: CONCURRENCY, outages: false, firstLinks: FIRST_LINKS });
    report(t, result);
    assert.equal(result.load.serverErrors.length, 0, `5xx without any outage: ${JSON.stringify(result.load.serverErrors.slice(0, 3))}`);
    assertSoaked(result);
  });

  test('two instances on PostgreSQL + Redis, each cut once: only 503s while cut, every click stored', { timeout: 120_000 }, async (t) => {
    const adminUrl = process.env.TEST_POSTGRES_URL;
    const redisUrl = process.env.TEST_REDIS_URL;
    assert.ok(adminUrl && redisUrl, 'the soak test needs TEST_POSTGRES_URL and TEST_REDIS_URL');
    const result = await runPhase({
      name: 'two instances, PostgreSQL + Redis',
      instances: 2,
      store: { kind: 'postgres', adminUrl, redisUrl },
      durationMs: DURATION_MS,
      rate: RATE,
      concurrency: CONCURRENCY,
      outages: true,
      firstLinks: FIRST_LINKS,
    });
    report(t, result);
    assert.deepEqual(
      result.outages.map((w) => w.store),
      ['postgres', 'redis'],
    );
    // The cuts took effect: requests that needed PostgreSQL were refused, and /readyz saw Redis go.
    const postgres = result.outages[0]!;
    assert.ok(result.load.serverErrors.some((e) => outageOf(e, result.outages) === postgres && e.code === 'database_unavailable'), 'no 503 while PostgreSQL was cut');
    for (const server of result.servers) assert.ok(server.readiness.some((r) => r.state === '503 redis_unavailable'), 'an instance never reported Redis down');
    assertSoaked(result);
  });
});
