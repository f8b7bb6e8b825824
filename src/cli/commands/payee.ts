import { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { prependNewKey } from '../../lib/key-ring.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';

export function payeeCommand(): Command {
  const payee = new Command('payee').description("Affiliates' payee details (where they are paid) and the key that encrypts them");
  payee
    .command('rotate-key')
    .description(
      'Re-encrypt every payee record with the current key (PAYEE_ENCRYPTION_KEY, or the key file’s first key), reading each with the key it names (PAYEE_ENCRYPTION_OLD_KEYS or the key file’s others). --new-key first puts a new random key at the top of the key file.',
    )
    .option('--new-key', 'make a new current key in the key file (the embedded default’s data/payee.key, or PAYEE_KEY_FILE); the old ones stay in it, still read')
    .action(async (options: { newKey?: boolean }) => {
      const config = loadConfig();
      if (options.newKey) {
        if (config.payeeEncryptionKey) {
          throw new CliError('PAYEE_ENCRYPTION_KEY is set, so the current key is the variable’s: set it to a new key (openssl rand -base64 32), put the old one in PAYEE_ENCRYPTION_OLD_KEYS, restart every instance, then run affnet payee rotate-key without --new-key');
        }
        if (!config.payeeKeyFile) throw new CliError('There is no key file to add a key to (PostgreSQL): set PAYEE_ENCRYPTION_KEY to a new key and PAYEE_ENCRYPTION_OLD_KEYS to the old one instead (see the README)');
        console.log(`Made a new current key ${prependNewKey(config.payeeKeyFile)} in ${config.payeeKeyFile}; the older keys stay there to read older records.`);
      }
      await withServices(async ({ payees }) => {
        const result = await payees.rotateKey();
        console.log(`Re-encrypted ${result.reencrypted} payee record(s) with key ${result.keyId}.`);
        const others = result.byKey.filter((k) => k.keyId !== result.keyId);
        if (result.unreadable.length > 0) {
          throw new CliError(
            `${result.unreadable.length} record(s) could not be read, their key being configured nowhere: ${result.unreadable.map((r) => `${r.affiliateId} (key ${r.keyId})`).join(', ')}. Add that key to PAYEE_ENCRYPTION_OLD_KEYS (or the key file) and run this again.`,
          );
        }
        if (others.length === 0) console.log(`Every payee record is under key ${result.keyId}: older keys are no longer needed for the records (keep them with the backups made before).`);
        else console.log(`Still under other keys (saved during the rotation? run it again): ${others.map((k) => `${k.keyId}: ${k.rows}`).join(', ')}.`);
      });
    });
  return payee;
}
