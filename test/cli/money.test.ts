// The operator's money commands, run as a separate process against the database of a running
// service: statements issued and paid, the brand's terms, adjustments, the ledger's check (which
// exits 1 naming each difference) and its monthly trial balance.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { affiliateOrder } from '../helpers/tracking.js';
import { givePayeeDetails, releasePayeeHold } from '../helpers/money.js';

let h: Harness;
let env: Record<string, string>;

before(async () => {
  h = await startHarness();
  // The commands read payee details with the key the server uses (PostgreSQL: given; SQLite: the key file beside the database).
  env = { DATABASE_URL: h.config.databaseUrl, ...(h.config.payeeEncryptionKey && { PAYEE_ENCRYPTION_KEY: h.config.payeeEncryptionKey }) };
});
after(() => h?.close());

const cli = (...args: string[]) => runCli(args, env);
/** The same commands typed by a person whose terminal speaks Brazilian Portuguese. */
const cliInPortuguese = (...args: string[]) => runCli(args, { ...env, LANG: 'pt_BR.UTF-8' });

describe('statements', () => {
  test('issue bills the locked commissions with the fee; issuing again issues nothing; a month not ended is refused', async () => {
    const issued = await cli('statements', 'issue', '--month', '2026-02');
    assert.equal(issued.code, 0, issued.stderr);
    assert.match(issued.stdout, new RegExp(`Issued \\S+ to brand ${BRANDS.acme} for 2026-02: 1 commission\\(s\\) 7\\.50 BRL \\+ fee 2\\.25 BRL = 9\\.75 BRL \\(975 cents\\)`));
    const again = await cli('statements', 'issue', '--month', '2026-02');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /No statement to issue for 2026-02/);
    const future = await cli('statements', 'issue', '--month', '2999-01');
    assert.equal(future.code, 1);
    assert.match(future.stderr, /2999-01 has not ended yet/);
    const bad = await cli('statements', 'issue', '--month', '2026-13');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /month must be YYYY-MM/);
  });

  test('paid records payments that add up; paid in full, the commissions become payable', async () => {
    const listed = await cli('statements', 'list', '--unpaid');
    assert.equal(listed.code, 0, listed.stderr);
    const id = /^(\S+)\s+2026-02/m.exec(listed.stdout)?.[1];
    assert.ok(id, listed.stdout);
    const part = await cliInPortuguese('statements', 'paid', id, '--amount', 'R$ 5,00', '--reference', 'TX-1');
    assert.equal(part.code, 0, part.stderr);
    assert.match(part.stdout, /Recorded 5\.00 BRL .*left to pay/);
    const over = await cli('statements', 'paid', id, '--cents', '999', '--reference', 'TX-2');
    assert.equal(over.code, 1);
    assert.match(over.stderr, /475 cents\); 999 cents is more/);
    const noAmount = await cliInPortuguese('statements', 'paid', id, '--amount', 'ten', '--reference', 'TX-2');
    assert.equal(noAmount.code, 1);
    assert.match(noAmount.stderr, /--amount must be an amount such as 975,00 \(read in pt-BR\), got "ten"/);
    const both = await cli('statements', 'paid', id, '--amount', '4.75', '--cents', '475', '--reference', 'TX-2');
    assert.equal(both.code, 1);
    assert.match(both.stderr, /one of them/);
    const rest = await cli('statements', 'paid', id, '--amount', '4.75', '--reference', 'TX-2');
    assert.equal(rest.code, 0, rest.stderr);
    assert.match(rest.stdout, /is paid in full .*its 1 commission\(s\) are payable/);
    assert.equal((await affiliateOrder(h, h.world.keys.aff1, 'o-aff1-2')).commissionStatus, 'payable');
    assert.equal((await cli('statements', 'list', '--unpaid')).stdout.trim(), 'No statement.');
  });

  test('brands terms sets the fee and the days to pay, with a reason; bad values are refused', async () => {
    const set = await cli('brands', 'terms', '--brand', BRANDS.globex, '--fee-basis-points', '2500', '--due-days', '30', '--reason', 'Contract renewed');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /fee 2500 basis points \(25 %\).*due 30 day\(s\)/);
    for (const args of [['--fee-basis-points', '10001'], ['--due-days', '-1'], ['--fee-basis-points', 'x'], [], ['--due-days', '5', '--reason', ' '], ['--fee-basis-points', '2500', '--due-days', '30']]) {
      const refused = await cli('brands', 'terms', '--brand', BRANDS.globex, ...(args.includes('--reason') || args.length === 0 ? args : [...args, '--reason', 'x']));
      assert.equal(refused.code, 1, args.join(' '));
    }
    assert.match((await cli('brands', 'terms', '--brand', BRANDS.globex, '--due-days', '5')).stderr, /--reason/, 'a reason is required');
    const unknown = await cli('brands', 'terms', '--brand', 'nobody', '--due-days', '5', '--reason', 'x');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /brand "nobody" not found/);
  });
});

