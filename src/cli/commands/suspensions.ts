// `affnet affiliates suspend|reactivate ID --reason …` and the same for `affnet brands`: the
// network's suspension of a member, made from the command line (the audit trail names the cli).
import type { Command } from 'commander';
import { CLI } from '../../domain/audit/audit-entry.js';
import type { Member, Standing } from '../../domain/access/suspensions.js';
import { withServices } from '../with-services.js';

const WHILE_SUSPENDED = {
  affiliate: 'its links still redirect but count no click, its conversions earn nothing, payout runs skip it, and its API keys and sessions are refused',
  brand: "it is out of affiliates' sight, its links lead to its home page without counting, and its API keys, postback token and sessions are refused",
} as const;

function described(standing: Standing, suspended: boolean): string {
  const label = `${standing.kind === 'affiliate' ? 'Affiliate' : 'Brand'} ${standing.id} (${standing.name})`;
  return suspended
    ? `${label} suspended: ${WHILE_SUSPENDED[standing.kind]}. Its owners were mailed the reason.`
    : `${label} reactivated: it works as before. Its owners were mailed the reason.`;
}

/** Adds `suspend` and `reactivate` to the affiliates or brands command. */
export function addSuspensionCommands(parent: Command, kind: 'affiliate' | 'brand'): void {
  const member = (id: string): Member => (kind === 'affiliate' ? { affiliateId: id } : { brandId: id });
  for (const suspend of [true, false]) {
    parent
      .command(suspend ? 'suspend' : 'reactivate')
      .description(
        suspend
          ? `Suspend ${kind === 'affiliate' ? 'an affiliate' : 'a brand'} with a reason: ${WHILE_SUSPENDED[kind]} (running servers see it at once with Redis, within about a second without). Its owners are mailed the reason; the audit trail keeps it`
          : `Reactivate a suspended ${kind}, with a reason; its owners are mailed it and the audit trail keeps it`,
      )
      .argument('<id>', `the ${kind}'s id`)
      .requiredOption('--reason <text>', 'why (one line, up to 500 characters)')
      .action(async (id: string, options: { reason: string }) => {
        await withServices(async ({ suspensions }) => {
          const standing = suspend ? await suspensions.suspend(CLI, member(id), options.reason) : await suspensions.reactivate(CLI, member(id), options.reason);
          console.log(described(standing, suspend));
        });
      });
  }
}
