// `affnet affiliates suspend|reactivate ID --reason …` and the same for `affnet brands`, run as a
// separate process against a running service's database (and its Redis, in the PostgreSQL pass):
// the service learns the change within a second (at once with Redis), payout runs skip a
// suspended affiliate saying so, and a payout made before the suspension is not sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { newKey } from '../helpers/api.js';
import { pollUntil } from '../helpers/wait.js';
import { createLink, BROWSER_UA } from '../helpers/tracking.js';
import { givePayeeDetails, releasePayeeHold } from '../helpers/money.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const REASON = 'Clicks bought from a click farm';

let h: Harness;
let env: Record<string, string>;
let aff1: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  env = { DATABASE_URL: h.config.databaseUrl, PUBLIC_URL: h.config.publicUrl, PAYOUT_MINIMUM: 'BRL:100', ...(h.config.payeeEncryptionKey && { PAYEE_ENCRYPTION_KEY: h.config.payeeEncryptionKey }) };
  if (h.config.redisUrl) Object.assign(env, { REDIS_URL: h.config.redisUrl, REDIS_PREFIX: h.config.redisPrefix });
  // February's statement billed aff-1's 750 and Acme paid it: aff-1 has 750 payable.
  for (const statement of await h.service.services.statements.issue('2026-02')) await h.service.services.statements.recordPayment(statement.id, statement.total, 'TX-1', CLI);
});
after(() => h?.close());

const cli = (...args: string[]) => runCli(args, env);
/** The status the running service answers `path` with, once it is `expected` (it learns a change made elsewhere within a second). */
const statusBecomes = async (path: string, key: string, expected: number) => pollUntil(async () => (await h.get(path, key)).statusCode, (s) => s === expected, { timeoutMs: 3_000 });

