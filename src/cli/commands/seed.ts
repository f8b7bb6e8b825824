import { Command } from 'commander';
import { demoUsersNotice, newDemoPassword, seedDemo } from '../../seed/demo.js';
import { loadConfig } from '../../config.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';

export function seedCommand(): Command {
  return new Command('seed')
    .description('Load data into the database')
    .option('--demo', 'deterministic, idempotent demo data (brands, products, campaigns, affiliates aff-demo-1 and aff-demo-2, orders)')
    .action(async (options: { demo?: boolean }) => {
      if (!options.demo) throw new CliError('nothing to seed: pass --demo');
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
