// Real server processes for the multi-instance and outage tests: each `affnet serve` on its own
// port, stopped at the end of the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from './api.js';
import { BUILT_MAIN, ensureBuilt } from './built-cli.js';
import { FRAUD_RULES_OFF } from './harness.js';
import { TEST_PASSWORDS } from './databases.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * Starts `affnet serve` with `env` on a free port; `cwd` is where its default database goes
 * (data/), `args` what follows `serve` (`--workers 2`).
 */
export async function startServerProcess(env: Record<string, string>, options: { cwd?: string; publicUrlIsOwn?: boolean; args?: string[]; host?: 'localhost' } = {}): Promise<ServerProcess> {
  const port = await freePort();
  // The address browsers are sent to: localhost where a test needs a domain name (passkeys have no IP address for a relying party).
  const ownUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  // A browser test needs short links and the portal's origin check to name this very server.
  if (options.publicUrlIsOwn) env = { ...env, PUBLIC_URL: ownUrl };
  // Mail written to the outbox goes to a folder of the test's (with PostgreSQL the default is data/outbox where the test runs).
  if (!options.cwd && env.MAIL_OUTBOX_DIR === undefined) env = { ...env, MAIL_OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'affnet-outbox-')) };
  ensureBuilt();
  const child = spawn(process.execPath, [BUILT_MAIN, 'serve', ...(options.args ?? [])], {
    ...(options.cwd && { cwd: options.cwd }),
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...FRAUD_RULES_OFF, ...TEST_PASSWORDS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  // Generous: a machine busy with both test runs may take long to start a server; a failure to
  // start shows at once as an early exit.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await sleep(100);
  }
  return {
    url: ownUrl,
    child,
    output: () => output,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });
    },
  };
}
