import { Command } from 'commander';
import { withServices } from '../with-services.js';

export function analyticsCommand(): Command {
  const analytics = new Command('analytics').description('Click and earnings analytics');
  analytics
    .command('rebuild')
    .description(
      'Recompute the hourly rollups from stored clicks and orders (after an upgrade, or to repair them). Idempotent; hours before the oldest stored click keep their click figures.',
    )
    .option('--since <date>', 'YYYY-MM-DD (UTC) or an ISO 8601 date-time: only hours from then on (default: all)')
    .action(async (options: { since?: string }) => {
      await withServices(async ({ analytics: service }) => {
        const result = await service.rebuild(options.since);
        console.log(
          result.clicksFrom === undefined
            ? 'Click rollups: no click is stored, none rewritten.'
            : `Click rollups recomputed from ${result.clicksFrom} on.`,
        );
        console.log(result.ordersFrom === undefined ? 'Order rollups recomputed for every hour.' : `Order rollups recomputed from ${result.ordersFrom} on.`);
      });
    });
  return analytics;
}
