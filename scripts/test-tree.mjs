// The tree the whole suite runs from: a copy of the project in which every TypeScript file of
// src, test, packages, bench and portal has its JavaScript beside it, transpiled once by esbuild,
// and every other file and folder is a link to the original. Each test file then starts on plain Node: through
// tsx, each of the suite's few hundred test processes (and each storage worker they start)
// transpiled and resolved the same few hundred modules again through a loader thread, about half
// of a test file's start. Stack traces still name the TypeScript lines (source maps).
//
// The test files themselves, and the storage and parsing workers, also run bundled (with the
// packages they use, in chunks they share): loading some hundred modules one by one was most of
// a test process's start (1.6 s of wall time against 0.9 for a file that starts the service).
// Inside the bundles, each module's import.meta.url still names its own file in the tree, so the
// files it reads beside itself, the child scripts it starts and the packages it resolves are
// found where they were.
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The folders whose TypeScript the tests load (the soak test the bench's, some the portal's messages). */
const TRANSPILED = ['src', 'test', 'packages', 'bench', 'portal'];

const isTypeScript = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');

/** The workers the service starts by file name, beside the module that starts them (src/lib/worker-start.ts). */
const WORKERS = ['src/storage/click-writer-worker.ts', 'src/storage/read-worker.ts', 'src/domain/feeds/feed-worker.ts', 'src/domain/reconciliation/reconciliation-worker.ts'];

/** Where the bundles go, inside the tree (so that the packages left out resolve from its node_modules). */
const BUNDLED = '.bundled';

/**
 * The service's packages loaded from node_modules rather than bundled, as in the production build
 * (scripts/build-server.mjs): a native addon, packages that read files of their own package
 * directory, and the ones the service loads only when configured. The tests' own tools (the
 * development dependencies) are not bundled either: several read files beside their modules.
 */
const UNBUNDLED_PACKAGES = ['better-sqlite3', 'pg', 'ioredis', '@fastify/swagger-ui', 'pdfkit'];

/**
 * Makes the tree in `out` (an empty folder) from the project at `root`, with `testFiles` bundled;
 * answers the path in it of each project file given (a test file's bundle for a test file).
 */
export async function buildTestTree(root, out, testFiles) {
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
  const treePath = (file) => join(out, relative(root, resolve(root, file))).replace(/\.ts$/, '.js');
  const bundledPath = (file) => join(out, BUNDLED, relative(root, resolve(root, file))).replace(/\.ts$/, '.js');
  const tests = new Set(testFiles.map((file) => resolve(root, file)));
  await bundle(root, out, [...tests, ...WORKERS.map((file) => resolve(root, file))], treePath, bundledPath);
  return (file) => (tests.has(resolve(root, file)) ? bundledPath(file) : treePath(file));
}

/** Bundles `entryPoints` into the tree's BUNDLED folder, keeping their paths. */
async function bundle(root, out, entryPoints, treePath, bundledPath) {
  const ownSource = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(${TRANSPILED.join('|')})/.*\\.ts$`);
  const metaUrlOfTree = {
    name: 'import-meta-url-of-tree',
    setup(onBuild) {
      onBuild.onLoad({ filter: ownSource }, ({ path }) => {
        const source = readFileSync(path, 'utf8');
        // A module that starts a worker beside it starts the bundled one; any other names its file in the tree.
        const own = source.includes('startWorkerBeside(import.meta.url') ? bundledPath(path) : treePath(path);
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(own).href)), loader: 'ts' };
      });
    },
  };
  await build({
    entryPoints,
    outdir: join(out, BUNDLED),
    outbase: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...UNBUNDLED_PACKAGES, ...Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies)],
    // The maps without the sources they map: Node reads every map of a loaded bundle at its start.
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [metaUrlOfTree],
    // Bundled CommonJS packages require Node's built-ins; an ES module has no `require` of its own.
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    logLevel: 'warning',
  });
}
