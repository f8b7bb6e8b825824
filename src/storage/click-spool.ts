// Clicks the database could not take, kept in files while it is away, so the memory they wait in
// stays bounded however long an outage lasts (ClickRecorder moves its unwritten clicks here past
// CLICK_BUFFER_MB and takes them back once writes succeed again). One file per move, written
// under a temporary name and renamed, so a file is either whole or absent; a file is claimed by
// renaming it before it is read, so two processes sharing the directory never take the same one.
// The files hold each click's client address until it is written (the writer finds the country
// from it and keeps neither); they are readable by this user only, and deleted when taken.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClickWrite } from './click-enrichment.js';

const SUFFIX = '.clicks.ndjson';

export class ClickSpool {
  private sequence = 0;
  /** Files known to wait here (those of earlier processes are found when the spool opens). */
  private waiting: number;

  /** Nothing is created until clicks need it: a service that never overflows needs no writable directory. */
  constructor(private readonly dir: string) {
    this.waiting = existsSync(dir) ? this.files().length : 0;
  }

  /** Whether any file waits to be taken. */
  get holds(): boolean {
    return this.waiting > 0;
  }

  /** Keeps `writes` in a file of their own. */
  put(writes: readonly ClickWrite[]): void {
    if (writes.length === 0) return;
    // Names sort by time, so the oldest clicks are taken back first.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const name = `${Date.now().toString().padStart(15, '0')}-${process.pid}-${this.sequence++}${SUFFIX}`;
    const partial = join(this.dir, `.${name}.partial`);
    writeFileSync(partial, writes.map((w) => JSON.stringify(w)).join('\n') + '\n', { mode: 0o600 });
    renameSync(partial, join(this.dir, name));
    this.waiting++;
  }

  /** The clicks of the oldest file, which is deleted; undefined when none waits. */
  take(): ClickWrite[] | undefined {
    for (const name of this.files()) {
      const claimed = join(this.dir, `.${name}.${process.pid}.taken`);
      try {
        renameSync(join(this.dir, name), claimed);
      } catch {
        continue; // another process took it first
      }
      const text = readFileSync(claimed, 'utf8');
      unlinkSync(claimed);
      this.waiting = this.files().length;
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ClickWrite);
    }
    this.waiting = 0;
    return undefined;
  }

  private files(): string[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith(SUFFIX) && !name.startsWith('.'))
      .sort();
  }
}
