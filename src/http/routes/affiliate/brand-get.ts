import { Type } from '@sinclair/typebox';
import { Brand } from '../../../schemas/brand.js';
import { Uuid } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export function getBrandRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/brands/:id',
    {
      schema: {
        tags: ['Brands'],
        summary: 'One brand',
        description: 'A brand the caller may access; any other id (unknown, or private and not approved) answers 404.',
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Uuid }),
        response: { 200: Type.Object({ data: Type.Ref(Brand) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.catalog.getBrand(request.affiliateId, request.params.id) }),
  );
}
