// The checks `npm test` runs beside the suite: the type check, the lint, the generated SQL and the
// typed client, at the same time (each runs on one core), each one's output printed whole once it
// has ended, in this order. Exits 1 when any failed, naming it.
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'sql:check', 'client:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output: Buffer.concat(output) }));
  });
}

const results = await Promise.all(CHECKS.map(run));
const failed = [];
for (const { script, code, output } of results) {
  process.stdout.write(`\n# ${script}: ${code === 0 ? 'passed' : 'FAILED'}\n`);
  process.stdout.write(output);
  if (code !== 0) failed.push(script);
}
if (failed.length > 0) {
  console.log(`\n# checks failed: ${failed.join(', ')}`);
  process.exit(1);
}
