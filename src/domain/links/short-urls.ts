import { pageOf, type Pagination } from '../../schemas/common.js';
import type { ShortUrl } from '../../schemas/short-url.js';
import type { ShortLinkRow } from '../../storage/schema.js';
import { listLinks, type LinkListFilters } from '../../storage/repositories/links.js';
import { shortUrlOf } from './channels-view.js';
import type { LinkDeps } from './shortener.js';

export function shortUrlRecord(row: ShortLinkRow, publicUrl: string): ShortUrl {
  return {
    originalUrl: row.original_url,
    shortUrl: shortUrlOf(publicUrl, row.code),
    urlCode: row.code,
    organizationId: row.organization_id,
    active: row.active === 1,
    count: Number(row.click_count),
    linkType: row.link_type as ShortUrl['linkType'],
  };
}

export async function listShortUrlsFor(
  deps: LinkDeps,
  affiliateId: string,
  filters: LinkListFilters,
  page: number,
  limit: number,
): Promise<{ data: ShortUrl[]; meta: Pagination }> {
  const { rows, total } = await listLinks(deps.database, affiliateId, filters, { limit, offset: (page - 1) * limit });
  return { data: rows.map((r) => shortUrlRecord(r, deps.publicUrl)), meta: pageOf(total, page, limit) };
}
