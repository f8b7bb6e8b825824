// The payee key on the command line: the embedded database makes its key file at the first start,
// `affnet payee rotate-key` re-encrypts every record with the current key (a new one in the key
// file with --new-key, or PAYEE_ENCRYPTION_KEY with the older ones still read), and `affnet backup`
// copies the key file beside the database's copy (or warns where it cannot); a restore adds the
// backup's keys to the key file in use, so its records stay readable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { buildWorld } from '../helpers/world.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { loadConfig } from '../../src/config.js';
import { payeeKeysFor, servicesOver, type Services } from '../../src/services.js';
import { parseKeyFile } from '../../src/lib/key-ring.js';
import { newKeyText } from '../../src/lib/sealed-box.js';
import { systemClock } from '../../src/lib/clock.js';

const HOUR = 3_600_000;
let dir: string;
let databaseFile: string;
let keyFile: string;
const env = (extra: Record<string, string> = {}) => ({ DATABASE_URL: `sqlite:${databaseFile}`, REDIS_URL: '', PAYEE_ENCRYPTION_KEY: '', PAYEE_ENCRYPTION_OLD_KEYS: '', PAYEE_KEY_FILE: '', ...extra });
const details = { legalName: 'Ana Lima', country: 'BR', taxId: '52998224725', method: { type: 'pix' as const, keyType: 'cpf' as const, key: '52998224725' } };

/** The services as a started instance builds them from `extra` (making the key file when the embedded database has none). */
async function withServicesOf<T>(extra: Record<string, string>, run: (services: Services, database: Database) => Promise<T>): Promise<T> {
  const config = loadConfig(env(extra));
  const database = openDatabase(config.databaseUrl);
  try {
    return await run(servicesOver(database, { clock: systemClock, publicUrl: 'http://go.test', publisher: { publish: async () => {} }, payeeKeys: payeeKeysFor(config).keys }), database);
  } finally {
    await database.close();
  }
}

const keyIds = () => parseKeyFile(readFileSync(keyFile, 'utf8'), keyFile).map((k) => k.id);
const rowKeys = (extra: Record<string, string> = {}) => withServicesOf(extra, async (_s, database) => (await database.db.selectFrom('payee_details').select(['affiliate_id', 'key_id']).orderBy('affiliate_id').execute()).map((r) => r.key_id));
const destination = (extra: Record<string, string> = {}) => withServicesOf(extra, (services) => services.payees.destinationFor('aff-1', new Date(Date.now() + 49 * HOUR).toISOString()));

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'affnet-payee-'));
  databaseFile = join(dir, 'affnet.sqlite');
  keyFile = join(dir, 'payee.key');
  const database = openDatabase(`sqlite:${databaseFile}`);
  try {
    await migrateToLatest(database);
    await buildWorld(database);
  } finally {
    await database.close();
  }
  assert.equal(existsSync(keyFile), false);
  const notice = payeeKeysFor(loadConfig(env())).notice;
  assert.match(notice?.message ?? '', new RegExp(`^Made the key of payee details in ${keyFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(first start\\)`));
  assert.equal(statSync(keyFile).mode & 0o777, 0o600, 'readable by the service’s user only');
  await withServicesOf({}, async (services) => {
    for (const affiliateId of ['aff-1', 'aff-2']) {
      const owner = (await services.users.createWithPassword({ affiliateId }, `owner@${affiliateId}.example`, 'owner', 'correct horse battery'))!;
      await services.payees.save({ affiliateId, userId: owner.id, sessionToken: '' }, { ...details, password: 'correct horse battery' });
    }
  });
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('rotate-key --new-key: a new current key first in the key file, every record re-encrypted with it, the old key kept to read', async () => {
  const [first] = keyIds();
  assert.deepEqual(await rowKeys(), [first, first]);
  const rotated = await runCli(['payee', 'rotate-key', '--new-key'], env());
  assert.equal(rotated.code, 0, rotated.stderr);
  const [current, old] = keyIds();
  assert.equal(old, first);
  assert.match(rotated.stdout, new RegExp(`Made a new current key ${current} in .*payee\\.key`));
  assert.match(rotated.stdout, new RegExp(`Re-encrypted 2 payee record\\(s\\) with key ${current}\\.`));
  assert.match(rotated.stdout, new RegExp(`Every payee record is under key ${current}`));
  assert.deepEqual(await rowKeys(), [current, current]);
  const ready = await destination();
  assert.equal(ready.ready, true);
  assert.deepEqual(ready.ready && ready.details, details, 'still read in full with the new key');

  const again = await runCli(['payee', 'rotate-key'], env());
  assert.match(again.stdout, /Re-encrypted 0 payee record\(s\)/, 'idempotent');
});

