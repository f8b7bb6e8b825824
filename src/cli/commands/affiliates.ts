import { Command } from 'commander';
import { CHANNEL_KINDS } from '../../domain/access/channels-service.js';
import { withServices } from '../with-services.js';
import { addSuspensionCommands } from './suspensions.js';

export function affiliatesCommand(): Command {
  const affiliates = new Command('affiliates').description('Manage affiliates, their channels and their approvals for private brands; suspend and reactivate them');

  affiliates
    .command('create')
    .description('Create an affiliate (or rename an existing one)')
    .argument('<id>', 'affiliate id, e.g. aff-123')
    .option('--name <name>', 'display name')
    .action(async (id: string, options: { name?: string }) => {
      await withServices(async ({ access }) => {
        await access.upsertAffiliate(id, options.name ?? id);
        console.log(`Affiliate ${id} ready.`);
      });
    });

  affiliates
    .command('add-channel')
    .description(`Add a channel to an affiliate. Kinds: ${CHANNEL_KINDS.map((k) => k.id).join(', ')}`)
    .requiredOption('--affiliate <id>', 'affiliate id')
    .requiredOption('--kind <kind>', 'channel kind')
    .requiredOption('--name <name>', 'channel name, e.g. the blog or profile name')
    .action(async (options: { affiliate: string; kind: string; name: string }) => {
      await withServices(async ({ channels }) => {
        const { id } = await channels.create(options.affiliate, options.kind, options.name);
        console.log(`Channel ${id} added.`);
      });
    });

  affiliates
    .command('channels')
    .description("List an affiliate's channels")
    .requiredOption('--affiliate <id>', 'affiliate id')
    .action(async (options: { affiliate: string }) => {
      await withServices(async ({ channels }) => {
        for (const ch of await channels.list(options.affiliate)) console.log(`${ch.id}\t${ch.kindName}\t${ch.name}`);
      });
    });

  affiliates
    .command('approve')
    .description('Approve an affiliate for a (private) brand')
    .requiredOption('--affiliate <id>', 'affiliate id')
    .requiredOption('--brand <uuid>', 'brand id')
    .action(async (options: { affiliate: string; brand: string }) => {
      await withServices(async ({ access }) => {
        await access.approveForBrand(options.affiliate, options.brand);
        console.log(`Affiliate ${options.affiliate} approved for brand ${options.brand}.`);
      });
    });

  addSuspensionCommands(affiliates, 'affiliate');
  return affiliates;
}
