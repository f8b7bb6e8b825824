// A product as the API shows it, from its stored row and its brand's currency.
import type { Product } from '../../schemas/product.js';
import type { ProductRow } from '../../storage/tables.js';

export function productOf(row: ProductRow, currency: string): Product {
  const product: Product = {
    organizationId: row.organization_id,
    id: row.id,
    available: row.available === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    description: row.description,
    url: row.url,
    images: JSON.parse(row.images) as Product['images'],
    options: JSON.parse(row.options) as Product['options'],
    metadata: JSON.parse(row.metadata) as unknown[],
    currency,
  };
  if (row.integration !== null) product.integration = row.integration;
  return product;
}
