// What an operator watching the servers during a phase would see: each process's memory and file
// descriptors over time, /readyz once a second (recorded when its answer changes), and the log
// lines the servers wrote, grouped by message.
import type { ServerProcess } from './servers.js';
import { processStats, type ProcessStats } from './process-stats.js';

export interface StatsSample extends ProcessStats {
  atMs: number;
}

export interface ReadinessChange {
  atMs: number;
  /** 200 ready, 503 with the body's code, or the error when /readyz did not answer. */
  state: string;
}

export interface LogGroup {
  level: string;
  message: string;
  count: number;
  firstAtMs: number;
  lastAtMs: number;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

export class ServerMonitor {
  readonly samples: StatsSample[] = [];
  readonly readiness: ReadinessChange[] = [];
  private timers: NodeJS.Timeout[] = [];
  private lastState: string | undefined;
  private probing = false;

  constructor(
    private readonly server: ServerProcess,
    private readonly epoch: number,
    private readonly sampleEveryMs = 5000,
  ) {}

  start(): void {
    this.sample();
    this.timers.push(setInterval(() => this.sample(), this.sampleEveryMs), setInterval(() => void this.probe(), 1000));
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Takes a sample now (also kept in the timeline). */
  sample(): StatsSample {
    const sample = { atMs: Date.now() - this.epoch, ...processStats(this.server.pid) };
    this.samples.push(sample);
    return sample;
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    let state: string;
    try {
      const res = await fetch(`${this.server.url}/readyz`, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json()) as { code?: string };
      state = res.status === 200 ? '200 ready' : `${res.status} ${body.code ?? ''}`.trim();
    } catch (error) {
      state = `no answer (${(error as Error).name})`;
    } finally {
      this.probing = false;
    }
    if (state !== this.lastState) this.readiness.push({ atMs: Date.now() - this.epoch, state });
    this.lastState = state;
  }

  /** The server's log lines, with their time since the epoch and their level and message. */
  logEntries(): LogEntry[] {
    const offset = this.server.startedAt - this.epoch;
    return this.server.lines.map((line) => ({ atMs: line.atMs + offset, ...parseLine(line.text) }));
  }

  /** The server's log lines, grouped by level and message. */
  logGroups(): LogGroup[] {
    const groups = new Map<string, LogGroup>();
    for (const { atMs, level, message } of this.logEntries()) {
      const key = `${level} ${message}`;
      const group = groups.get(key);
      if (group) {
        group.count++;
        group.lastAtMs = atMs;
      } else groups.set(key, { level, message, count: 1, firstAtMs: atMs, lastAtMs: atMs });
    }
    return [...groups.values()].sort((a, b) => a.firstAtMs - b.firstAtMs);
  }
}

export interface LogEntry {
  atMs: number;
  /** pino's level name, or "output" for a line that is not pino's. */
  level: string;
  message: string;
}

function parseLine(text: string): Omit<LogEntry, 'atMs'> {
  try {
    const entry = JSON.parse(text) as { level?: number; msg?: string; err?: { message?: string } };
    return { level: LEVELS[entry.level ?? 0] ?? String(entry.level), message: [entry.msg, entry.err?.message].filter(Boolean).join(': ') };
  } catch {
    return { level: 'output', message: text };
  }
}
