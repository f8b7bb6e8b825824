// Analytics are the same for affiliates and brands, under /affiliate/analytics and
// /advertiser/analytics: each route file makes its route for one side.
import type { FastifyRequest } from 'fastify';
import type { AnalyticsCaller } from '../../../domain/analytics/analytics-service.js';
import type { Side } from './query.js';

export const pathOf = (side: Side): string => (side === 'affiliate' ? '/affiliate/analytics' : '/advertiser/analytics');

export const callerOf = (side: Side, request: FastifyRequest): AnalyticsCaller =>
  side === 'affiliate' ? { affiliateId: request.affiliateId } : { brandId: request.brandId };
