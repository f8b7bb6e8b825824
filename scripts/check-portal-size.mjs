// The portal's first load stays small: the JavaScript a first page needs (the entry module, what it
// imports, the largest side's pages, which load once a person signs in, and the larger of the two
// language catalogues, which is fetched before the first page is drawn), gzipped, must be at most
// 150 KB. Run after the build; prints the figure.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const LIMIT_BYTES = 150 * 1024;
const dir = 'dist/portal';
const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8'));
const gzipped = (file) => gzipSync(readFileSync(join(dir, file))).length;

const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
if (!entry) throw new Error('no entry in dist/portal/.vite/manifest.json');
const initial = new Set();
const visit = (chunk) => {
  if (initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const name of chunk.imports ?? []) visit(manifest[name]);
};
visit(entry);
// Each side's pages (an affiliate's, a brand's, the operator's) with what they import beyond the entry's.
const sideBytes = Object.keys(manifest)
  .filter((name) => name.startsWith('src/routes/'))
  .map((name) => {
    const files = new Set();
    const walk = (chunk) => {
      if (initial.has(chunk.file) || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) walk(manifest[imported]);
    };
    walk(manifest[name]);
    return [...files].reduce((sum, file) => sum + gzipped(file), 0);
  });
if (sideBytes.length === 0) throw new Error('no side\'s pages among the built chunks');
const catalogues = Object.keys(manifest).filter((name) => name.startsWith('src/i18n/') && manifest[name].isDynamicEntry).map((name) => manifest[name].file);
if (catalogues.length === 0) throw new Error('no language catalogue among the built chunks');
const largestCatalogue = Math.max(...catalogues.map(gzipped));
const bytes = [...initial].reduce((sum, file) => sum + gzipped(file), 0) + Math.max(...sideBytes) + largestCatalogue;
const kb = (bytes / 1024).toFixed(1);
if (bytes > LIMIT_BYTES) {
  console.error(`Portal: initial JavaScript is ${kb} KB gzipped, over the 150 KB budget (${[...initial].join(', ')} and a catalogue)`);
  process.exit(1);
}
console.log(`Portal: initial JavaScript ${kb} KB gzipped, the largest side's pages and one language's messages included (budget 150 KB)`);
