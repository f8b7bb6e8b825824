// Builds once when dist/ is missing or older than the sources, so `npm start` serves compiled
// JavaScript without type-checking or transpiling on every start.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const entry = 'dist/server/main.js';

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(path) : stat.mtimeMs);
  }
  return newest;
}

const portal = 'dist/portal/index.html';
const stale = (built, sources) => !existsSync(built) || statSync(built).mtimeMs < newestMtime(sources);

if (stale(entry, 'src') || stale(portal, 'portal/src')) {
  console.error('Building (dist/ is missing or older than src/ or portal/src/)...');
  execSync('npm run build', { stdio: 'inherit' });
}
