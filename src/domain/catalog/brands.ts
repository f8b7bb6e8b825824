// A brand as the API shows it, from its stored row (channels are added per caller).
import type { Brand } from '../../schemas/brand.js';
import type { BrandRow } from '../../storage/tables.js';

/** cps values are stored in basis points and shown as percent; cpa values are cents. */
export function commissionOf(row: Pick<BrandRow, 'commission_transfer' | 'commission_value'>): Brand['commission'] {
  const transfer = row.commission_transfer === 'cpa' ? 'cpa' : 'cps';
  return { transfer, value: transfer === 'cps' ? row.commission_value / 100 : row.commission_value };
}

export function brandWithoutChannels(row: BrandRow, categories: string[]): Omit<Brand, 'channels'> {
  return {
    id: row.id,
    name: row.name,
    logo: row.logo,
    slug: row.slug,
    site: row.site,
    segment: row.segment,
    network: {
      active: row.active === 1,
      isPublic: row.is_public === 1,
      trait: { isExclusive: row.is_exclusive === 1, isHighlight: row.is_highlight === 1, isFavorite: row.is_favorite === 1 },
      rating: {
        approval: row.rating_approval,
        commission: row.rating_commission,
        conversion: row.rating_conversion,
        popularity: row.rating_popularity,
        validation: row.rating_validation,
      },
    },
    createdAt: row.created_at,
    commission: commissionOf(row),
    categories,
    currency: row.currency,
  };
}
