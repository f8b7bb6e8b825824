// The shop's own pages report conversions: the first-party tag (GET /tag.js, then POST
// /track/conversions) and, for pages without scripts, the pixel (GET /track/pixel.gif). No API
// key: the brand's publishable key, public by design, which is good for these routes alone.
// Limited per client address. The pixel answers its image whatever happened (a page cannot read
// an image's answer anyway): refusals are logged and counted in the metrics, and shown to the
// brand in its install check when the key was known.
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyRequest } from 'fastify';
import type { AppContext, App } from '../../context.js';
import { DomainError } from '../../../domain/errors.js';
import { TAG_SCRIPT } from '../../../domain/tag/tag-script.js';
import type { PageSource } from '../../../domain/tag/tag-conversions.js';
import { PixelQuery, TagConversionAccepted, TagConversionInput, TagVisitInput } from '../../../schemas/tag.js';
import { customerFromQuery } from '../../../schemas/conversion.js';
import { HttpError, tooManyRequests } from '../../errors.js';
import { errorResponses } from '../../responses.js';
import { originOf, scriptRoute } from './pages.js';
import { registerLinkScriptRoutes } from './link-script.js';

const TAG = 'Tag and pixel';
const NoQuery = Type.Object({}, { additionalProperties: false });
/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const pixelQuery = TypeCompiler.Compile(PixelQuery);

export async function registerTrackingRoutes(app: App, ctx: AppContext): Promise<void> {
  const { tag, trackReports } = ctx.services;
  const { metrics } = ctx;

  /** 429 once the client address sent too many reports this minute. */
  const limit = async (request: FastifyRequest) => {
    const waitMs = await trackReports.failed(request.ip);
    if (waitMs > 0) throw tooManyRequests('too_many_requests', waitMs, ({ seconds }) => `Too many conversions reported from this address: try again in ${seconds} s`);
  };
  const outcomeOf = (error: unknown) => (error instanceof DomainError || error instanceof HttpError ? error.code : 'error');

  await app.register(async (scope) => {
    const pages = scope as unknown as App;
    // sendBeacon sends its body as text/plain (a JSON text): read it as JSON here, and here only.
    pages.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new HttpError(400, 'invalid_body', 'The body is not JSON: send a JSON object (content-type text/plain or application/json)'), undefined);
      }
    });

    scriptRoute(pages, '/tag.js', TAG_SCRIPT, {
      tag: TAG,
      summary: 'The first-party tag',
      description: `One script for every brand, loaded by the snippet of GET /advertiser/tag. On the order page it reports affnet('conversion', {...}); on a page that makes no such call, it reports the shop's own purchase event from window.dataLayer (GA4's {event: 'purchase', ecommerce}, gtag's ('event', 'purchase', {...}) or Universal Analytics' ecommerce.purchase), once per order id, its decimal amounts turned into integer cents by the currency's minor unit, after the page's load.`,
    });
    registerLinkScriptRoutes(pages, ctx);

    pages.post(
      '/track/conversions',
      {
        schema: {
          tags: [TAG],
          summary: 'Report an order from the shop’s order page (the tag)',
          description:
            'Sent by the tag (affnet(\'conversion\', {...})), as JSON or as text/plain holding JSON (navigator.sendBeacon). key is the brand’s publishable key; it is refused (403 origin_not_allowed) from a page outside the brand’s domains. The order must name a click of the brand within its attribution window (the tag adds the click id it kept): source tag, and it waits for the brand’s confirmation (its server reporting the same order, or its approval) before its lock date, else it is canceled (commissionReason unconfirmed) unless the brand trusts its tag (trustTagConversions). ' +
            'The same order id reported again changes nothing, and is checked and answered as a new one is (outcome recorded), so the answer never tells whether an order id exists. The brand’s server reporting the order takes it over while it is pending, whatever its fraud hold. At most TRACK_LIMIT_PER_MINUTE reports per client address a minute (429).',
          querystring: NoQuery,
          body: TagConversionInput,
          response: { 202: TagConversionAccepted, ...errorResponses(400, 403, 404, 409, 422, 429, 500, 503) },
        },
      },
      async (request, reply) => {
        try {
          await limit(request);
          const { key, ...order } = request.body;
          const { orderId, outcome, known, test } = await tag.report('tag', { key, ...order }, { origin: originOf(request), address: request.ip });
          metrics.pageReport('tag', test ? 'test' : known ? 'known' : outcome);
          // The page is told recorded either way: whether the order id was known is the network's to count.
          return reply.status(202).send({ data: { orderId, outcome } });
        } catch (error) {
          metrics.pageReport('tag', outcomeOf(error));
          throw error;
        }
      },
    );

    pages.post(
      '/track/visits',
      {
        schema: {
          tags: [TAG],
          summary: 'The tag announces a test link’s landing',
          description:
            'Sent by the tag when the landing page’s address carries affnet_test=1 (a test order’s link, POST /advertiser/tag/tests), as JSON or text/plain holding JSON: the brand’s publishable key and the click id it kept. The brand’s test then shows the visit and the page it came from. A click id of no test of the key’s brand changes nothing; the answer is the same. At most TRACK_LIMIT_PER_MINUTE reports per client address a minute (429).',
          querystring: NoQuery,
          body: TagVisitInput,
          response: { 204: Type.Null({ description: 'Noted' }), ...errorResponses(400, 403, 429, 500, 503) },
        },
      },
      async (request, reply) => {
        await limit(request);
        await tag.visited(request.body.key, request.body.clickId, { origin: originOf(request), address: request.ip });
        return reply.status(204).send(null);
      },
    );

    pages.get(
      '/track/pixel.gif',
      {
        exposeHeadRoute: false,
        schema: {
          tags: [TAG],
          summary: 'Report an order from a page without scripts (the pixel)',
          description:
            'An image element on the order page: pk (the publishable key), orderId, value (integer cents), and clickId, currency, customerIsNew, customerEmailHash as POST /track/conversions takes them (source pixel). Always answers a transparent 1×1 GIF, whatever it was sent: a refusal (unknown parameters included) is logged, counted in the metrics (affnet_page_reports_total) and shown in the brand’s install check (GET /advertiser/tag) when the key is known.',
          produces: ['image/gif'],
          response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'A transparent 1×1 GIF' }) },
        },
      },
      async (request, reply) => {
        let outcome: string;
        try {
          await limit(request);
          const query: unknown = request.query;
          if (!pixelQuery.Check(query)) {
            const first = pixelQuery.Errors(query).First();
            throw new HttpError(400, 'invalid_query', `${first?.path || 'the query'}: ${first?.message ?? 'invalid'}`);
          }
          const { pk, value, customerIsNew, customerEmailHash, ...order } = query;
          const result = await tag.report('pixel' satisfies PageSource, { key: pk, value: Number(value), customer: customerFromQuery({ customerIsNew, customerEmailHash }), ...order }, { origin: originOf(request), address: request.ip });
          outcome = result.test ? 'test' : result.known ? 'known' : result.outcome;
        } catch (error) {
          outcome = outcomeOf(error);
          request.log.info({ outcome, message: error instanceof Error ? error.message : String(error) }, 'the pixel’s report was refused');
        }
        metrics.pageReport('pixel', outcome);
        return reply.header('content-type', 'image/gif').header('cache-control', 'no-store').send(PIXEL);
      },
    );
  });
}
