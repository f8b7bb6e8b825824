import { Type } from '@sinclair/typebox';
import { Brand } from '../../../schemas/brand.js';
import { Uuid } from '../../../schemas/common.js';
import { getBrandFor } from '../../../domain/catalog/brands.js';
import type { App, AppContext } from '../../context.js';
import { errorResponses } from '../../responses.js';

export function getBrandRoute(app: App, ctx: AppContext): void {
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
    async (request) => ({ data: await getBrandFor(ctx, request.affiliateId, request.params.id) }),
  );
}
