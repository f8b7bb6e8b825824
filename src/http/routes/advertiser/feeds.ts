// A brand's product feeds (Google Merchant Center XML, TSV or CSV): put under the brand's own id,
// listed, read, deleted; each run's report; and a run of an uploaded copy, read as the body streams
// in (never buffered whole).
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { HttpError } from '../../errors.js';
import { Feed, FeedIdParams, FeedInput, FeedRun, FeedRunParams } from '../../../schemas/feed.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';

/** The content types an uploaded feed may come as: its format is the feed's own, gzip or not. */
export const FEED_UPLOAD_TYPES = ['application/xml', 'text/xml', 'application/rss+xml', 'application/atom+xml', 'text/tab-separated-values', 'text/csv', 'application/gzip', 'application/x-gzip'];

const FeedEnvelope = Type.Object({ data: Type.Ref(Feed) });
const RunEnvelope = Type.Object({ data: Type.Ref(FeedRun) });
const RunsQuery = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

const UploadBody = Type.String({
  description: `The feed file in the feed's format (${FEED_UPLOAD_TYPES.join(', ')}); gzip allowed`,
  examples: ['<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:id>shoe-41</g:id><title>Trail shoe</title><link>https://www.example.com/p/shoe</link><g:price>129.90 BRL</g:price><g:availability>in_stock</g:availability></item></channel></rss>'],
});

const RUN_DESCRIPTION =
  'Items sharing an item_group_id become options of one product (its id the group id); others are products of their own (id: g:id). Prices ("129.90 BRL", sale_price) become integer cents; an item in another currency than yours, or without id, title, link, price or availability, is refused with its reason. ' +
  'A complete run makes your products from this feed that it no longer lists unavailable (never deleted). A run that ends early, answers HTML or nothing, is not fetched and read whole within FEED_FETCH_TIMEOUT_MS (default 30 minutes), or holds fewer than FEED_MIN_SHARE_PERCENT (default 50%) of the last complete run\'s items fails: what it wrote stays written, nothing is made unavailable, and its reason says why.';

export function feedRoutes(app: App, services: ServingServices): void {
  app.put(
    '/advertiser/feeds/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Create or change one of your product feeds',
        description:
          'Your Google Merchant Center feed (or a CSV with its field names) under an id you choose. It runs at once when created or when its URL changes, then every hour or day; your feeds run one at a time. ' +
          'The URL must be https and reach a public address; redirects are not followed. 201 when new, 200 when changed; 409 too_many_feeds past 20 feeds. ' +
          RUN_DESCRIPTION,
        security: [{ apiKey: [] }],
        params: FeedIdParams,
        body: FeedInput,
        response: { 200: FeedEnvelope, 201: FeedEnvelope, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { created, feed } = await services.feeds.putFeed(request.brandId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send({ data: feed });
    },
  );

  app.get(
    '/advertiser/feeds',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your product feeds',
        description: 'Every feed of yours, by id, each with its last run.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Feed)) }) },
      },
    },
    async (request) => ({ data: await services.feeds.feeds(request.brandId) }),
  );

  app.get(
    '/advertiser/feeds/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'One of your product feeds',
        description: 'The feed, when it runs next, and its last run. 404 feed_not_found for an id you have no feed with.',
        security: [{ apiKey: [] }],
        params: FeedIdParams,
        response: { 200: FeedEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.feeds.feed(request.brandId, request.params.id) }),
  );

  app.delete(
    '/advertiser/feeds/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Delete one of your product feeds',
        description: 'The feed and its runs\' reports. The products it brought stay as they are, yours to change or delete; no run changes them any more. 404 feed_not_found for an id you have no feed with.',
        security: [{ apiKey: [] }],
        params: FeedIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.feeds.deleteFeed(request.brandId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/advertiser/feeds/:id/runs',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'The runs of one of your feeds',
        description: 'Newest first, each with what it added, updated, left unchanged and made unavailable, and the items it refused (the first 100, with the total). The newest 1,000 runs are kept. 404 feed_not_found for an id you have no feed with.',
        security: [{ apiKey: [] }],
        params: FeedIdParams,
        querystring: RunsQuery,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(FeedRun)), meta: Type.Ref(Pagination) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await services.feeds.runs(request.brandId, request.params.id, { page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );

  app.get(
    '/advertiser/feeds/:id/runs/:runId',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'One run of one of your feeds',
        description: 'Its status (running, complete or failed, with the reason), its counts and the items it refused. 404 run_not_found.',
        security: [{ apiKey: [] }],
        params: FeedRunParams,
        response: { 200: RunEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.feeds.run(request.brandId, request.params.id, request.params.runId) }),
  );

  app.post(
    '/advertiser/feeds/:id/runs',
    {
      config: { swaggerTransform: ({ schema, url }) => ({ url, schema: { ...schema, consumes: FEED_UPLOAD_TYPES, body: UploadBody } }) },
      schema: {
        tags: ['Advertiser'],
        summary: 'Run one of your feeds from a file you send',
        description:
          `A copy of the feed as the body, instead of fetching its URL: read in the feed's format as it streams in, and answered with the run's report once read (201). Content-Type one of ${FEED_UPLOAD_TYPES.join(', ')}; gzip files are read decompressed, up to FEED_MAX_MB. ` +
          '409 run_in_progress while another run of the feed is under way. ' +
          RUN_DESCRIPTION,
        security: [{ apiKey: [] }],
        params: FeedIdParams,
        response: { 201: RunEnvelope, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!FEED_UPLOAD_TYPES.includes(type)) throw new HttpError(415, 'unsupported_media_type', `Send the feed file with content-type one of ${FEED_UPLOAD_TYPES.join(', ')}`);
      const run = await services.feeds.uploadRun(request.brandId, request.params.id, request.body as Readable);
      return reply.status(201).send({ data: run });
    },
  );
}
