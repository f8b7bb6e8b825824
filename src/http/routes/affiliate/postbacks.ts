// The affiliate's postbacks: URL templates of its trackers, fired as GET requests with the click's
// ids filled in; their delivery logs, and a test sent at once.
import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { Postback, PostbackDelivery, PostbackInput, PostbackParams, PostbackTestQuery, PostbackTestResult } from '../../../schemas/postback.js';
import { MAX_POSTBACKS } from '../../../domain/postbacks/postbacks-service.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const TAG = 'Postbacks';
const Data = Type.Object({ data: Type.Ref(Postback) });

export function putPostbackRoute(app: App, services: ServingServices): void {
  app.put(
    '/affiliate/postbacks/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Create or replace a postback',
        description:
          'A URL template of your tracker (Voluum, RedTrack, Binom, Keitaro…), requested with GET on the events you choose, macros filled in with the order’s values: 201 when new, 200 when it replaced yours with this id (its delivery log is kept; deliveries still waiting are sent with the new URL). ' +
          'You choose the id (the path): 1 to 64 letters, digits, - and _. A PUT replaces the whole postback: a field left out takes its default (every brand, active). ' +
          `Each event is sent once to each postback whose events and brands it matches; a failure (no answer in WEBHOOK_TIMEOUT_MS, 10 s by default, or a status other than 2xx) is retried as webhooks are: 5 s doubling up to an hour, with jitter, until 24 hours after the event. Redirects are not followed. At most ${MAX_POSTBACKS} postbacks (409 postback_limit).`,
        security: [{ apiKey: [] }],
        params: PostbackParams,
        body: PostbackInput,
        response: { 200: Data, 201: Data, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { created, postback } = await services.postbacks.put(request.affiliateId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send({ data: postback });
    },
  );
}

export function listPostbacksRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/postbacks',
    {
      schema: {
        tags: [TAG],
        summary: 'Your postbacks',
        description: 'Every postback of yours, oldest first.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Postback)) }) },
      },
    },
    async (request) => ({ data: await services.postbacks.list(request.affiliateId) }),
  );
}

export function getPostbackRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/postbacks/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'One postback',
        description: 'An id you have no postback under answers 404 postback_not_found, whoever else uses it.',
        security: [{ apiKey: [] }],
        params: PostbackParams,
        response: { 200: Data, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.postbacks.get(request.affiliateId, request.params.id) }),
  );
}

export function deletePostbackRoute(app: App, services: ServingServices): void {
  app.delete(
    '/affiliate/postbacks/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Delete a postback',
        description: 'The postback, its deliveries still waiting and its delivery log are deleted; nothing more is sent to it.',
        security: [{ apiKey: [] }],
        params: PostbackParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.postbacks.delete(request.affiliateId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}

const DeliveriesQuery = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

export function listPostbackDeliveriesRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/postbacks/:id/deliveries',
    {
      schema: {
        tags: [TAG],
        summary: 'A postback’s delivery log',
        description:
          'Each event sent to the postback, and each test, newest first: the event, its status (pending, delivered, failed), the attempts made, and of the last one the URL as sent (your URL as you wrote it, its query values included, macros filled in), your tracker’s status and the time it took, or why it failed. Kept for WEBHOOK_RETENTION_DAYS (30 by default).',
        security: [{ apiKey: [] }],
        params: PostbackParams,
        querystring: DeliveriesQuery,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(PostbackDelivery)), meta: Type.Ref(Pagination) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await services.postbacks.deliveries(request.affiliateId, request.params.id, { page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );
}

export function testPostbackRoute(app: App, services: ServingServices): void {
  app.post(
    '/affiliate/postbacks/:id/test',
    {
      schema: {
        tags: [TAG],
        summary: 'Send a test',
        description:
          'Sends the postback now, paused or not, with example values: every macro filled in, each saying it is a test ({click_id} test-click, {sub1} test-sub1…, {order_id} test-order, {commission} 12.90 BRL, {brand_id} the first of its brands), for event (the postback’s first by default). ' +
          'Answers 200 with what your tracker answered (its status and the beginning of its answer) or why it could not be reached; the test is in the delivery log, marked test, and never retried.',
        security: [{ apiKey: [] }],
        params: PostbackParams,
        querystring: PostbackTestQuery,
        response: { 200: Type.Object({ data: PostbackTestResult }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.postbacks.test(request.affiliateId, request.params.id, request.query.event) }),
  );
}

export const postbackRoutes = [putPostbackRoute, listPostbacksRoute, getPostbackRoute, deletePostbackRoute, listPostbackDeliveriesRoute, testPostbackRoute];
