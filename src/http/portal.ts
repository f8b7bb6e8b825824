// The portal: a single-page app built by Vite into dist/portal (npm run build), served at /app by
// the service itself. Hashed assets are cached for a year (a new build has new names); the HTML
// shell is never cached, so a deploy is picked up on the next load. Every path under /app that is
// not a file is the shell: the app routes in the browser. The static file server loads on the
// first request for the portal (lazy-instance.ts), not in every start.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { App } from './context.js';
import { errorBody, handleError } from './errors.js';
import { servedLazily } from './lazy-instance.js';

export const PORTAL_PATH = '/app';
/** Pages, not API operations: left out of the OpenAPI document. */
const HIDDEN = { schema: { hide: true } };

/** The built portal: dist/portal, whether this file runs from src/ (tests) or dist/server/ (npm start, bundled). */
function builtPortal(): string | undefined {
  const candidates = ['../../dist/portal', '../../portal'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
  // The built shell names hashed assets; portal/index.html (the source) names /src/main.tsx.
  return candidates.find((dir) => existsSync(`${dir}/index.html`) && existsSync(`${dir}/assets`));
}

export function registerPortal(app: App): void {
  const root = builtPortal();
  if (!root) {
    const notBuilt = errorBody(503, 'portal_not_built', 'The portal is not built: run npm run build (npm ci does it)');
    app.get(PORTAL_PATH, HIDDEN, async (_request, reply) => reply.status(503).send(notBuilt));
    app.get(`${PORTAL_PATH}/*`, HIDDEN, async (_request, reply) => reply.status(503).send(notBuilt));
    return;
  }
  const serve = servedLazily(() => portalFiles(root));
  app.get(PORTAL_PATH, HIDDEN, serve);
  app.get(`${PORTAL_PATH}/*`, HIDDEN, serve);
}

/** The built files, each under its own path, and the shell for every other path under /app. */
async function portalFiles(root: string): Promise<FastifyInstance> {
  const { default: staticFiles } = await import('@fastify/static');
  const files = Fastify({ logger: false });
  files.setErrorHandler(handleError);
  await files.register(staticFiles, {
    root,
    prefix: `${PORTAL_PATH}/`,
    wildcard: false,
    index: false,
    setHeaders(reply, path) {
      void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const shell = async (_request: FastifyRequest, reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html');
  files.get(PORTAL_PATH, shell);
  files.get(`${PORTAL_PATH}/*`, shell);
  await files.ready();
  return files;
}