describe('adjust and the ledger', () => {
  test('adjust adds to what the affiliate is owed; a zero, a bad currency or no reason is refused', async () => {
    const done = await cliInPortuguese('adjust', '--affiliate', 'aff-1', '--amount', '-2,50', '--currency', 'BRL', '--reason', 'a refunded order the brand reported late');
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /Adjusted aff-1 by -2\.50 BRL \(-250 cents\)/);
    for (const [amount, currency, reason] of [['0', 'BRL', 'x'], ['1,00', 'brl', 'x'], ['1,00', 'BRL', ' '], ['1,505', 'BRL', 'x'], ['-', 'BRL', 'x']] as const) {
      const refused = await cliInPortuguese('adjust', '--affiliate', 'aff-1', '--amount', amount, '--currency', currency, '--reason', reason);
      assert.equal(refused.code, 1, `${amount} ${currency} "${reason}"`);
    }
    assert.equal((await cli('adjust', '--affiliate', 'aff-1', '--cents', '1.5', '--currency', 'BRL', '--reason', 'x')).code, 1);
    assert.equal((await cli('adjust', '--affiliate', 'nobody', '--cents', '1', '--currency', 'BRL', '--reason', 'x')).code, 1);
  });

  test('the check passes; the report prints a trial balance that adds up; a tampered ledger fails naming the difference', async () => {
    const check = await cli('ledger', 'check');
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /balances in every currency/);
    const month = new Date().toISOString().slice(0, 7);
    const report = await cli('ledger', 'report', '--month', month);
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, new RegExp(`Trial balance ${month} \\(BRL, cents\\)`));
    assert.match(report.stdout, /affiliate:aff-1:payable\s+\S+\s+\S+\s+\S+\s+-500/, 'aff-1 is owed 750 − 250');
    const total = /^total\s+(-?\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)$/m.exec(report.stdout);
    assert.ok(total, report.stdout);
    assert.equal(total[2], total[3], 'debits equal credits');
    assert.equal(total[4], '0');

    // An adjustment row is append-only; the ledger's own lines are what a tamperer would touch.
    await assert.rejects(h.service.database.db.deleteFrom('adjustments').execute());
    await h.service.database.db.updateTable('ledger_lines').set({ amount: -700 }).where('kind', '=', 'payable').where('amount', '=', -750).execute();
    const broken = await cli('ledger', 'check');
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /does not balance/);
    assert.match(broken.stdout, /BRL affiliate:aff-1:payable: the ledger holds -450, the records say -500/);
    assert.match(broken.stderr, /the ledger does not reconcile/);
  });
});

describe('payouts', () => {
  test('run --dry-run says why each amount waits; run, export and settle pay it; a bad results file is refused', async () => {
    // aff-1 has February's 750 payable, less the 250 adjustment above.
    const waiting = await cli('payouts', 'run', '--dry-run');
    assert.equal(waiting.code, 0, waiting.stderr);
    assert.match(waiting.stdout, /Skipped aff-1 5\.00 BRL \(500 cents; 1 commission\(s\), adjustments -250\): below the minimum: 5\.00 BRL of 50\.00 BRL\./);
    assert.match(waiting.stdout, /Nothing was paid \(--dry-run\)\./);
    const low = { ...env, PAYOUT_MINIMUM: 'BRL:100' };
    const noDetails = await runCli(['payouts', 'run', '--dry-run'], low);
    assert.match(noDetails.stdout, /Skipped aff-1 .*: no payee details\./);
    await givePayeeDetails(h, 'aff-1');
    await releasePayeeHold(h.service.database, 'aff-1');

    const ran = await runCli(['payouts', 'run', '--affiliate', 'aff-1'], low);
    assert.equal(ran.code, 0, ran.stderr);
    const payoutId = /^Payout (\S+) to aff-1: 5\.00 BRL \(500 cents; 1 commission\(s\), adjustments -250\) by PIX cpf \*\*\*\.982\.247-\*\*\.$/m.exec(ran.stdout)?.[1];
    const batch = /^Run (\S+): export it with/m.exec(ran.stdout)?.[1];
    assert.ok(payoutId && batch, ran.stdout);

    const dir = await mkdtemp(join(tmpdir(), 'affnet-payouts-'));
    const file = join(dir, 'payouts.csv');
    const exported = await cli('payouts', 'export', batch, '--format', 'csv', '--out', file);
    assert.equal(exported.code, 0, exported.stderr);
    const [header, row] = (await readFile(file, 'utf8')).trim().split('\r\n');
    assert.equal(header, 'payout_id,affiliate_id,currency,amount_cents,amount,status,method,failure_reason,payee.legalName,payee.country,payee.taxId,payee.method.type,payee.method.keyType,payee.method.key');
    assert.equal(row, `${payoutId},aff-1,BRL,500,5.00,sent,PIX cpf ***.982.247-**,,Ana Lima,BR,52998224725,pix,cpf,52998224725`);
    assert.equal((await stat(file)).mode & 0o777, 0o600, 'the file with payee details is the operator’s only');
    const json = await cli('payouts', 'export', batch, '--format', 'json');
    assert.deepEqual((JSON.parse(json.stdout) as Array<{ status: string }>).map((p) => p.status), ['sent']);
    assert.equal((await affiliateOrder(h, h.world.keys.aff1, 'o-aff1-2')).commissionStatus, 'paid');

    const results = join(dir, 'results.csv');
    await writeFile(results, 'payout_id,status,reason\nnope,lost,\n');
    const bad = await cli('payouts', 'settle', batch, '--file', results);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /line 2: status must be settled or failed, got "lost"/);
    await writeFile(results, `payout_id,status,reason\n${payoutId},settled,\n`);
    const settled = await cli('payouts', 'settle', batch, '--file', results);
    assert.equal(settled.code, 0, settled.stderr);
    assert.equal(settled.stdout.trim(), `${payoutId}: settled`);
    assert.equal((await cli('ledger', 'check')).code, 1, 'the ledger tampered with above still says so');
  });
});
