// The account routes (team and API keys) are the same for affiliates and brands, under
// /affiliate/… and /advertiser/…: each route file exports a function that makes the route for one
// side. They answer a signed-in user only: no API key holds their scopes (a leaked key cannot
// mint keys or invite people).
import type { FastifyRequest } from 'fastify';
type UserOwner = { affiliateId?: string; brandId?: string };

export type Side = 'affiliate' | 'brand';

export const accountPath = (side: Side, what: 'team' | 'keys'): string => `${side === 'affiliate' ? '/affiliate' : '/advertiser'}/${what}`;

/** The account the signed-in user works for. */
export const accountOf = (side: Side, request: FastifyRequest): UserOwner => (side === 'affiliate' ? { affiliateId: request.affiliateId } : { brandId: request.brandId });

/** The signed-in user's id (a session's principal is named user:<id>). */
export const userIdOf = (request: FastifyRequest): string => request.principal!.keyId.replace(/^user:/, '');

export const TAG = 'Account';
/** Only a portal session may call these routes. */
export const SESSION_ONLY = [{ session: [] }];

export { keyView } from '../../../domain/access/access-service.js';
