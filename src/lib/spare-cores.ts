// How much of the machine the rest of this process leaves unused: the process's CPU time (every
// thread) less what the calling thread says it spent working, over the wall time since the last
// reading, against the cores this process may run on (its CPU affinity). Background work sizes
// its share by it, so it takes what is spare and yields when the serving thread needs the cores.
// Other processes are not seen: with `serve --workers`, or a database on the same machine, a
// core this process finds spare may be busy with them.
import { availableParallelism } from 'node:os';

export interface SpareCoresSources {
  cores: number;
  /** The process's CPU time so far, in µs (every thread). */
  cpuMicros: () => number;
  nowMs: () => number;
}

const processSources = (): SpareCoresSources => ({
  cores: availableParallelism(),
  cpuMicros: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  nowMs: () => performance.now(),
});

export class SpareCores {
  private lastCpu: number;
  private lastAt: number;
  private ownMs = 0;

  constructor(private readonly sources: SpareCoresSources = processSources()) {
    this.lastCpu = sources.cpuMicros();
    this.lastAt = sources.nowMs();
  }

  /** Counts time the calling thread spent working, so it is not taken for another thread's. */
  worked(ms: number): void {
    this.ownMs += ms;
  }

  /** Cores the other threads left unused since the last reading (0 to `cores`). */
  read(): number {
    const cpu = this.sources.cpuMicros();
    const at = this.sources.nowMs();
    const wallMs = at - this.lastAt;
    const othersMs = (cpu - this.lastCpu) / 1000 - this.ownMs;
    this.lastCpu = cpu;
    this.lastAt = at;
    this.ownMs = 0;
    if (wallMs <= 0) return this.sources.cores;
    return Math.min(this.sources.cores, Math.max(0, this.sources.cores - Math.max(0, othersMs) / wallMs));
  }
}
