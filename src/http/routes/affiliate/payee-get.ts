import { Type } from '@sinclair/typebox';
import { PayeeView } from '../../../schemas/payee.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { SESSION_ONLY } from '../account/side.js';
import { errorResponses } from '../../responses.js';

export function getPayeeRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/payee',
    {
      schema: {
        tags: ['Payouts'],
        summary: 'Read where you are paid (payee details, masked)',
        description:
          'Addition to the spec. Your payee details as saved, masked (a CPF as ***.456.789-**, keys and accounts but for their last characters), with when they last changed and until when payouts are held after that change; 404 payee_not_found until they are first saved. Signed-in owners only: no API key reaches payee details (403), and members are refused too. 503 payee_key_missing when the server lacks the key they were encrypted with.',
        security: SESSION_ONLY,
        response: { 200: Type.Object({ data: PayeeView }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.payees.view(request.affiliateId) }),
  );
}
