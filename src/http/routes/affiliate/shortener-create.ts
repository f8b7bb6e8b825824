import { Type, type Static } from '@sinclair/typebox';
import { Channel } from '../../../schemas/channel.js';
import { Examples, Uuid } from '../../../schemas/common.js';
import { LinkTypeSchema } from '../../../schemas/short-url.js';
import { MAX_URL_LENGTH } from '../../../domain/urls.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { HttpError } from '../../errors.js';

const Body = Type.Object(
  {
    organizationId: Uuid,
    type: LinkTypeSchema,
    featureId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Required for Coupon and Offer (the campaign id); not accepted otherwise' })),
    url: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'Required for Custom, not accepted otherwise: an https URL on the brand domain or a subdomain of it' }),
    ),
    mdasc: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your own label for this link (a tracking id): appended to the destination as the query parameter mdasc, and returned with the orders the link brings' })),
    channelIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        description: 'Addition to the spec: only these of your channels (ids from GET /affiliate/channels) get a link, and only they are answered; omitted: every channel. An id that is not one of your channels answers 400 invalid_body',
      }),
    ),
  },
  {
    additionalProperties: false,
    ...Examples({
      brandPage: ['Links to a brand\'s page, one per channel', { organizationId: '3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d', type: 'BrandPage', mdasc: 'newsletter-42' }],
      coupon: ['Links to a coupon', { organizationId: '3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d', type: 'Coupon', featureId: 'black-week' }],
    }),
  },
);

/** Which fields go with which type: rules across fields that the schema cannot express. */
function checkFields(body: Static<typeof Body>): void {
  const needsFeature = body.type === 'Coupon' || body.type === 'Offer';
  const bad = (message: string) => new HttpError(400, 'invalid_body', message);
  if (needsFeature && !body.featureId) throw bad(`featureId is required when type is ${body.type}: pass the campaign id from GET /affiliate/campaigns`);
  if (!needsFeature && body.featureId !== undefined) throw bad(`featureId is only accepted when type is Coupon or Offer, not ${body.type}`);
  if (body.type === 'Custom' && !body.url) throw bad('url is required when type is Custom');
  if (body.type !== 'Custom' && body.url !== undefined) throw bad(`url is only accepted when type is Custom, not ${body.type}`);
}

export function createShortUrlRoute(app: App, services: ServingServices): void {
  app.post(
    '/affiliate/shortener/url',
    {
      schema: {
        tags: ['Short links'],
        summary: 'Create short links, one per channel of the caller',
        description:
          'Answers 200 with one Channel per channel of the calling affiliate (or per channel named in channelIds). A blocked channel (private brand without approval, channel kind the brand does not accept, expired campaign, inactive brand) carries message and no links. Idempotent: the same request returns the same links. An unknown organizationId answers 404.',
        security: [{ apiKey: [] }],
        body: Body,
        response: { 200: Type.Array(Type.Ref(Channel)), ...errorResponses(404) },
      },
    },
    async (request) => {
      checkFields(request.body);
      return services.links.createShortLinks(request.affiliateId, request.body);
    },
  );
}
