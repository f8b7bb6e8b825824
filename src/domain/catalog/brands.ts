// A brand as the API shows it, from its stored row (channels are added per caller).
import type { Brand } from '../../schemas/brand.js';
import type { BrandRow } from '../../storage/tables.js';
import type { ListedBrandRow } from '../../storage/repositories/brands.js';
import { halfUp, RATING_BITS, type RatingName } from './brand-scores.js';

/** cps values are stored in basis points and shown as percent; cpa values are cents. */
export function commissionOf(row: Pick<BrandRow, 'commission_transfer' | 'commission_value'>): Brand['commission'] {
  const transfer = row.commission_transfer === 'cpa' ? 'cpa' : 'cps';
  return { transfer, value: transfer === 'cps' ? row.commission_value / 100 : row.commission_value };
}

/** The ratings with a score; those the network has none for are left out. */
export function ratingOf(row: Pick<BrandRow, `rating_${RatingName}` | 'ratings_absent'>): Brand['network']['rating'] {
  const absent = row.ratings_absent ?? 0;
  const values: Record<RatingName, number> = {
    approval: row.rating_approval,
    commission: row.rating_commission,
    conversion: row.rating_conversion,
    popularity: row.rating_popularity,
    validation: row.rating_validation,
  };
  const rating: Brand['network']['rating'] = {};
  for (const [name, bit] of Object.entries(RATING_BITS) as Array<[RatingName, number]>) if ((absent & bit) === 0) rating[name] = values[name];
  return rating;
}

/** What a brand's detail adds to its ratings: EPC and median days to decision, when computed. */
export function scoreFactsOf(row: BrandRow): Pick<Brand['network'], 'epc' | 'medianDaysToDecision'> {
  return {
    ...(row.epc_cents !== null && row.epc_cents !== undefined && { epc: row.epc_cents }),
    ...(row.median_decision_seconds !== null && row.median_decision_seconds !== undefined && { medianDaysToDecision: halfUp(10 * row.median_decision_seconds, 86_400) / 10 }),
  };
}

export function brandWithoutChannels(row: ListedBrandRow, categories: string[]): Omit<Brand, 'channels'> {
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
      rating: ratingOf(row),
    },
    createdAt: row.created_at,
    commission: commissionOf(row),
    categories,
    currency: row.currency,
    ...(row.allowed_channel_kinds !== null && { allowedChannels: JSON.parse(row.allowed_channel_kinds) as string[] }),
  };
}
