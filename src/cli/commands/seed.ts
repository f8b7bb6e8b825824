import { Command } from 'commander';
import { seedDemo } from '../../seed/demo.js';
import { CliError } from '../cli-error.js';
import { withDatabase } from '../with-database.js';

export function seedCommand(): Command {
  return new Command('seed')
    .description('Load data into the database')
    .option('--demo', 'deterministic, idempotent demo data (brands, products, campaigns, affiliates aff-demo-1 and aff-demo-2, orders)')
    .action(async (options: { demo?: boolean }) => {
      if (!options.demo) throw new CliError('nothing to seed: pass --demo');
      await withDatabase(async (database) => {
        const summary = await seedDemo(database, (line) => console.log(line));
        console.log(
          `Demo data ready: ${summary.brands} brands, ${summary.products} products, ${summary.campaigns} campaigns, ${summary.affiliates} affiliates, ${summary.orders} orders.`,
        );
      });
    });
}
