// Backup and restore work on the embedded database's file itself, below the services: this is
// the one place commands reach it, as with-services.ts is for everything else.
import { copyFileSync, chmodSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseKeyFile, writeKeyFile } from '../lib/key-ring.js';
import { loadConfig } from '../config.js';
import { dialectOf, sqlitePath } from '../storage/database.js';
import { backupSqlite, BackupError, restoreSqlite, type BackupResult } from '../storage/sqlite-backup.js';
import { CliError } from './cli-error.js';

/** The embedded database's file; PostgreSQL has its own tools. */
function embeddedDatabase(): string {
  const { databaseUrl } = loadConfig();
  if (dialectOf(databaseUrl) === 'postgres') {
    throw new CliError('DATABASE_URL is PostgreSQL: back it up with pg_dump and restore with pg_restore (see docs/operations.md)');
  }
  const path = sqlitePath(databaseUrl);
  if (path === ':memory:') throw new CliError('DATABASE_URL is an in-memory database: there is nothing to back up');
  return resolve(path);
}

/** Runs a backup step, reporting a BackupError as the one line the operator needs. */
function reported<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message);
    throw error;
  }
}

/** Where a backup's copy of the payee key file goes: beside it, named after it. */
export const payeeKeyBackupOf = (backup: string): string => `${backup}.payee.key`;

export function backupEmbeddedDatabase(target: string): BackupResult & { database: string; payeeKey: { copiedTo?: string; warning?: string } } {
  const database = embeddedDatabase();
  const result = reported(() => backupSqlite(database, target));
  return { database, ...result, payeeKey: copyPayeeKey(target) };
}

/** Copies the payee key file beside the backup (readable by its owner only), or says why the operator must keep the keys themselves. */
function copyPayeeKey(target: string): { copiedTo?: string; warning?: string } {
  const { payeeKeyFile, payeeEncryptionKey } = loadConfig();
  const fromVariable = payeeEncryptionKey ? 'the current payee key is in PAYEE_ENCRYPTION_KEY (older ones in PAYEE_ENCRYPTION_OLD_KEYS): keep them with this backup, as its payee details cannot be read without them' : undefined;
  if (payeeKeyFile && existsSync(payeeKeyFile)) {
    const copy = payeeKeyBackupOf(target);
    copyFileSync(payeeKeyFile, copy);
    chmodSync(copy, 0o600);
    return { copiedTo: copy, ...(fromVariable && { warning: fromVariable }) };
  }
  return { warning: fromVariable ?? `there is no payee key file${payeeKeyFile ? ` at ${payeeKeyFile}` : ''} to copy: if payee details were saved, keep the key they were encrypted with beside this backup, or they cannot be read` };
}

export function restoreEmbeddedDatabase(backup: string): { database: string; replaced: string | null; payeeKeysAdded: number } {
  const database = embeddedDatabase();
  const restored = reported(() => restoreSqlite(backup, database, new Date()));
  return { database, ...restored, payeeKeysAdded: restorePayeeKeys(backup) };
}

/**
 * Adds the keys of the backup's payee key file (if any) to the key file in use, after its own, so
 * the restored rows can be read whatever key is current now; none is ever removed.
 */
function restorePayeeKeys(backup: string): number {
  const saved = payeeKeyBackupOf(backup);
  const { payeeKeyFile } = loadConfig();
  if (!payeeKeyFile || !existsSync(saved)) return 0;
  const lines = (path: string) => readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const current = existsSync(payeeKeyFile) ? lines(payeeKeyFile) : [];
  const known = new Set(current.length > 0 ? parseKeyFile(current.join('\n'), payeeKeyFile).map((k) => k.id) : []);
  const added = lines(saved).filter((line) => !known.has(parseKeyFile(line, saved)[0]!.id));
  if (added.length > 0) writeKeyFile(payeeKeyFile, [...current, ...added]);
  return added.length;
}
