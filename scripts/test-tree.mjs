// The tree the whole suite runs from: a copy of the project in which every TypeScript file of
// src, test, packages, bench and portal has its JavaScript beside it, transpiled once by esbuild,
// and every other file and folder is a link to the original. Each test file then starts on plain Node: through
// tsx, each of the suite's few hundred test processes (and each storage worker they start)
// transpiled and resolved the same few hundred modules again through a loader thread, about half
// of a test file's start. Stack traces still name the TypeScript lines (source maps).
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

/** The folders whose TypeScript the tests load (the soak test the bench's, some the portal's messages). */
const TRANSPILED = ['src', 'test', 'packages', 'bench', 'portal'];

const isTypeScript = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');

/**
 * Makes the tree in `out` (an empty folder) from the project at `root`; answers the path in it of
 * each project file given.
 */
export async function buildTestTree(root, out) {
  const sources = [];
  const mirror = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const target = join(out, relative(root, path));
      if (entry.isDirectory() && entry.name !== 'node_modules') {
        mkdirSync(target);
        mirror(path);
        continue;
      }
      // The TypeScript stays too: tests read sources (the migrations' hash, the error codes).
      symlinkSync(path, target);
      if (isTypeScript(entry.name)) sources.push(path);
    }
  };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(root, entry.name);
    if (TRANSPILED.includes(entry.name) && entry.isDirectory()) {
      mkdirSync(join(out, entry.name));
      mirror(path);
    } else symlinkSync(path, join(out, entry.name));
  }
  await build({
    entryPoints: sources,
    outdir: out,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return (file) => join(out, relative(root, resolve(root, file))).replace(/\.ts$/, '.js');
}
