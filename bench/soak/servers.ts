// `affnet serve` as a child process, as an operator runs it: from the compiled build when it is
// there and not older than the sources (npm ci and npm run soak build it), otherwise from the
// sources through tsx. Stopped with SIGTERM, so its graceful shutdown writes the buffered clicks.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/helpers/processes.js';
import { BUILT_MAIN, builtIsCurrent } from '../../test/helpers/built-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_MAIN = join(ROOT, 'src/cli/main.ts');

/**
 * How the server is started: the built entry point, or the sources when the build is missing or
 * (unless `build` is insisted on, by a caller that has just built it) older than the sources.
 */
export function serverLaunch(prefer: 'build' | 'newest' = 'newest'): { args: string[]; from: 'build' | 'sources' } {
  if (prefer === 'build' ? existsSync(BUILT_MAIN) : builtIsCurrent()) return { args: [BUILT_MAIN, 'serve'], from: 'build' };
  return { args: ['--import', 'tsx', SOURCE_MAIN, 'serve'], from: 'sources' };
}

export interface OutputLine {
  /** Milliseconds since the server was spawned. */
  atMs: number;
  text: string;
}

export interface ServerProcess {
  url: string;
  pid: number;
  startedAt: number;
  /** Every line the server printed (stdout and stderr). */
  lines: OutputLine[];
  /** SIGTERM, then waits for the exit (SIGKILL after `patienceMs`, reported as the signal). */
  stop(patienceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; tookMs: number }>;
}

function collectLines(child: ChildProcess, startedAt: number, lines: OutputLine[]): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) if (text.trim()) lines.push({ atMs: Date.now() - startedAt, text });
    });
  }
}

export async function startServer(env: Record<string, string>, launch = serverLaunch()): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startedAt = Date.now();
  const child = spawn(process.execPath, launch.args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: OutputLine[] = [];
  collectLines(child, startedAt, lines);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = () => child.exitCode === null && child.signalCode === null;
  const printed = () => lines.map((l) => l.text).join('\n');

  for (const deadline = Date.now() + 60_000; ; ) {
    if (!running()) throw new Error(`the server exited before answering (${child.exitCode ?? child.signalCode}):\n${printed()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /healthz within 60 s:\n${printed()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    pid: child.pid!,
    startedAt,
    lines,
    async stop(patienceMs = 60_000) {
      const asked = Date.now();
      if (running()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), patienceMs);
      const result = await exited;
      clearTimeout(timer);
      return { ...result, tookMs: Date.now() - asked };
    },
  };
}
