import type { Product } from '../../packages/client/index.js';

/** A product's lowest price over its options, in cents (what the price filter matches); undefined without one. */
export function lowestPrice(product: Product): number | undefined {
  const prices = product.options.flatMap((o) => o.pricing.map((p) => p.price));
  return prices.length > 0 ? Math.min(...prices) : undefined;
}
