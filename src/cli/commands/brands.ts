import { Command } from 'commander';
import { withServices } from '../with-services.js';
import { CliError } from '../cli-error.js';
import { wholeNumber } from '../numbers.js';
import { addSuspensionCommands } from './suspensions.js';
import { CLI } from '../../domain/audit/audit-entry.js';

export function brandsCommand(): Command {
  const brands = new Command('brands').description('Manage brands (advertisers): postback tokens, statement terms; suspend and reactivate them');

  brands
    .command('postback-token')
    .description(
      "Create the brand's postback token, the secret of its GET /postback URL (it can report conversions and nothing else); " +
        'replaces the previous one, which stops working at once (on running servers: at once with Redis, within a second without). ' +
        'Prints the token alone on the last line of stdout; it is stored hashed and never shown again',
    )
    .requiredOption('--brand <id>', 'brand (advertiser) the token belongs to')
    .action(async (options: { brand: string }) => {
      await withServices(async ({ access }, config) => {
        const { id, token, replaced } = await access.rotatePostbackToken(options.brand);
        console.log(
          replaced
            ? `Created postback token ${id} for brand ${options.brand}; it replaces ${replaced}…, which no longer works.`
            : `Created postback token ${id} for brand ${options.brand}.`,
        );
        console.log(`The brand fires ${config.publicUrl}/postback?clickId=<clickId>&orderId=<orderId>&value=<cents>&token=<the token below>`);
        console.log('Store the token now: it is not shown again.');
        console.log(token);
      });
    });

  brands
    .command('publishable-key')
    .description(
      "Make the brand's publishable key, the key its tag and pixel carry (public by design: it reports conversions from the brand's own pages and nothing else); " +
        'replaces the previous one, which stops working at once. Prints the key alone on the last line of stdout; the brand also finds it on its Tag page',
    )
    .requiredOption('--brand <id>', 'brand (advertiser) the key belongs to')
    .action(async (options: { brand: string }) => {
      await withServices(async ({ tagInstall }) => {
        const key = await tagInstall.replaceKey(options.brand);
        console.log(`Made a publishable key for brand ${options.brand}; a key it had before no longer works.`);
        console.log(key);
      });
    });

  brands
    .command('terms')
    .description("Set the brand's statement terms: the network's fee on each commission billed, and the days it has to pay a statement; with a reason, which the brand's owners are mailed, its webhooks carry (statement.terms_changed) and the audit trail keeps (the operator's console changes them the same way)")
    .requiredOption('--brand <id>', 'brand id')
    .option('--fee-basis-points <n>', 'the fee in basis points of each commission (3000 is 30 %)')
    .option('--due-days <n>', 'days from issue to due date')
    .requiredOption('--reason <text>', 'why (one line, up to 500 characters)')
    .action(async (options: { brand: string; feeBasisPoints?: string; dueDays?: string; reason: string }) => {
      const feeBasisPoints = options.feeBasisPoints === undefined ? undefined : wholeNumber(options.feeBasisPoints);
      const dueDays = options.dueDays === undefined ? undefined : wholeNumber(options.dueDays);
      if (options.feeBasisPoints !== undefined && feeBasisPoints === undefined) throw new CliError(`--fee-basis-points must be a whole number, got "${options.feeBasisPoints}"`);
      if (options.dueDays !== undefined && dueDays === undefined) throw new CliError(`--due-days must be a whole number, got "${options.dueDays}"`);
      if (feeBasisPoints === undefined && dueDays === undefined) throw new CliError('give --fee-basis-points, --due-days or both');
      await withServices(async ({ statements }) => {
        const terms = await statements.setTerms(CLI, options.brand, { feeBasisPoints, dueDays, reason: options.reason });
        console.log(`Brand ${options.brand}: fee ${terms.feeBasisPoints} basis points (${terms.feeBasisPoints / 100} %) of each commission; statements due ${terms.dueDays} day(s) after issue. Statements already issued keep their terms.`);
      });
    });

  addSuspensionCommands(brands, 'brand');
  return brands;
}
