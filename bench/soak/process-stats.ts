// What the kernel says a server process holds right now: resident memory (VmRSS, worker threads
// included, as they share the process) and open file descriptors (sockets, database files, pipes).
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessStats {
  /** Resident set size in MB. */
  rssMb: number;
  /** Of which anonymous memory (JavaScript heaps, native allocations) and mapped files (code, SQLite's shared memory), MB. */
  rssAnonMb: number;
  rssFileMb: number;
  /** Open file descriptors. */
  fds: number;
}

export function processStats(pid: number): ProcessStats {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => Math.round((Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024) * 10) / 10;
  return { rssMb: mb('VmRSS'), rssAnonMb: mb('RssAnon'), rssFileMb: mb('RssFile'), fds: readdirSync(`/proc/${pid}/fd`).length };
}

/** Growth from `before` to `after` in percent (one decimal). */
export const growthPercent = (before: number, after: number): number => Math.round(((after - before) / before) * 1000) / 10;
