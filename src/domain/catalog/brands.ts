// Brands as an affiliate sees them: visible brands only, with the affiliate's own channels.
import type { Brand } from '../../schemas/brand.js';
import { pageOf, type Pagination } from '../../schemas/common.js';
import type { BrandRow } from '../../storage/tables.js';
import { categoriesOfBrands, findVisibleBrand, listBrands, type BrandFilters } from '../../storage/repositories/brands.js';
import { channelsOf } from '../../storage/repositories/channels.js';
import { linksFor } from '../../storage/repositories/links.js';
import { notFound } from '../errors.js';
import { channelView, shortUrlsByChannel } from '../links/channels-view.js';
import type { LinkDeps } from '../links/shortener.js';
import { blockReason } from '../links/link-rules.js';
import { nowIso } from '../time.js';

/** cps values are stored in basis points and shown as percent; cpa values are cents. */
export function commissionOf(row: BrandRow): Brand['commission'] {
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

async function withChannels(deps: LinkDeps, affiliateId: string, rows: BrandRow[]): Promise<Brand[]> {
  const ids = rows.map((r) => r.id);
  const [categories, channels, links] = await Promise.all([
    categoriesOfBrands(deps.database, ids),
    channelsOf(deps.database, affiliateId),
    linksFor(deps.database, affiliateId, { brandIds: ids, linkTypes: ['BrandPage'] }),
  ]);
  const urls = shortUrlsByChannel(links, deps.publicUrl, (l) => l.organization_id);
  const now = nowIso();
  // Every brand listed here is visible, which for an affiliate means approved or public.
  return rows.map((row) => ({
    ...brandWithoutChannels(row, categories.get(row.id) ?? []),
    channels: channels.map((ch) => channelView(ch, urls.get(`${row.id}|${ch.id}`) ?? [], blockReason(ch, row, true, undefined, now))),
  }));
}

export async function listBrandsFor(
  deps: LinkDeps,
  affiliateId: string,
  filters: BrandFilters,
  page: number,
  limit: number,
): Promise<{ data: Brand[]; pagination: Pagination }> {
  const { rows, total } = await listBrands(deps.database, affiliateId, filters, { limit, offset: (page - 1) * limit });
  return { data: await withChannels(deps, affiliateId, rows), pagination: pageOf(total, page, limit) };
}

export async function getBrandFor(deps: LinkDeps, affiliateId: string, id: string): Promise<Brand> {
  const row = await findVisibleBrand(deps.database, affiliateId, id);
  if (!row) throw notFound('Brand not found or not available');
  const [brand] = await withChannels(deps, affiliateId, [row]);
  return brand!;
}
