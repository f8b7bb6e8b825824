import type { Product } from '../../schemas/product.js';
import type { ProductRow } from '../../storage/tables.js';
import { listProducts, type ProductFilters } from '../../storage/repositories/products.js';
import { currenciesOf } from '../../storage/repositories/brands.js';
import type { Database } from '../../storage/database.js';

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

export async function listProductsFor(
  database: Database,
  affiliateId: string,
  filters: ProductFilters,
  page: number,
  limit: number,
): Promise<{ data: Product[]; count: number }> {
  const { rows, total } = await listProducts(database, affiliateId, filters, { limit, offset: (page - 1) * limit });
  const currencies = await currenciesOf(database, [...new Set(rows.map((r) => r.organization_id))]);
  return { data: rows.map((row) => productOf(row, currencies.get(row.organization_id)!)), count: total };
}
