import { Command } from 'commander';
import type { PaymentPlan } from '../../domain/orders/payouts.js';
import { formatMinor } from '../../domain/money.js';
import { withServices } from '../with-services.js';
import { CliError } from '../cli-error.js';
import { rangeEnd } from '../../domain/time.js';

function describe(plan: PaymentPlan, affiliateId: string, dryRun: boolean): string[] {
  const verb = dryRun ? 'Would pay' : 'Paid';
  if (plan.payouts.length === 0) return [`${verb} 0 commission(s) to ${affiliateId}: no approved commission of orders created up to ${plan.until}.`];
  const lines = plan.payouts.map(
    (p) =>
      `${verb} ${p.orderCount} commission(s) to ${affiliateId}, ${formatMinor(p.total, p.currency)} in total (${p.total} minor units)` +
      `${p.id ? `, payout ${p.id}` : ''}; orders created ${p.periodStart} to ${p.periodEnd}.`,
  );
  if (dryRun) lines.push('Nothing was paid (--dry-run).');
  return lines;
}

export function commissionsCommand(): Command {
  const commissions = new Command('commissions').description("Manage affiliates' commissions");
  commissions
    .command('pay')
    .description('Pay approved commissions of orders created up to --until (default: now): one payout per currency')
    .requiredOption('--affiliate <id>', 'affiliate id')
    .option('--until <date>', 'YYYY-MM-DD (the whole UTC day included) or an ISO 8601 date-time')
    .option('--dry-run', 'show what would be paid, and pay nothing')
    .action(async (options: { affiliate: string; until?: string; dryRun?: boolean }) => {
      const until = options.until === undefined ? undefined : rangeEnd(options.until);
      if (options.until !== undefined && until === undefined) throw new CliError(`--until must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got "${options.until}"`);
      await withServices(async ({ payouts }) => {
        const plan = options.dryRun ? await payouts.plan(options.affiliate, until) : await payouts.pay(options.affiliate, until);
        for (const line of describe(plan, options.affiliate, Boolean(options.dryRun))) console.log(line);
      });
    });
  return commissions;
}
