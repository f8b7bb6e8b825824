import { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';

export function seedCommand(): Command {
  return new Command('seed')
    .description('Load data into the database')
    .option('--demo', 'deterministic, idempotent demo data (brands, products, campaigns, affiliates aff-demo-1 and aff-demo-2, orders)')
    .action(async (options: { demo?: boolean }) => {
      if (!options.demo) throw new CliError('nothing to seed: pass --demo');
      // The demo's data and generators load for this command only (main.js is every command's start).
      const { demoUsersNotice, newDemoPassword, seedDemo } = await import('../../seed/demo.js');
      await withServices(async (services, _config, database) => {
        const password = newDemoPassword();
        const summary = await seedDemo(services, (line) => console.log(line), { userPassword: password, activityOn: database });
        console.log(
          `Demo data ready: ${summary.brands} brands, ${summary.products} products, ${summary.campaigns} campaigns, ${summary.affiliates} affiliates, ${summary.orders} orders.`,
        );
        const notice = demoUsersNotice(summary.users, password, `${loadConfig().publicUrl}/app`);
        if (notice) console.log(notice);
      });
    });
}
