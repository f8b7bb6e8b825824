import { Command } from 'commander';
import { seedDemo } from '../../seed/demo.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';

export function seedCommand(): Command {
  return new Command('seed')
    .description('Load data into the database')
    .option('--demo', 'deterministic, idempotent demo data (brands, products, campaigns, affiliates aff-demo-1 and aff-demo-2, orders)')
    .action(async (options: { demo?: boolean }) => {
      if (!options.demo) throw new CliError('nothing to seed: pass --demo');
      await withServices(async (services) => {
        const summary = await seedDemo(services, (line) => console.log(line));
        console.log(
          `Demo data ready: ${summary.brands} brands, ${summary.products} products, ${summary.campaigns} campaigns, ${summary.affiliates} affiliates, ${summary.orders} orders.`,
        );
      });
    });
}
