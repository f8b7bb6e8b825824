// Webhook routes are the same for affiliates and brands, under /affiliate/webhooks and
// /advertiser/webhooks: each route file exports a function that makes the route for one side.
import type { FastifyRequest } from 'fastify';
import type { Owner } from '../../../domain/webhooks/webhooks-service.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';

export const basePath = (side: OwnerKind): string => (side === 'affiliate' ? '/affiliate/webhooks' : '/advertiser/webhooks');

/** The endpoint's owner: the calling affiliate or brand. */
export const ownerOf = (side: OwnerKind, request: FastifyRequest): Owner => ({ kind: side, id: side === 'affiliate' ? request.affiliateId : request.brandId });

export const TAG = 'Webhooks';
