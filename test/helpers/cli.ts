// Runs the affnet command line as an operator would, against a database of the test's choosing.
import { spawn } from 'node:child_process';
import { BUILT_MAIN, ensureBuilt } from './built-cli.js';
import { TEST_PASSWORDS } from './databases.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  ensureBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_MAIN, ...args], {
      env: { ...process.env, ...TEST_PASSWORDS, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
