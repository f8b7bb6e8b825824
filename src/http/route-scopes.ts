// The scope each API route requires, in one table: a route file does not name its own scope, and
// an API route missing here stops the service from starting (see route-rules.ts), so no route can
// be open to every key by omission. A new scope also needs a migration granting it to the existing
// keys that hold their kind's full default set (see docs/decisions.md).
import type { Scope } from '../domain/access/scopes.js';

export const ROUTE_SCOPES: Readonly<Record<string, Scope>> = {
  'GET /affiliate/brands': 'brands:read',
  'GET /affiliate/brands/:id': 'brands:read',
  'GET /affiliate/products': 'products:read',
  'GET /affiliate/campaigns': 'campaigns:read',
  'POST /affiliate/shortener/url': 'shortener:write',
  'GET /affiliate/shortener/urls': 'shortener:read',
  'GET /affiliate/orders': 'orders:read',
  'GET /affiliate/orders/:id': 'orders:read',
  'GET /affiliate/balance': 'orders:read',
  'GET /affiliate/payouts': 'orders:read',
  'GET /affiliate/payouts/:id': 'orders:read',
  'GET /affiliate/channels': 'channels:read',
  'POST /advertiser/conversions': 'conversions:write',
  'PATCH /advertiser/conversions/:orderId': 'conversions:write',
  'GET /advertiser/conversions': 'conversions:read',
  'GET /advertiser/conversions/:orderId': 'conversions:read',
  'GET /postback': 'conversions:write',
  'POST /affiliate/brands/:id/approval-request': 'approvals:write',
  'GET /advertiser/affiliates': 'affiliates:read',
  'PUT /advertiser/products/:id': 'catalog:write',
  'PATCH /advertiser/products/:id': 'catalog:write',
  'DELETE /advertiser/products/:id': 'catalog:write',
  'POST /advertiser/products/bulk': 'catalog:write',
  'GET /advertiser/brand': 'catalog:read',
  'PATCH /advertiser/brand': 'catalog:write',
  'PUT /advertiser/campaigns/:id': 'catalog:write',
  'PATCH /advertiser/campaigns/:id': 'catalog:write',
  'DELETE /advertiser/campaigns/:id': 'catalog:write',
  'POST /advertiser/affiliates/:id/approval': 'affiliates:write',
  'DELETE /advertiser/affiliates/:id/approval': 'affiliates:write',
  'POST /affiliate/webhooks': 'webhooks:write',
  'GET /affiliate/webhooks': 'webhooks:read',
  'GET /affiliate/webhooks/:id': 'webhooks:read',
  'PATCH /affiliate/webhooks/:id': 'webhooks:write',
  'DELETE /affiliate/webhooks/:id': 'webhooks:write',
  'POST /affiliate/webhooks/:id/rotate-secret': 'webhooks:write',
  'GET /affiliate/webhooks/:id/deliveries': 'webhooks:read',
  'POST /affiliate/webhooks/:id/deliveries/:deliveryId/redeliver': 'webhooks:write',
  'POST /advertiser/webhooks': 'webhooks:write',
  'GET /advertiser/webhooks': 'webhooks:read',
  'GET /advertiser/webhooks/:id': 'webhooks:read',
  'PATCH /advertiser/webhooks/:id': 'webhooks:write',
  'DELETE /advertiser/webhooks/:id': 'webhooks:write',
  'POST /advertiser/webhooks/:id/rotate-secret': 'webhooks:write',
  'GET /advertiser/webhooks/:id/deliveries': 'webhooks:read',
  'POST /advertiser/webhooks/:id/deliveries/:deliveryId/redeliver': 'webhooks:write',
  'GET /affiliate/analytics': 'analytics:read',
  'GET /affiliate/analytics/export': 'analytics:read',
  'GET /advertiser/analytics': 'analytics:read',
  'GET /advertiser/analytics/export': 'analytics:read',
};

/** The scope of a route; HEAD routes answer like their GET. */
export function scopeOf(method: string, url: string): Scope | undefined {
  return ROUTE_SCOPES[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}
