import { Command } from 'commander';
import { withServices } from '../with-services.js';
import { CliError } from '../cli-error.js';
import { formatMinor } from '../../domain/money.js';
import { previousMonth } from '../../domain/time.js';
import { amountGiven } from '../numbers.js';
import { CLI } from '../../domain/audit/audit-entry.js';

export function ledgerCommand(): Command {
  const ledger = new Command('ledger').description("The network's double-entry ledger");

  ledger
    .command('check')
    .description("Check that every currency and every entry balances, that each affiliate's approved and payable balances equal its commissions and unpaid adjustments, that each brand's receivable equals its unpaid statements and its unbilled balance its approved commissions not yet billed, and that payouts sent are in transit. Exit code 1 naming each difference")
    .action(async () => {
      await withServices(async ({ ledger }) => {
        const differences = await ledger.check();
        if (differences.length > 0) {
          for (const difference of differences) console.log(difference);
          throw new CliError(`the ledger does not reconcile: ${differences.length} difference(s)`);
        }
        console.log('The ledger balances in every currency and agrees with the orders, statements, payouts and adjustments.');
      });
    });

  ledger
    .command('report')
    .description("Print the month's trial balance per currency: each account's opening balance, debits, credits and closing balance (debits positive)")
    .option('--month <YYYY-MM>', 'the month (default: the previous month)')
    .action(async (options: { month?: string }) => {
      await withServices(async ({ ledger }) => {
        const month = options.month ?? previousMonth(new Date().toISOString());
        const report = await ledger.report(month);
        if (report.size === 0) console.log(`No ledger lines up to the end of ${month}.`);
        for (const [currency, lines] of report) {
          console.log(`Trial balance ${month} (${currency}, cents)`);
          const width = Math.max(7, ...lines.map((l) => l.account.length));
          console.log(`${'account'.padEnd(width)}  ${'opening'.padStart(14)}  ${'debit'.padStart(14)}  ${'credit'.padStart(14)}  ${'closing'.padStart(14)}`);
          for (const l of lines) {
            console.log(`${l.account.padEnd(width)}  ${String(l.opening).padStart(14)}  ${String(l.debit).padStart(14)}  ${String(l.credit).padStart(14)}  ${String(l.closing).padStart(14)}`);
          }
          const sum = (pick: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + pick(l), 0);
          console.log(`${'total'.padEnd(width)}  ${String(sum((l) => l.opening)).padStart(14)}  ${String(sum((l) => l.debit)).padStart(14)}  ${String(sum((l) => l.credit)).padStart(14)}  ${String(sum((l) => l.closing)).padStart(14)}`);
          console.log('');
        }
      });
    });

  return ledger;
}

export function adjustCommand(): Command {
  return new Command('adjust')
    .description("Adjust what an affiliate is owed (append-only, in the ledger): a positive amount adds to its next payout, a negative one takes from it")
    .requiredOption('--affiliate <id>', 'affiliate id')
    .option('--amount <amount>', 'signed amount as you write it, e.g. 15,00 or -15,00 (read in your LANG) or -15.00')
    .option('--cents <cents>', 'signed amount in cents, e.g. 1500 or -1500 (instead of --amount)')
    .requiredOption('--currency <code>', 'ISO 4217 code, e.g. BRL')
    .requiredOption('--reason <text>', 'why (the affiliate reads it)')
    .allowExcessArguments(false)
    .action(async (options: { affiliate: string; amount?: string; cents?: string; currency: string; reason: string }) => {
      const amount = amountGiven(options, { signed: true });
      await withServices(async ({ ledger }) => {
        const row = await ledger.adjust({ affiliateId: options.affiliate, amount, currency: options.currency, reason: options.reason, actor: CLI });
        console.log(`Adjusted ${row.affiliate_id} by ${formatMinor(amount, row.currency)} (${amount} cents): adjustment ${row.id}, paid with its next payout.`);
      });
    });
}
