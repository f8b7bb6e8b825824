import type { ShortUrl } from '../../schemas/short-url.js';
import type { ListedLink } from '../../storage/repositories/links.js';
import { shortUrlOf } from './channels-view.js';

/** A listed link as the API shows it; mdasc and featureId are omitted when the link has none. */
export function shortUrlRecord(row: ListedLink, publicUrl: string, brandName?: string): ShortUrl {
  const record: ShortUrl = {
    originalUrl: row.original_url,
    shortUrl: shortUrlOf(publicUrl, row.code),
    urlCode: row.code,
    organizationId: row.organization_id,
    ...(brandName !== undefined && { brandName }),
    active: row.active === 1,
    count: Number(row.click_count),
    linkType: row.link_type as ShortUrl['linkType'],
    channel: { id: row.channel_id, name: row.channel_name, kind: row.channel_kind },
    createdAt: row.created_at,
  };
  if (row.mdasc !== null) record.mdasc = row.mdasc;
  if (row.feature_id !== null) record.featureId = row.feature_id;
  return record;
}
