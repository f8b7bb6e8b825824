// The headers a browser-facing service is expected to send, from helmet and @fastify/cors, and
// who may cache what:
// - every answer but a redirect: nosniff, no framing (CSP frame-ancestors 'none' and
//   X-Frame-Options DENY), images only from itself, data: or https addresses (CSP img-src), Referrer-Policy no-referrer, HSTS when PUBLIC_URL is https. Redirects
//   (answered by the redirect front, and by the Fastify route behind it) carry none of them: the
//   referrer a visitor brings is the brand's to see;
// - catalogue reads (brands, products, campaigns) may be kept by the client for 60 s (a key has
//   60 requests a minute), product feeds until their day ends (their own header); every other authenticated answer, errors included, no-store; the
//   reference page's static files a day;
// - CORS only for the origins CORS_ORIGINS names (none by default): an API key is a secret, and a
//   page on another origin that holds one has already leaked it. The shop's pages are the
//   exception: the tag (/tag.js) and its reports (/track/*) answer any origin, without
//   credentials, and may be loaded cross-origin (Cross-Origin-Resource-Policy); the publishable
//   key they carry is checked against its brand's domains by the route itself. So is the link
//   script (/links.js); its calls (/links/*) answer CORS for the sites allowed for the link key
//   they carry only, which the routes themselves set once the key said which.
import helmet from 'helmet';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import type { App } from '../context.js';
import { FEED_PATHS } from '../feed-key.js';

/** The tag and its reports, and the link script: loaded and called by the members' own pages. */
const forShopPages = (url: string): boolean => url.startsWith('/track/') || /^\/(tag|links)\.js(\?|$)/.test(url);
/** The link script's calls: CORS for the link key's sites only, set by their routes. */
const forLinkScript = (url: string): boolean => url.startsWith('/links/');

const CATALOGUE_READS = new Set(['/affiliate/brands', '/affiliate/brands/:id', '/affiliate/products', '/affiliate/campaigns']);
const AUTHENTICATED = /^\/(affiliate|advertiser|postback|session)(\/|$)/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route's answers carry none of helmet's headers (the redirects). */
    securityHeaders?: false;
  }
}

export async function registerSecurityHeaders(app: App, options: { publicUrl: string; corsOrigins: readonly string[] }): Promise<void> {
  const https = options.publicUrl.startsWith('https:');
  // Made once: Fastify's helmet plugin made the same middleware again for every request (about
  // 80 µs of the serving thread each, a tenth of a list's answer).
  const headers = helmet({
    // Images also from any https address: the portal previews the banners a brand gives its campaigns.
    contentSecurityPolicy: { directives: { frameAncestors: ["'none'"], imgSrc: ["'self'", 'data:', 'https:'], upgradeInsecureRequests: https ? [] : null } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders === false) done();
    // helmet throws what it refuses rather than pass it on: its callback is only ever called empty.
    else headers(request.raw, reply.raw, () => done());
  });
  const apiCors: FastifyCorsOptions = {
    origin: options.corsOrigins.length > 0 ? [...options.corsOrigins] : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['x-api-key', 'content-type'],
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-total-count', 'content-disposition'],
    maxAge: 600,
  };
  const pageCors: FastifyCorsOptions = { origin: true, credentials: false, methods: ['GET', 'POST'], allowedHeaders: ['content-type'], maxAge: 86_400 };
  await app.register(cors, () => (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) => callback(null, forShopPages(request.url) ? pageCors : forLinkScript(request.url) ? { origin: false } : apiCors));
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url ?? '';
    if (forShopPages(request.url) || forLinkScript(request.url)) reply.header('cross-origin-resource-policy', 'cross-origin');
    if (url.startsWith('/docs/static/')) reply.header('cache-control', 'public, max-age=86400');
    else if (FEED_PATHS.has(url) && (reply.statusCode === 200 || reply.statusCode === 304)) return payload;
    else if (AUTHENTICATED.test(request.url)) {
      const catalogue = request.method === 'GET' && reply.statusCode === 200 && CATALOGUE_READS.has(url);
      reply.header('cache-control', catalogue ? 'private, max-age=60' : 'no-store');
    }
    return payload;
  });
}
