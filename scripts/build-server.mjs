// Builds the production server: the CLI, its two storage workers and the parsers of feeds and of
// shops' order exports bundled by esbuild into dist/server (main.js, click-writer-worker.js,
// read-worker.js, feed-worker.js, reconciliation-worker.js and the chunks they share).
// One file to load instead of a few hundred modules halves the time to the first answer; type
// checking is `npm run typecheck`'s job, not the build's.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const outdir = 'dist/server';
rmSync(outdir, { recursive: true, force: true });

await build({
  // The workers are started by file name, beside the module that starts them (src/lib/worker-start.ts).
  entryPoints: ['src/cli/main.ts', 'src/storage/click-writer-worker.ts', 'src/storage/read-worker.ts', 'src/domain/feeds/feed-worker.ts', 'src/domain/reconciliation/reconciliation-worker.ts'],
  entryNames: '[name]',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  external: [
    // A native addon, loaded from node_modules.
    'better-sqlite3',
    // Loaded only when DATABASE_URL or REDIS_URL names them (src/storage).
    'pg',
    'ioredis',
    // Serves its own files from its package directory.
    '@fastify/swagger-ui',
    // Reads its fonts from its package directory; loaded on the first PDF asked for.
    'pdfkit',
  ],
  // Bundled CommonJS packages require Node's built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
});

// esbuild escapes non-ASCII characters in code but keeps some of the bundled packages' comments
// as written, and a single "—" among them makes V8 hold the whole source as a two-byte string:
// 6.9 MB of the serving thread's heap for main.js instead of 3.4. Escaped, the sources are ASCII.
for (const name of readdirSync(outdir).filter((file) => file.endsWith('.js'))) {
  const path = join(outdir, name);
  const source = readFileSync(path, 'utf8');
  // Per UTF-16 unit, as \uXXXX: the same character in a comment, a string or a regular expression.
  const ascii = source.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== source) writeFileSync(path, ascii);
}
