// The brand's tag install: the publishable key, the snippet's parts, what the tag sent lately, and test orders.
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { TagInstall, TagTest } from '../../../schemas/tag.js';
import { errorResponses } from '../../responses.js';

const NoQuery = Type.Object({}, { additionalProperties: false });

export function getTagInstallRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/tag',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your tag: the publishable key, the snippet’s parts and the latest reports',
        description:
          'Put the snippet on every page of your shop: it loads the tag (scriptUrl, with integrity) and tells it your publishable key, your clickIdParam and attributionWindowDays. On landing pages the tag keeps the click id; on the order page call affnet(\'conversion\', { orderId, value, currency, items, customer }) (value in integer cents). reports shows what the tag and the pixel sent lately and why a report was refused: test your install with it.',
        security: [{ apiKey: [] }],
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Ref(TagInstall) }) },
      },
    },
    async (request) => ({ data: await services.tagInstall.install(request.brandId) }),
  );
}

export function replacePublishableKeyRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/tag/publishable-key',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Make a new publishable key',
        description: 'The key your snippet carries: public by design (it sits in your pages), good for the tag’s and the pixel’s reports only, from your domains only. The key you had stops working at once: update the snippet where it is.',
        security: [{ apiKey: [] }],
        querystring: NoQuery,
        response: { 201: Type.Object({ data: Type.Ref(TagInstall) }) },
      },
    },
    async (request, reply) => {
      await services.tagInstall.replaceKey(request.brandId);
      return reply.status(201).send({ data: await services.tagInstall.install(request.brandId) });
    },
  );
}

const TestParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function startTagTestRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/tag/tests',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Send a test order: a test link to your shop',
        description:
          'Makes a test and its link: your home page with a test click id (clickIdParam) and affnet_test=1. Open it in a browser: the tag keeps the test’s click id and announces the visit (visit); an order placed on that visit is reported as usual and kept as the test’s (orders), with what the tag read or why it was refused, never as an order (no commission, absent from every list, figure, statement and payout). Poll GET /advertiser/tag/tests/{id}. Kept 7 days; at most 30 tests an hour (429 too_many_tag_tests).',
        security: [{ apiKey: [] }],
        querystring: NoQuery,
        response: { 201: Type.Object({ data: Type.Ref(TagTest) }), ...errorResponses(429) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await services.tagTests.start(request.brandId) }),
  );
}

export function getTagTestRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/tag/tests/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'A test order: what the tag saw of it',
        description: 'The test’s link, the visit the tag announced, what your pages reported with its click id, and reports refused meanwhile without it. Another brand’s test, or one older than 7 days, answers 404 tag_test_not_found.',
        security: [{ apiKey: [] }],
        params: TestParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Ref(TagTest) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.tagTests.get(request.brandId, request.params.id) }),
  );
}
