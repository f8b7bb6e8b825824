import { Command, Option } from 'commander';
import { ROLES, type Role } from '../../domain/access/users-service.js';
import { CliError } from '../cli-error.js';
import { CLI } from '../../domain/audit/audit-entry.js';
import { withServices } from '../with-services.js';

export function usersCommand(): Command {
  const users = new Command('users').description('People who sign in to the portal: each belongs to one affiliate, one brand, or (operators) the network');

  users
    .command('create')
    .description('Create a user; prints the one-time link where they set their password (valid 7 days) alone on the last line')
    .addOption(new Option('--affiliate <id>', 'the affiliate the user works for').conflicts(['brand', 'operator']))
    .addOption(new Option('--brand <id>', 'the brand the user works for').conflicts(['affiliate', 'operator']))
    .addOption(new Option('--operator', 'one of the people who run the network (the console at /app/operator); they enrol a second factor before anything else').conflicts(['affiliate', 'brand', 'role']))
    .requiredOption('--email <address>', 'their e-mail address (they sign in with it)')
    .addOption(new Option('--role <role>', 'owner (manages the team and API keys) or member').choices(ROLES))
    .action(async (options: { affiliate?: string; brand?: string; operator?: boolean; email: string; role?: Role }) => {
      if (options.operator) {
        await withServices(async ({ users }) => {
          const { user, link } = await users.createOperator(options.email);
          console.log(`Created operator ${user.email} (${user.id}). Send them this one-time link to set their password (they set up a second factor next):`);
          console.log(link);
        });
        return;
      }
      if (!options.affiliate && !options.brand) throw new CliError('pass --affiliate ID, --brand ID or --operator');
      await withServices(async ({ users }) => {
        const { user, link } = await users.create({ affiliateId: options.affiliate, brandId: options.brand }, options.email, options.role ?? 'member');
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
  users
    .command('remove-second-factors')
    .description(
      'Remove every second factor of a person (authenticator app, recovery codes, passkeys) who lost them, once you have checked it is them: their sessions end, they are mailed the reason, the audit trail keeps it; they sign in with their password and set one up again',
    )
    .requiredOption('--email <address>', 'the user’s e-mail address')
    .requiredOption('--reason <text>', 'why, and how you checked who asked (one line, up to 500 characters)')
    .action(async (options: { email: string; reason: string }) => {
      await withServices(async ({ secondFactors }) => {
        const { email, userId } = await secondFactors.removeAll(CLI, options.email, options.reason);
        console.log(`Removed the second factors of ${email} (${userId}); their sessions ended and they were mailed.`);
      });
    });
  return users;
}
