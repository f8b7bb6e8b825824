import { Command } from 'commander';
import { payCommissions } from '../../domain/orders/payouts.js';
import { withDatabase } from '../with-database.js';

const money = (cents: number) => `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

export function commissionsCommand(): Command {
  const commissions = new Command('commissions').description("Manage affiliates' commissions");
  commissions
    .command('pay')
    .description('Mark approved commissions paid: those of orders created up to --until (default: now)')
    .requiredOption('--affiliate <id>', 'affiliate id')
    .option('--until <date>', 'YYYY-MM-DD (the whole day included) or an ISO 8601 date-time')
    .action(async (options: { affiliate: string; until?: string }) => {
      await withDatabase(async (database) => {
        const { orders, total } = await payCommissions(database, options.affiliate, options.until);
        console.log(`Paid ${orders} commission(s) to ${options.affiliate}, ${money(total)} in total (${total} cents).`);
      });
    });
  return commissions;
}
