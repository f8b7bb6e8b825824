// The portal's first load stays small: the JavaScript the HTML shell loads (its entry module and
// what that preloads), gzipped, must be at most 150 KB. Run after the build; prints the figure.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const LIMIT_BYTES = 150 * 1024;
const dir = 'dist/portal';
const html = readFileSync(join(dir, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/app\/([^"]+\.js)"/g)].map((m) => m[1]);
if (scripts.length === 0) throw new Error('no script found in dist/portal/index.html');
const bytes = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(dir, file))).length, 0);
const kb = (bytes / 1024).toFixed(1);
if (bytes > LIMIT_BYTES) {
  console.error(`Portal: initial JavaScript is ${kb} KB gzipped, over the 150 KB budget (${scripts.join(', ')})`);
  process.exit(1);
}
console.log(`Portal: initial JavaScript ${kb} KB gzipped (budget 150 KB)`);
