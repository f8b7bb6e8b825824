// The brand's tag install: the publishable key, the snippet's parts and what the tag sent lately.
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { TagInstall } from '../../../schemas/tag.js';

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