describe('affnet affiliates suspend / reactivate', () => {
  test('suspends with a reason: the running service refuses its keys and counts none of its clicks; audited as the cli', async () => {
    const { code } = await createLink(h, aff1, BRANDS.acme);
    const suspended = await cli('affiliates', 'suspend', 'aff-1', '--reason', REASON);
    assert.equal(suspended.code, 0, suspended.stderr);
    assert.equal(
      suspended.stdout.trim(),
      'Affiliate aff-1 (Affiliate One) suspended: its links still redirect but count no click, its conversions earn nothing, payout runs skip it, and its API keys and sessions are refused. Its owners were mailed the reason.',
    );
    assert.equal(await statusBecomes('/affiliate/brands', aff1, 403), 403);
    const res = await h.request({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA } });
    assert.equal(res.statusCode, 302, 'the link still redirects');
    await h.service.services.tracking.flushClicks();
    const [click] = await h.service.database.db.selectFrom('clicks').select(['counted', 'is_suspended']).execute();
    assert.deepEqual(click, { counted: 0, is_suspended: 1 });
    const entry = await h.service.database.db.selectFrom('audit_entries').selectAll().where('action', '=', 'affiliate.suspended').executeTakeFirstOrThrow();
    assert.deepEqual([entry.actor_kind, entry.actor_id, entry.address, entry.reason], ['cli', null, null, REASON]);
  });

  test('a payout run skips it, and the dry run says why', async () => {
    const dry = await cli('payouts', 'run', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`^Skipped aff-1 7\\.50 BRL \\(750 cents; 1 commission\\(s\\)\\): affiliate_suspended: the network suspended the affiliate on \\S+ \\(${REASON}\\); paid once it is reactivated\\.$`, 'm'));
    const ran = await cli('payouts', 'run');
    assert.equal(ran.code, 0, ran.stderr);
    assert.doesNotMatch(ran.stdout, /^Payout /m);
  });

  test('refused, saying why: a second suspension, no reason, an unknown affiliate, reactivating an active one', async () => {
    const again = await cli('affiliates', 'suspend', 'aff-1', '--reason', 'again');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^error: affiliate aff-1 is suspended already \(since \S+\): reactivate it first/);
    const noReason = await cli('affiliates', 'suspend', 'aff-2');
    assert.notEqual(noReason.code, 0);
    assert.match(noReason.stderr, /required option '--reason <text>' not specified/);
    const blank = await cli('affiliates', 'suspend', 'aff-2', '--reason', ' ');
    assert.equal(blank.code, 1);
    assert.match(blank.stderr, /^error: give a reason/);
    const unknown = await cli('affiliates', 'suspend', 'nobody', '--reason', REASON);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^error: affiliate "nobody" not found/);
    const active = await cli('affiliates', 'reactivate', 'aff-2', '--reason', 'nothing to do');
    assert.equal(active.code, 1);
    assert.match(active.stderr, /^error: affiliate aff-2 is not suspended/);
  });

  test('reactivates: its keys work again and the run would pay it; a payout made before a new suspension is not sent', async () => {
    const reactivated = await cli('affiliates', 'reactivate', 'aff-1', '--reason', 'Traffic checked');
    assert.equal(reactivated.code, 0, reactivated.stderr);
    assert.equal(reactivated.stdout.trim(), 'Affiliate aff-1 (Affiliate One) reactivated: it works as before. Its owners were mailed the reason.');
    assert.equal(await statusBecomes('/affiliate/brands', aff1, 200), 200);

    await givePayeeDetails(h, 'aff-1');
    await releasePayeeHold(h.service.database, 'aff-1');
    const ran = await cli('payouts', 'run', '--affiliate', 'aff-1');
    assert.equal(ran.code, 0, ran.stderr);
    const batch = /^Run (\S+): export it with/m.exec(ran.stdout)?.[1];
    assert.ok(batch, ran.stdout);
    assert.equal((await cli('affiliates', 'suspend', 'aff-1', '--reason', 'Chargebacks under review')).code, 0);
    const exported = await cli('payouts', 'export', batch, '--format', 'json');
    assert.equal(exported.code, 0, exported.stderr);
    const [payout] = JSON.parse(exported.stdout) as Array<{ status: string; failureReason: string; payee: unknown }>;
    assert.equal(payout?.status, 'failed');
    assert.equal(payout?.payee, null, 'no payee details for a payout not sent');
    assert.match(payout?.failureReason ?? '', /^affiliate_suspended: .*\(Chargebacks under review\)/);
    assert.match(exported.stderr, /failed: affiliate_suspended/);
    const order = await h.service.database.db.selectFrom('orders').select('commission_status').where('id', '=', 'o-aff1-2').executeTakeFirstOrThrow();
    assert.equal(order.commission_status, 'payable', 'its commission waits for a run after the reactivation');
    assert.equal((await cli('affiliates', 'reactivate', 'aff-1', '--reason', 'Chargebacks cleared')).code, 0);
  });
});

describe('affnet brands suspend / reactivate', () => {
  test("suspends: the running service hides it from affiliates and sends its links to its home page; reactivates: back as before", async () => {
    const { code } = await createLink(h, aff1, BRANDS.globex, { type: 'Custom', url: 'https://globex.com/tv' });
    const suspended = await cli('brands', 'suspend', BRANDS.globex, '--reason', 'Statements unpaid');
    assert.equal(suspended.code, 0, suspended.stderr);
    assert.match(suspended.stdout, /^Brand \S+ \(Globex\) suspended: it is out of affiliates' sight, its links lead to its home page without counting, and its API keys, postback token and sessions are refused\./);
    assert.equal(await statusBecomes(`/affiliate/brands/${BRANDS.globex}`, aff1, 404), 404);
    const follow = async () => String((await h.request({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA } })).headers.location);
    assert.equal(await pollUntil(follow, (l) => l === 'https://globex.com/', { timeoutMs: 3_000 }), 'https://globex.com/');

    const reactivated = await cli('brands', 'reactivate', BRANDS.globex, '--reason', 'Statements paid');
    assert.equal(reactivated.code, 0, reactivated.stderr);
    assert.equal(await statusBecomes(`/affiliate/brands/${BRANDS.globex}`, aff1, 200), 200);
    assert.match(await pollUntil(follow, (l) => l.startsWith('https://globex.com/tv?'), { timeoutMs: 3_000 }), /^https:\/\/globex\.com\/tv\?clickId=[0-9a-f]{32}$/);
  });
});
