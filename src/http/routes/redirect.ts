// GET /{urlCode} through Fastify: the slow path behind the redirect front (src/http/redirect-front.ts),
// for paths the front does not take (percent-encoded codes) and for lookups that failed there, so
// errors get the service's error handling. Answers exactly as the front does, /{urlCode}/ too.
// Documented here; the front answers the same requests first.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../context.js';
import type { ServingServices } from '../../services.js';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';
import { LINK_NOT_FOUND } from '../redirect-front.js';
import type { CachedTarget } from '../../domain/links/redirect-cache.js';
import { ErrorBody } from '../../schemas/common.js';

const Params = Type.Object({
  code: Type.String({ description: 'The urlCode of the short link: 7 or more base62 characters, case-sensitive' }),
});

const SCHEMA = {
  tags: ['Redirect'],
  summary: 'Follow a short link',
  description:
    'What a visitor opens: PUBLIC_URL/{code} (also PUBLIC_URL/{code}/). Answers 302 to the link\'s destination with a new click id appended as a query parameter ' +
    '(clickId, unless the brand agreed another name), before any #fragment. The visitor\'s own query parameters (utm_source…) are merged in, as sent and in order; ' +
    'a visitor\'s parameter named like one of the link\'s own, mdasc, sub1 … sub5 or the click id parameter (after percent-decoding, ignoring case) is dropped, so those always keep the link\'s values. ' +
    'The visitor\'s sub1, sub2, sub3, sub4 and sub5 (the affiliate\'s own labels, e.g. a tracker\'s ad set and creative; names compared as above) are stored with the click and not passed on: each value percent-decoded, kept when it is 1 to 100 characters with no control or invisible character (Unicode Cc, Cf, Zl, Zp); any other value (longer, with such a character, empty, or broken percent-encoding) is not stored (the click is, without it) and the redirect answers as usual; a name given twice keeps its first value. They go to the order the click earns (the affiliate\'s Order subIds), never to the brand. ' +
    'A product feed\'s link (GET /affiliate/feeds/products.csv) also takes to (a product page, percent-encoded) and sig (its signature): when sig signs to for this code and to is on one of the brand\'s domains, the destination is that page (with the link\'s mdasc), else the link\'s own (the brand\'s home page); to and sig are not passed on. ' +
    'HEAD answers the same and never counts. No API key. Unknown and inactive codes answer 404 link_not_found.',
  security: [],
  params: Params,
  response: {
    302: Type.Null({
      description: 'Redirect to the destination',
      headers: {
        Location: Type.String({
          format: 'uri',
          description:
            "The link's destination with the visitor's query merged in: the visitor's parameters (those named like one of the link's own, mdasc, sub1 … sub5 or the click id parameter dropped), then the destination's own query (mdasc included), then the click id (e.g. clickId=<32 hex>), then the destination's #fragment if any",
        }),
      },
    }),
    400: Type.Ref(ErrorBody, { description: 'The path is malformed: broken percent-encoding (code invalid_url)' }),
    404: Type.Ref(ErrorBody, { description: 'No active short link has this code (code link_not_found)' }),
    414: Type.Ref(ErrorBody, { description: 'The path is too long (code uri_too_long)' }),
  },
};

export function registerRedirect(app: App, services: ServingServices, metrics: ServiceMetrics): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, target: CachedTarget | undefined) => {
    if (!target) {
      metrics.redirectNotFound();
      return reply.status(404).send(LINK_NOT_FOUND);
    }
    const queryAt = request.url.indexOf('?');
    const visit = { method: request.method, ip: request.ip, userAgent: request.headers['user-agent'], referer: request.headers.referer };
    return reply.redirect(services.tracking.clickThrough(target, visit, queryAt === -1 ? undefined : request.url.slice(queryAt + 1)), 302);
  };
  const follow = (request: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply) =>
    services.tracking.resolve(request.params.code).then((target) => answer(request, reply, target));

  // No security headers on redirects (as on the redirect front): the visitor's referrer is the brand's to see.
  app.get('/:code', { schema: SCHEMA, config: { securityHeaders: false } }, follow);
  // The same with a trailing slash, left out of the document: one route, two spellings.
  app.get('/:code/', { schema: { hide: true }, config: { securityHeaders: false } }, follow);
}
