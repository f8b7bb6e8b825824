import { Command, Option } from 'commander';
import type { ApplicationView } from '../../domain/access/applications-service.js';
import { withServices } from '../with-services.js';
import { CLI } from '../../domain/audit/audit-entry.js';

const STATUSES = ['unverified', 'pending', 'approved', 'declined'] as const;
const KINDS = ['affiliate', 'brand'] as const;

/** One line of the list: what an operator needs to decide. */
function line(a: ApplicationView): string {
  const who = a.kind === 'brand' ? `${a.company} (${a.name})` : a.name;
  const brandFacts = a.kind === 'brand' ? `\t${a.taxId}\t${a.currency}\t${a.expectedMonthlyOrders} orders/month` : '';
  return `${a.id}\t${a.kind}\t${a.status}\t${a.createdAt}\t${who}\t${a.email}\t${a.country ?? ''}\t${a.website}${brandFacts}`;
}

function decided(a: ApplicationView): string {
  if (a.status === 'declined') return `Declined ${a.id}; ${a.email} is mailed the reason.`;
  return `Approved ${a.id}: ${a.kind} ${a.affiliateId ?? a.brandId} exists with ${a.email} as its owner, who is mailed.`;
}

export function applicationsCommand(): Command {
  const applications = new Command('applications').description('Affiliates who signed up and brands who applied: list them, approve or decline (the person is mailed)');

  applications
    .command('list')
    .description('Applications, oldest first: id, kind, status, applied at, name, e-mail, country, site (and a brand’s tax id, currency and expected orders)')
    .addOption(new Option('--status <status>', 'only these').choices(STATUSES).default('pending'))
    .addOption(new Option('--kind <kind>', 'only affiliates or only brands').choices(KINDS))
    .action(async (options: { status: (typeof STATUSES)[number]; kind?: (typeof KINDS)[number] }) => {
      await withServices(async ({ applications }) => {
        const rows = await applications.list({ status: options.status, ...(options.kind && { kind: options.kind }) });
        if (rows.length === 0) console.log(`No ${options.status} applications.`);
        for (const row of rows) console.log(line(row));
      });
    });

  applications
    .command('approve')
    .description('Approve a pending application: creates the affiliate (with its first channel) or the brand, and its owner')
    .argument('<id>', 'the application id (apl_…)')
    .action(async (id: string) => {
      await withServices(async ({ applications }) => console.log(decided(await applications.approve(id, CLI))));
    });

  applications
    .command('decline')
    .description('Decline a pending application; the person is mailed the reason')
    .argument('<id>', 'the application id (apl_…)')
    .requiredOption('--reason <text>', 'why, in words the person will read')
    .action(async (id: string, options: { reason: string }) => {
      await withServices(async ({ applications }) => console.log(decided(await applications.decline(id, options.reason, CLI))));
    });

  return applications;
}