test('rotate-key with PAYEE_ENCRYPTION_KEY: old keys read from PAYEE_ENCRYPTION_OLD_KEYS; a record whose key is nowhere is named, exit 1', async () => {
  const fileKeys = readFileSync(keyFile, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  const next = newKeyText();
  const variables = { PAYEE_ENCRYPTION_KEY: next, PAYEE_ENCRYPTION_OLD_KEYS: fileKeys.join(','), PAYEE_KEY_FILE: join(dir, 'no-such.key') };
  const refused = await runCli(['payee', 'rotate-key', '--new-key'], env(variables));
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /PAYEE_ENCRYPTION_KEY is set, so the current key is the variable’s/);

  const rotated = await runCli(['payee', 'rotate-key'], env(variables));
  assert.equal(rotated.code, 0, rotated.stderr);
  const nextId = parseKeyFile(next, 'the variable')[0]!.id;
  assert.match(rotated.stdout, new RegExp(`Re-encrypted 2 payee record\\(s\\) with key ${nextId}\\.`));
  assert.deepEqual(await rowKeys(variables), [nextId, nextId]);
  assert.equal((await destination({ PAYEE_ENCRYPTION_KEY: next, PAYEE_KEY_FILE: join(dir, 'no-such.key') })).ready, true, 'the old keys are no longer needed');

  const lost = await runCli(['payee', 'rotate-key'], env({ PAYEE_ENCRYPTION_KEY: newKeyText(), PAYEE_KEY_FILE: join(dir, 'no-such.key') }));
  assert.equal(lost.code, 1);
  assert.match(lost.stderr, new RegExp(`2 record\\(s\\) could not be read, their key being configured nowhere: aff-1 \\(key ${nextId}\\), aff-2 \\(key ${nextId}\\)`));

  // Back to the key file's keys for the backup test.
  const back = await runCli(['payee', 'rotate-key'], env({ PAYEE_ENCRYPTION_OLD_KEYS: next }));
  assert.equal(back.code, 0, back.stderr);
});

test('backup copies the key file beside the database’s copy; warns when the key is a variable or missing; restore adds the backup’s keys', async () => {
  const target = join(dir, 'backup.sqlite');
  const backup = await runCli(['backup', target], env());
  assert.equal(backup.code, 0, backup.stderr);
  assert.match(backup.stdout, /Copied the payee key file to .*backup\.sqlite\.payee\.key: keep it with the backup/);
  assert.equal(readFileSync(`${target}.payee.key`, 'utf8'), readFileSync(keyFile, 'utf8'));
  assert.equal(statSync(`${target}.payee.key`).mode & 0o777, 0o600);

  const byVariable = await runCli(['backup', join(dir, 'backup-2.sqlite')], env({ PAYEE_ENCRYPTION_KEY: newKeyText(), PAYEE_KEY_FILE: join(dir, 'no-such.key') }));
  assert.equal(byVariable.code, 0, byVariable.stderr);
  assert.match(byVariable.stderr, /warning: the current payee key is in PAYEE_ENCRYPTION_KEY .*keep them with this backup/);
  const none = await runCli(['backup', join(dir, 'backup-3.sqlite')], env({ PAYEE_KEY_FILE: join(dir, 'no-such.key') }));
  assert.match(none.stderr, /warning: there is no payee key file at .*no-such\.key to copy/);

  // The key file in use lost its keys (a new machine): the restore brings the backup's back.
  const rotated = await runCli(['payee', 'rotate-key', '--new-key'], env());
  assert.equal(rotated.code, 0, rotated.stderr);
  rmSync(keyFile);
  const restored = await runCli(['restore', target], env());
  assert.equal(restored.code, 0, restored.stderr);
  assert.match(restored.stdout, /Added \d payee key\(s\) of the backup to the key file in use/);
  assert.equal((await destination()).ready, true, 'the restored records are read');
});
