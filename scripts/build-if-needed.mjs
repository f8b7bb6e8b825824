// Builds once when dist/ is missing or older than the sources, so `npm start` serves compiled
// JavaScript without type-checking or transpiling on every start.
import { execSync } from 'node:child_process';
import { isStale } from './build-freshness.mjs';

if (isStale('dist/server/main.js', 'src') || isStale('dist/portal/index.html', 'portal/src')) {
  console.error('Building (dist/ is missing or older than src/ or portal/src/)...');
  execSync('npm run build', { stdio: 'inherit' });
}
