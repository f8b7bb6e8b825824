import { Command } from 'commander';
import { withServices } from '../with-services.js';
import { CliError } from '../cli-error.js';
import { formatMinor } from '../../domain/money.js';
import { previousMonth } from '../../domain/time.js';
import { amountGiven } from '../numbers.js';
import { CLI } from '../../domain/audit/audit-entry.js';

export function statementsCommand(): Command {
  const statements = new Command('statements').description("Brands' monthly statements: issue them, list them, record payments");

  statements
    .command('issue')
    .description("Issue the month's statements: one per brand and currency, billing the approved commissions that locked by the month's end and were not billed yet, plus the network's fee. Running it again issues only those still missing")
    .option('--month <YYYY-MM>', 'a month that has ended (default: the previous month)')
    .action(async (options: { month?: string }) => {
      await withServices(async ({ statements }) => {
        const month = options.month ?? previousMonth(new Date().toISOString());
        const issued = await statements.issue(month);
        if (issued.length === 0) console.log(`No statement to issue for ${month}: every approved commission that locked by then is billed.`);
        for (const s of issued) {
          console.log(`Issued ${s.id} to brand ${s.brandId} for ${s.month}: ${s.lineCount} commission(s) ${formatMinor(s.commission, s.currency)} + fee ${formatMinor(s.fee, s.currency)} = ${formatMinor(s.total, s.currency)} (${s.total} cents), due ${s.dueAt}.`);
        }
      });
    });

  statements
    .command('list')
    .description('List statements, newest month first')
    .option('--unpaid', 'only statements not paid in full')
    .action(async (options: { unpaid?: boolean }) => {
      await withServices(async ({ statements }) => {
        const all = await statements.listAll(Boolean(options.unpaid));
        if (all.length === 0) console.log('No statement.');
        for (const s of all) {
          console.log(`${s.id}  ${s.month}  brand ${s.brandId}  ${s.status}  total ${s.total} ${s.currency}  paid ${s.paidAmount}  due ${s.dueAt}`);
        }
      });
    });

  statements
    .command('paid')
    .description("Record a payment the brand made against a statement (payments add up); when it is paid in full, its commissions become payable")
    .argument('<id>', 'statement id')
    .option('--amount <amount>', 'the amount received as you write it, e.g. 975,00 or R$ 975,00 (read in your LANG) or 975.00')
    .option('--cents <cents>', 'the amount received in cents, e.g. 97500 (instead of --amount)')
    .requiredOption('--reference <ref>', 'the payment reference (bank transfer id, receipt)')
    .action(async (id: string, options: { amount?: string; cents?: string; reference: string }) => {
      const amount = amountGiven(options);
      if (amount <= 0) throw new CliError(`the amount must be more than zero, got ${amount} cents`);
      await withServices(async ({ statements }) => {
        const s = await statements.recordPayment(id, amount, options.reference, CLI);
        const left = s.total - s.paidAmount;
        console.log(
          s.status === 'paid'
            ? `Statement ${s.id} is paid in full (${formatMinor(s.total, s.currency)}): its ${s.lineCount} commission(s) are payable.`
            : `Recorded ${formatMinor(amount, s.currency)} on statement ${s.id}; ${formatMinor(left, s.currency)} (${left} cents) left to pay.`,
        );
      });
    });

  return statements;
}
