import { Command } from 'commander';
import { withServices } from '../with-services.js';

export function brandsCommand(): Command {
  const brands = new Command('brands').description('Manage brands (advertisers)');

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

  return brands;
}
