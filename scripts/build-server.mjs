// Builds the production server: the CLI and its two storage workers bundled by esbuild into
// dist/server (main.js, click-writer-worker.js, read-worker.js and the chunks they share).
// One file to load instead of a few hundred modules halves the time to the first answer; type
// checking is `npm run typecheck`'s job, not the build's.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist/server';
rmSync(outdir, { recursive: true, force: true });

await build({
  // The workers are started by file name, beside the module that starts them (src/storage/worker-rpc.ts).
  entryPoints: ['src/cli/main.ts', 'src/storage/click-writer-worker.ts', 'src/storage/read-worker.ts'],
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
  ],
  // Bundled CommonJS packages require Node's built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
});
