// Background threads (the click writer and its slow counts, a read worker where there is no click
// writer, V8's garbage-collection helpers, libuv's pool) run at a lower scheduling priority than
// the serving thread. On a core they share, a background thread at the same priority keeps it
// for a whole time slice while requests wait behind it; a lower one is set aside as soon as the
// serving thread has work, and still gets every cycle the serving thread leaves idle. Linux only:
// elsewhere there is no per-thread priority here, and threads are left as they are.
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Linux's weakest priority (the highest nice value). */
const WEAKEST = 19;

let backgroundNice = 0;

/** How much lower than the serving thread background threads run (0: the same priority). */
export function setBackgroundNice(nice: number): void {
  backgroundNice = nice;
}

export function getBackgroundNice(): number {
  return backgroundNice;
}

/**
 * Sets every thread of the process that still runs at the serving (main) thread's priority to
 * `nice` steps below it: those started so far. The serving thread calls it as it starts, and each
 * storage worker as it starts (itself, and what it started, such as a module loader's thread).
 * Threads already lowered are left alone, so calling it again changes nothing.
 */
export function lowerBackgroundThreads(nice: number = backgroundNice): void {
  if (nice <= 0 || process.platform !== 'linux') return;
  const main = getPriority(process.pid);
  const lowered = Math.min(WEAKEST, main + nice);
  for (const entry of readdirSync('/proc/self/task')) {
    const threadId = Number(entry);
    if (threadId === process.pid) continue;
    try {
      // On Linux a thread id names that one thread; lowering a priority needs no privilege.
      if (getPriority(threadId) === main) setPriority(threadId, lowered);
    } catch {
      // The thread ended meanwhile.
    }
  }
}
