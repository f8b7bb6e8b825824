// affnet holds: the operator's review of fraud holds from the command line (actor cli): the
// queue with the facts of each hold, and releasing or declining held commissions, several at once.
import { Command, Option } from 'commander';
import { withServices } from '../with-services.js';
import { CliError } from '../cli-error.js';
import { formatMinor } from '../../domain/money.js';
import { CLI } from '../../domain/audit/audit-entry.js';
import type { HeldOrder, HoldDecision } from '../../domain/orders/holds.js';
import type { RuleFact } from '../../domain/orders/fraud-rules.js';

/** A rule with its numbers, in a line. */
export function ruleLine(rule: RuleFact): string {
  switch (rule.rule) {
    case 'click_to_order_too_fast':
      return `click_to_order_too_fast: ordered ${rule.seconds} s after the click (under ${rule.minimumSeconds} s)`;
    case 'self_referral':
      return "self_referral: the customer's address is one of the affiliate's users'";
    case 'conversion_rate':
      return `conversion_rate: ${rule.conversions} conversions on ${rule.countedClicks} counted clicks on ${rule.day} (${rule.rateBp} bp, over ${rule.maximumBp} bp; from ${rule.minimumClicks} clicks)`;
    case 'conversions_per_click':
      return `conversions_per_click: ${rule.conversions} conversions on one click (over ${rule.maximum})`;
    case 'datacenter_traffic':
      return `datacenter_traffic: ${rule.datacenterClicks} of ${rule.countedClicks} counted clicks on ${rule.day} from data-centre networks (${rule.shareBp} bp, over ${rule.maximumBp} bp; from ${rule.minimumClicks} clicks)`;
  }
}

function describe(order: HeldOrder): string[] {
  const click = order.click;
  const network = click?.asn !== undefined ? `AS${click.asn}${click.datacenter ? ' (data centre)' : ''}` : 'unknown network';
  const record = order.affiliateRecord;
  return [
    `${order.id}  order ${order.orderId} of ${order.brand.name ?? order.brand.id}, affiliate ${order.affiliate.name ?? order.affiliate.id} (${order.affiliate.id})`,
    `  ${formatMinor(order.value, order.currency)} sale, ${formatMinor(order.commission, order.currency)} commission; ordered ${order.createdAt}, held ${order.heldAt}, by ${order.source}`,
    ...(click ? [`  click ${click.id} at ${click.at ?? '?'} from ${click.country ?? 'ZZ'}, ${click.device ?? '?'} ${click.browser ?? ''} ${click.os ?? ''}, ${network}${click.referrer ? `, from ${click.referrer}` : ''}`.replace(/ +,/g, ',')] : []),
    ...order.rules.map((rule) => `  ${ruleLine(rule)}`),
    `  affiliate's record: ${record.orders} order(s) (${Object.entries(record.byCommissionStatus).map(([status, n]) => `${n} ${status}`).join(', ')}); held before: ${record.everHeld}, declined as fraud: ${record.fraudDeclined}`,
  ];
}

function report(decisions: readonly HoldDecision[]): void {
  let failed = 0;
  for (const d of decisions) {
    if (d.outcome === 'released') console.log(`${d.id}: released, pending until ${d.lockAt}.`);
    else if (d.outcome === 'declined') console.log(`${d.id}: declined.`);
    else {
      failed++;
      const why = d.outcome === 'not_found' ? 'no such order' : d.outcome === 'not_held' ? `not held (its commission is ${d.commissionStatus})` : `changed meanwhile (its commission is ${d.commissionStatus ?? '?'}): look again`;
      console.error(`${d.id}: ${why}.`);
    }
  }
  if (failed > 0) process.exitCode = 1;
}

export function holdsCommand(): Command {
  const holds = new Command('holds').description('Fraud holds: conversions whose commission is held for review, and releasing or declining them');

  holds
    .command('list')
    .description('The held conversions, the longest held first, with the facts of each: click, network, the rules tripped with their numbers, the affiliate\'s record')
    .option('--affiliate <id>', 'only this affiliate')
    .option('--brand <id>', 'only this brand')
    .option('--limit <n>', 'at most this many', '50')
    .addOption(new Option('--format <format>', 'output').choices(['text', 'json']).default('text'))
    .action(async (options: { affiliate?: string; brand?: string; limit: string; format: 'text' | 'json' }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new CliError('--limit must be a whole number from 1 to 500');
      await withServices(async ({ holds: service }) => {
        const { items, total } = await service.list({ ...(options.affiliate && { affiliateId: options.affiliate }), ...(options.brand && { brandId: options.brand }) }, { page: 1, limit });
        if (options.format === 'json') {
          process.stdout.write(`${JSON.stringify({ total, items }, null, 2)}\n`);
          return;
        }
        if (items.length === 0) console.log('No conversion is held.');
        for (const order of items) console.log(describe(order).join('\n'));
        if (total > items.length) console.log(`… ${total - items.length} more (--limit).`);
      });
    });

  holds
    .command('release')
    .description("Release held commissions: pending again, locking the brand's validation days from now (the brand then approves or cancels them as any other)")
    .argument('<orders...>', 'network order ids (as `affnet holds list` shows them)')
    .option('--reason <text>', 'why (kept in the audit trail)')
    .action(async (orders: string[], options: { reason?: string }) => {
      await withServices(async (services) => report(await services.holds.release(CLI, orders, options.reason)));
    });

  holds
    .command('decline')
    .description('Decline held commissions: canceled, commission 0, commissionReason fraud_declined; the affiliate is told, with the reason')
    .argument('<orders...>', 'network order ids (as `affnet holds list` shows them)')
    .requiredOption('--reason <text>', 'why (the affiliate reads it)')
    .action(async (orders: string[], options: { reason: string }) => {
      await withServices(async (services) => report(await services.holds.decline(CLI, orders, options.reason)));
    });

  return holds;
}
