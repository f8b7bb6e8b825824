// The affnet command as operators run it: the built bundle (dist/server/main.js), which starts in
// a fraction of the time the TypeScript sources take through tsx; tests start it hundreds of
// times. Built from the current sources first when it is missing or older than they are (the
// whole suite builds it once before its files run, so they never build at the same time).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from '../../scripts/build-freshness.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The built command's entry point, absolute (so it runs from any directory). */
export const BUILT_MAIN = join(ROOT, 'dist/server/main.js');

/** Whether the built command exists and is not older than any source file. */
export function builtIsCurrent(): boolean {
  return !isStale(BUILT_MAIN, join(ROOT, 'src'));
}

let checked = false;

/** Builds the command from the current sources unless that was done already; checked once per process. */
export function ensureBuilt(): void {
  if (checked) return;
  if (!builtIsCurrent()) execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
  checked = true;
}
