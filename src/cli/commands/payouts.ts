import { readFile, writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { withServices } from '../with-services.js';
import { CliError } from '../cli-error.js';
import { formatMinor } from '../../domain/money.js';
import { payoutsCsv, settlementResults } from '../../domain/ledger/payout-files.js';
import { CLI } from '../../domain/audit/audit-entry.js';

export function payoutsCommand(): Command {
  const payouts = new Command('payouts').description('Pay affiliates: payout runs, the file for the bank or provider, and its results');

  payouts
    .command('run')
    .description("Pay each affiliate's payable commissions and adjustments, per currency, that reach PAYOUT_MINIMUM, where its payout details are complete and not on hold: one payout per affiliate and currency, pending until exported. The rest carries over")
    .option('--affiliate <id>', 'only this affiliate')
    .option('--dry-run', 'say what would be paid and why the rest waits; pay nothing')
    .action(async (options: { affiliate?: string; dryRun?: boolean }) => {
      await withServices(async ({ payoutRuns }) => {
        const result = await payoutRuns.run({ ...(options.affiliate && { affiliateId: options.affiliate }), dryRun: Boolean(options.dryRun), actor: CLI });
        if (result.lines.length === 0) console.log('Nothing is payable.');
        for (const line of result.lines) {
          const amount = `${formatMinor(line.total, line.currency)} (${line.total} cents; ${line.orders} commission(s)${line.adjustments ? `, adjustments ${line.adjustments}` : ''})`;
          if (line.skipped) console.log(`Skipped ${line.affiliateId} ${amount}: ${line.skipped}.`);
          else if (line.payout) console.log(`Payout ${line.payout.id} to ${line.affiliateId}: ${amount} by ${line.payout.method ?? '?'}.`);
          else console.log(`Would pay ${line.affiliateId} ${amount}.`);
        }
        if (result.batchId) console.log(`Run ${result.batchId}: export it with affnet payouts export ${result.batchId} --format csv`);
        else if (options.dryRun) console.log('Nothing was paid (--dry-run).');
      });
    });

  payouts
    .command('export')
    .description("Write the run's payouts for the bank or payment provider, payee details in full (keep the file safe). Pending payouts are marked sent (their commissions paid); exporting again writes the same payouts and changes nothing")
    .argument('<batch>', 'the run id')
    .addOption(new Option('--format <format>', 'file format').choices(['csv', 'json']).default('csv'))
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (batch: string, options: { format: 'csv' | 'json'; out?: string }) => {
      await withServices(async ({ payoutRuns }) => {
        const exported = await payoutRuns.export(batch, CLI);
        const text = options.format === 'json' ? `${JSON.stringify(exported, null, 2)}\n` : payoutsCsv(exported);
        if (options.out) {
          await writeFile(options.out, text, { mode: 0o600 });
          console.log(`Wrote ${exported.length} payout(s) to ${options.out}.`);
        } else {
          process.stdout.write(text);
        }
        const failed = exported.filter((p) => p.status === 'failed');
        for (const p of failed) process.stderr.write(`payout ${p.payoutId} to ${p.affiliateId} failed: ${p.failureReason ?? ''}\n`);
      });
    });

  payouts
    .command('settle')
    .description('Record what the bank or provider did with each sent payout of a run: a CSV with columns payout_id, status (settled or failed) and reason. A failed payout returns its commissions to payable')
    .argument('<batch>', 'the run id')
    .requiredOption('--file <results.csv>', "the provider's results")
    .action(async (batch: string, options: { file: string }) => {
      const text = await readFile(options.file, 'utf8').catch((error: unknown) => {
        throw new CliError(`cannot read ${options.file}: ${error instanceof Error ? error.message : String(error)}`);
      });
      const results = settlementResults(text);
      await withServices(async ({ payoutRuns }) => {
        for (const done of await payoutRuns.settle(batch, results, CLI)) console.log(`${done.payoutId}: ${done.outcome}`);
      });
    });

  return payouts;
}
