// Backups of the embedded database, taken and put back by the operator's command line while (for
// a backup) the service keeps serving. A backup is VACUUM INTO: one read transaction, so the copy
// is a consistent snapshot even while clicks and conversions are being written (WAL lets the
// writers go on meanwhile), and compact. A restore needs the database to itself.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import SqliteDriver from 'better-sqlite3';
import { DEFAULT_MIGRATION_TABLE } from 'kysely';

/** A failure the operator can act on; its message says what to do. */
export class BackupError extends Error {}

export interface BackupResult {
  bytes: number;
  milliseconds: number;
}

/** Copies the database at `path` into the new file `target` (written aside, then renamed into place). */
export function backupSqlite(path: string, target: string): BackupResult {
  if (!existsSync(path)) throw new BackupError(`there is no database at ${path}`);
  if (existsSync(target)) throw new BackupError(`${target} exists already: choose a new file name (a backup never overwrites one)`);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const startedAt = performance.now();
  const source = new SqliteDriver(path, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    source.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
  renameSync(partial, target);
  return { bytes: statSync(target).size, milliseconds: Math.round(performance.now() - startedAt) };
}

/**
 * Puts the backup `backup` in place of the database at `path`, keeping the replaced file beside it
 * (`<path>.replaced-<time>`). Refused while any process has the database open (a running service,
 * another command): leaving WAL mode needs every other connection gone, which is how that is seen.
 */
export function restoreSqlite(backup: string, path: string, now: Date): { replaced: string | null } {
  checkBackup(backup);
  let replaced: string | null = null;
  if (existsSync(path)) {
    const current = new SqliteDriver(path, { fileMustExist: true });
    try {
      current.pragma('busy_timeout = 200');
      current.pragma('journal_mode = DELETE'); // checkpoints the WAL into the file, or fails while others have it open
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new BackupError(`the database at ${path} is open in another process (a running service or command): stop every instance using it, then restore`);
      }
      throw error;
    } finally {
      current.close();
    }
    replaced = `${path}.replaced-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(path, replaced);
  }
  for (const leftover of [`${path}-wal`, `${path}-shm`]) rmSync(leftover, { force: true });
  const incoming = `${path}.restoring`;
  const copy = new SqliteDriver(backup, { readonly: true, fileMustExist: true });
  try {
    copy.prepare('VACUUM INTO ?').run(incoming);
  } finally {
    copy.close();
  }
  renameSync(incoming, path);
  return { replaced };
}

/** A backup must be a sound SQLite database of this service. */
function checkBackup(backup: string): void {
  if (!existsSync(backup)) throw new BackupError(`there is no backup at ${backup}`);
  let file: SqliteDriver.Database;
  try {
    file = new SqliteDriver(backup, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupError(`${backup} is not a SQLite database`);
  }
  try {
    const check = file.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${backup} is damaged (${String(check)}): restore another backup`);
    const migrations = file.prepare("select count(*) as n from sqlite_master where type = 'table' and name = ?").get(DEFAULT_MIGRATION_TABLE) as { n: number };
    if (migrations.n === 0) throw new BackupError(`${backup} is a SQLite database but not one of this service (no migrations table)`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${backup} is not a readable SQLite database: ${(error as Error).message}`);
  } finally {
    file.close();
  }
}
