// Recent activity for the demo: each demo affiliate's links to the brands it sells most for, and
// a month of visits to them up to now. The orders of the demo data are history (they end before
// the day the demo is seeded); these clicks give the portal's overview, analytics and a brand's
// list of affiliates something of the last 30 days to show on the first start.
import { createHash } from 'node:crypto';
import type { LinksService } from '../domain/links/links-service.js';
import { newClickId } from '../domain/links/click-ids.js';
import type { ClicksRepository } from '../storage/repositories/clicks.js';
import type { LinksRepository } from '../storage/repositories/links.js';
import type { NewClickRow } from '../storage/tables.js';
import { SeededRandom } from './seeded-random.js';

/** What writing the activity needs beside the links service: the stored links and the click table. */
export interface ActivityStores {
  links: Pick<LinksRepository, 'findRedirectTarget'>;
  clicks: Pick<ClicksRepository, 'write'>;
}

const DAYS = 30;
const HOUR = 3_600_000;
/** Visitors as the click writer would have found them: country, device, browser, OS, referrer. */
const VISITORS = [
  { country: 'BR', device: 'mobile', browser: 'Chrome', os: 'Android', referer_host: 'instagram.com' },
  { country: 'BR', device: 'mobile', browser: 'Safari', os: 'iOS', referer_host: 'instagram.com' },
  { country: 'BR', device: 'desktop', browser: 'Chrome', os: 'Windows', referer_host: 'www.google.com' },
  { country: 'BR', device: 'mobile', browser: 'Chrome', os: 'Android', referer_host: '(direct)' },
  { country: 'PT', device: 'desktop', browser: 'Firefox', os: 'Linux', referer_host: 'dealhunter.example' },
  { country: 'US', device: 'tablet', browser: 'Safari', os: 'iOS', referer_host: '(direct)' },
  { country: 'AR', device: 'mobile', browser: 'Samsung Internet', os: 'Android', referer_host: 'web.whatsapp.com' },
] as const;

/**
 * Links of each affiliate (a brand-page link per channel) to its `brands`, then visits to them
 * spread over the 30 days up to `now`, more on recent days. Returns the clicks written.
 */
export async function seedActivity(links: Pick<LinksService, 'createShortLinks'>, stores: ActivityStores, brandsByAffiliate: ReadonlyMap<string, readonly string[]>, now: number): Promise<number> {
  const rnd = new SeededRandom(0x0c11c4ed);
  const clicks: NewClickRow[] = [];
  for (const [affiliateId, brandIds] of brandsByAffiliate) {
    for (const organizationId of brandIds) {
      const channels = await links.createShortLinks(affiliateId, { organizationId, type: 'BrandPage' });
      for (const url of channels.flatMap((c) => c.shortUrls)) {
        const target = await stores.links.findRedirectTarget(url.slice(url.lastIndexOf('/') + 1));
        if (!target) continue;
        for (let day = 0; day < DAYS; day++) {
          // Busier towards today, as a link that is being shared.
          const visits = rnd.int(0, 2 + Math.round((6 * (DAYS - day)) / DAYS));
          for (let v = 0; v < visits; v++) {
            const at = now - day * 24 * HOUR - rnd.int(0, 23) * HOUR - rnd.int(0, 3_599_999);
            const visitor = VISITORS[rnd.int(0, VISITORS.length - 1)]!;
            clicks.push({
              id: newClickId(at),
              link_id: target.linkId,
              affiliate_id: target.affiliateId,
              channel_id: target.channelId,
              organization_id: target.brandId,
              mdasc: target.mdasc,
              created_at: new Date(at).toISOString(),
              is_bot: 0,
              is_head: 0,
              is_repeat: 0,
              is_suspicious: 0,
              counted: 1,
              visitor_hash: createHash('sha256').update(`demo-visitor-${rnd.int(0, 1_000_000)}`).digest('hex'),
              user_agent: null,
              ...visitor,
            });
          }
        }
      }
    }
  }
  // In time order, as the click writer appends them.
  clicks.sort((a, b) => (a.id < b.id ? -1 : 1));
  await stores.clicks.write(clicks);
  return clicks.length;
}
