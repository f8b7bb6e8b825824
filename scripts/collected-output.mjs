// A command run with its output kept rather than printed, for runs whose lines must not mix with
// others': answers its exit code and everything it wrote, stdout and stderr in the order they came.
import { spawn } from 'node:child_process';

export function collectedOutput(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(output) }));
  });
}
