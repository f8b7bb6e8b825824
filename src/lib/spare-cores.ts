// How much of the machine the rest of this process leaves unused: the process's CPU time (every
// thread) less the calling thread's own, over the wall time since the last reading, against the
// cores this process may run on (its CPU affinity). Background work sizes its share by it, so it
// takes what is spare and yields when the serving thread needs the cores.
// The calling thread's own CPU time is read from Linux (/proc/thread-self/stat). Elsewhere the
// thread reports how long it worked, which over-counts on a shared core: elapsed time includes
// the waits for the core, so a busy serving thread would look like spare cores.
// Other processes are not seen: with `serve --workers`, or a database on the same machine, a
// core this process finds spare may be busy with them.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface SpareCoresSources {
  cores: number;
  /** The process's CPU time so far, in µs (every thread). */
  cpuMicros: () => number;
  /** The calling thread's own CPU time so far, in µs, where the system tells it. */
  threadCpuMicros?: () => number;
  nowMs: () => number;
}

/** Linux's clock ticks per second for thread times (USER_HZ, 100 on every common build). */
const TICK_MICROS = 10_000;

/** The calling thread's user + system time from /proc/thread-self/stat, in µs. */
function linuxThreadCpuMicros(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'latin1');
  // Fields after the command name (which may hold spaces, but ends at the last ')'): utime and
  // stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
}

/** The thread's own CPU time source, or undefined where /proc/thread-self cannot be read. */
function threadCpuSource(): (() => number) | undefined {
  try {
    return Number.isFinite(linuxThreadCpuMicros()) ? linuxThreadCpuMicros : undefined;
  } catch {
    return undefined;
  }
}

const processSources = (): SpareCoresSources => ({
  cores: availableParallelism(),
  cpuMicros: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  threadCpuMicros: threadCpuSource(),
  nowMs: () => performance.now(),
});

export class SpareCores {
  private lastCpu: number;
  private lastOwnCpu: number;
  private lastAt: number;
  private ownMs = 0;

  constructor(private readonly sources: SpareCoresSources = processSources()) {
    this.lastCpu = sources.cpuMicros();
    this.lastOwnCpu = sources.threadCpuMicros?.() ?? 0;
    this.lastAt = sources.nowMs();
  }

  /**
   * Counts time the calling thread spent working, so it is not taken for another thread's; used
   * only where the thread's own CPU time cannot be read.
   */
  worked(ms: number): void {
    this.ownMs += ms;
  }

  /** Cores the other threads left unused since the last reading (0 to `cores`). */
  read(): number {
    const cpu = this.sources.cpuMicros();
    const ownCpu = this.sources.threadCpuMicros?.();
    const at = this.sources.nowMs();
    const wallMs = at - this.lastAt;
    const ownMs = ownCpu === undefined ? this.ownMs : (ownCpu - this.lastOwnCpu) / 1000;
    const othersMs = (cpu - this.lastCpu) / 1000 - ownMs;
    this.lastCpu = cpu;
    this.lastOwnCpu = ownCpu ?? 0;
    this.lastAt = at;
    this.ownMs = 0;
    if (wallMs <= 0) return this.sources.cores;
    return Math.min(this.sources.cores, Math.max(0, this.sources.cores - Math.max(0, othersMs) / wallMs));
  }
}
