// The checks `npm test` runs beside the suite: the type check with the lint (one process, one
// program: scripts/typecheck-and-lint.mjs), the generated SQL and the typed client, at the same
// time (each runs on one core), each one's output printed whole once it has ended, in this order.
// Exits 1 when any failed, naming it.
import { collectedOutput } from './collected-output.mjs';

const CHECKS = ['typecheck-and-lint', 'sql:check', 'client:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const results = await Promise.all(CHECKS.map(async (script) => ({ script, ...(await collectedOutput(npm, ['run', '--silent', script])) })));
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
