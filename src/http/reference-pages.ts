// The interactive API reference at /docs (Swagger UI), built on its first visit: its package loads
// its own copies of a static file server and a YAML writer, a tenth of the service's start, and
// most starts serve no page of it. The pages are served by a small Fastify instance of their own,
// made then (lazy-instance.ts), with the same security headers; the OpenAPI document stays the service's.
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { App } from './context.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { servedLazily } from './lazy-instance.js';

/** The product's wordmark, shown in the reference's header. */
export interface ReferenceOptions {
  publicUrl: string;
  corsOrigins: readonly string[];
  wordmark: string;
}

export function registerReferencePages(app: App, options: ReferenceOptions): void {
  const serve = servedLazily(() => referenceInstance(app, options));
  const hidden = { schema: { hide: true } };
  app.get('/docs', hidden, serve);
  app.get('/docs/*', hidden, serve);
}

async function referenceInstance(app: App, options: ReferenceOptions): Promise<FastifyInstance> {
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  const pages = Fastify({ logger: false });
  await registerSecurityHeaders(pages, { publicUrl: options.publicUrl, corsOrigins: options.corsOrigins });
  // Swagger UI reads the document through the decorator @fastify/swagger would add: the service's own.
  await pages.register(
    fastifyPlugin(async (instance) => void instance.decorate('swagger', ((opts?: { yaml?: boolean }) => app.swagger(opts as { yaml: true })) as never), { name: '@fastify/swagger' }),
  );
  await pages.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The product's own name in the header, leading back to the portal.
    logo: { type: 'image/svg+xml', content: options.wordmark, href: '/app/', target: '_self' },
    theme: { title: 'affnet API reference' },
  });
  await pages.ready();
  return pages;
}
