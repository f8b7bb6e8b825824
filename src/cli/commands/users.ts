import { Command, Option } from 'commander';
import { ROLES, type Role } from '../../domain/access/users-service.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';

export function usersCommand(): Command {
  const users = new Command('users').description('People who sign in to the portal: each belongs to one affiliate or one brand');

  users
    .command('create')
    .description('Create a user; prints the one-time link where they set their password (valid 7 days) alone on the last line')
    .addOption(new Option('--affiliate <id>', 'the affiliate the user works for').conflicts('brand'))
    .addOption(new Option('--brand <id>', 'the brand the user works for').conflicts('affiliate'))
    .requiredOption('--email <address>', 'their e-mail address (they sign in with it)')
    .addOption(new Option('--role <role>', 'owner (manages the team and API keys) or member').choices(ROLES).default('member'))
    .action(async (options: { affiliate?: string; brand?: string; email: string; role: Role }) => {
      if (!options.affiliate && !options.brand) throw new CliError('pass --affiliate ID or --brand ID');
      await withServices(async ({ users }) => {
        const { user, link } = await users.create({ affiliateId: options.affiliate, brandId: options.brand }, options.email, options.role);
        console.log(`Created ${user.role} ${user.email} (${user.id}) for ${user.affiliateId ? `affiliate ${user.affiliateId}` : `brand ${user.brandId}`}. Send them this one-time link to set their password:`);
        console.log(link);
      });
    });

  users
    .command('reset-link')
    .description('A one-time link to set a new password (valid 1 hour; 7 days for a user who never set one); prints it alone on the last line')
    .requiredOption('--email <address>', 'the user’s e-mail address')
    .action(async (options: { email: string }) => {
      await withServices(async ({ users }) => {
        const link = await users.resetLink(options.email);
        console.log(`One-time link for ${options.email.trim().toLowerCase()}:`);
        console.log(link);
      });
    });
  return users;
}
