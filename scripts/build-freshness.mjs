// Whether a build output is missing or older than its sources: one walk shared by `npm start`'s
// build-if-needed step and the tests that run the built command.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time of any file under `dir`. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when `built` is missing or older than some file under `sources`. */
export function isStale(built, sources) {
  return !existsSync(built) || statSync(built).mtimeMs < newestMtime(sources);
}
