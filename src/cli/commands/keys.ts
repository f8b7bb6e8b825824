import { Command, Option } from 'commander';
import { DEFAULT_BRAND_RATE_LIMIT, DEFAULT_RATE_LIMIT } from '../../domain/access/access-service.js';
import { AFFILIATE_SCOPES, BRAND_SCOPES, parseScopes } from '../../domain/access/scopes.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--rate-limit must be a positive integer, got "${value}"`);
  return n;
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('Manage API keys (stored hashed; a key is shown once, when created)');

  keys
    .command('create')
    .description('Create a key; prints the key alone on the last line of stdout')
    .addOption(new Option('--affiliate <id>', 'affiliate the key belongs to').conflicts('brand'))
    .addOption(new Option('--brand <id>', 'brand (advertiser) the key belongs to').conflicts('affiliate'))
    .option('--scopes <list>', `comma-separated scopes (default: all). Affiliate: ${AFFILIATE_SCOPES.join(', ')}. Brand: ${BRAND_SCOPES.join(', ')}`)
    .option('--name <name>', 'a label to recognise the key by')
    .option('--rate-limit <n>', `requests allowed per 60 s window (default: ${DEFAULT_RATE_LIMIT} for an affiliate key, ${DEFAULT_BRAND_RATE_LIMIT} for a brand key)`, positiveInteger)
    .action(async (options: { affiliate?: string; brand?: string; scopes?: string; name?: string; rateLimit?: number }) => {
      if (!options.affiliate && !options.brand) throw new CliError('pass --affiliate ID or --brand ID');
      let scopes;
      try {
        scopes = options.scopes === undefined ? undefined : parseScopes(options.scopes, options.affiliate ? AFFILIATE_SCOPES : BRAND_SCOPES);
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      await withServices(async ({ access }) => {
        const { id, key } = await access.createApiKey({
          affiliateId: options.affiliate,
          brandId: options.brand,
          scopes,
          name: options.name,
          rateLimit: options.rateLimit,
        });
        const owner = options.affiliate ? `affiliate ${options.affiliate}` : `brand ${options.brand}`;
        console.log(`Created key ${id} for ${owner}. Store it now: it is not shown again.`);
        console.log(key);
      });
    });

  keys
    .command('list')
    .description('List the keys of an affiliate or brand (never the keys themselves)')
    .addOption(new Option('--affiliate <id>', 'affiliate id').conflicts('brand'))
    .addOption(new Option('--brand <id>', 'brand id').conflicts('affiliate'))
    .action(async (options: { affiliate?: string; brand?: string }) => {
      if (!options.affiliate && !options.brand) throw new CliError('pass --affiliate ID or --brand ID');
      await withServices(async ({ access }) => {
        const rows = await access.listApiKeys({ affiliateId: options.affiliate, brandId: options.brand });
        if (rows.length === 0) console.log('No keys.');
        for (const r of rows) {
          const state = r.revokedAt ? `revoked ${r.revokedAt}` : 'active';
          console.log(`${r.id}\t${r.prefix}…\t${state}\t${r.rateLimit}/60s\t${r.scopes.join(',')}\t${r.name}`);
        }
      });
    });

  keys
    .command('revoke')
    .description('Revoke a key by its id (key_…); refused everywhere within a second')
    .argument('<keyId>', 'the key id shown by keys create / keys list')
    .action(async (keyId: string) => {
      await withServices(async ({ access }) => {
        await access.revokeApiKey(keyId);
        console.log(`Revoked ${keyId}.`);
      });
    });

  return keys;
}
