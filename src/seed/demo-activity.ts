// Recent activity for the demo: each demo affiliate's links to the brands it sells most for, a
// month of visits to them up to now, and the orders the brands report on some of those visits.
// The orders of the demo data set are history (they end before the day the demo is seeded); this
// activity gives the portal's overview, analytics and a brand's list of affiliates clicks, orders
// and commissions of the last 30 days to show on the first start.
import { createHash } from 'node:crypto';
import type { LinksService } from '../domain/links/links-service.js';
import { newClickId } from '../domain/links/click-ids.js';
import { ConversionsService, type ConversionRepositories } from '../domain/orders/conversions.js';
import type { OrderItem } from '../schemas/order.js';
import { ManualClock } from '../lib/clock.js';
import type { NewClickRow } from '../storage/tables.js';
import type { DemoOrder } from './demo-data.js';
import { SeededRandom } from './seeded-random.js';

/** What writing the activity needs beside the links service: the stored links, the clicks, and what reporting orders reads and writes. */
export type ActivityStores = ConversionRepositories;

/** What the activity is made of besides the links: who links to which brands, and what their customers buy. */
export interface ActivityPlan {
  /** The brands each affiliate links to, by affiliate, in the order to seed them. */
  brandsByAffiliate: ReadonlyMap<string, readonly string[]>;
  /** Orders of the demo data set: a recent order buys what one of them bought from the same brand. */
  pastOrders: readonly DemoOrder[];
  /** Each brand's short tag, the prefix of its order ids. */
  brandTags: ReadonlyMap<string, string>;
}

/** Orders reported on each affiliate's recent clicks: one in each two days of the month. */
export const RECENT_ORDERS_PER_AFFILIATE = 15;

const DAYS = 30;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
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
 * Links of each affiliate (a brand-page link per channel) to its brands, then visits to them
 * spread over the 30 days up to `now`, more on recent days, then the orders of some of those
 * visits. Returns how many clicks and orders were written.
 */
export async function seedActivity(links: Pick<LinksService, 'createShortLinks'>, stores: ActivityStores, plan: ActivityPlan, now: number): Promise<{ clicks: number; orders: number }> {
  const { brandsByAffiliate } = plan;
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
              is_suspended: 0,
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
  await stores.clicks.sumAllStored();
  const orders = await reportOrders(stores, plan, clicks, now);
  return { clicks: clicks.length, orders };
}

/**
 * The brands report orders on the affiliates' clicks as they would through the API: each through
 * the conversions service at its own time (a clock set to it), so it is attributed to the click's
 * link, channel and country, its commission computed in cents by the brand's rule, and it is
 * added to the rollups the overview and analytics read. Orders older than a week are mostly
 * settled by their brand a few days after: approved, or now and then canceled.
 */
async function reportOrders(stores: ActivityStores, plan: ActivityPlan, clicks: readonly NewClickRow[], now: number): Promise<number> {
  const rnd = new SeededRandom(0x0d3e2c0e);
  const clock = new ManualClock(now);
  // The clicks are in the database already: nothing is buffered.
  const conversions = new ConversionsService(stores, { bufferedClick: async () => undefined }, clock, 0);
  const baskets = new Map<string, Array<{ items: OrderItem[]; value: number }>>();
  for (const order of plan.pastOrders) {
    const list = baskets.get(order.organization_id) ?? [];
    list.push({ items: JSON.parse(order.items) as OrderItem[], value: order.value });
    baskets.set(order.organization_id, list);
  }
  const reports: Array<{ at: number; brandId: string; clickId: string; orderId: string; basket: { items: OrderItem[]; value: number } }> = [];
  const settlements: Array<{ at: number; brandId: string; orderId: string; status: 'approved' | 'canceled' }> = [];
  [...plan.brandsByAffiliate.keys()].forEach((affiliateId, a) => {
    const own = clicks.filter((c) => c.affiliate_id === affiliateId && baskets.has(c.organization_id));
    if (own.length === 0) return;
    for (let k = 0; k < RECENT_ORDERS_PER_AFFILIATE; k++) {
      // A click of the k-th stretch of two days (the oldest first), or the nearest one to it.
      const from = now - (DAYS - 2 * k) * DAY;
      const inStretch = own.filter((c) => Date.parse(c.created_at) >= from && Date.parse(c.created_at) < from + 2 * DAY);
      const nearest = () => own.reduce((best, c) => (Math.abs(Date.parse(c.created_at) - from - DAY) < Math.abs(Date.parse(best.created_at) - from - DAY) ? c : best));
      const click = inStretch.length > 0 ? rnd.pick(inStretch) : nearest();
      // Bought within a few hours of the visit, never after now.
      const at = Math.min(now, Date.parse(click.created_at) + rnd.int(2, 360) * MINUTE);
      const orderId = `${plan.brandTags.get(click.organization_id) ?? 'DEMO'}-${a + 1}9${String(k + 1).padStart(3, '0')}`;
      reports.push({ at, brandId: click.organization_id, clickId: click.id, orderId, basket: rnd.pick(baskets.get(click.organization_id)!) });
      if (now - at > 7 * DAY) {
        // Of five settled orders, three approved, one canceled, one still pending: every status shows.
        const status = (['approved', 'approved', 'canceled', 'approved', undefined] as const)[k % 5];
        if (status) settlements.push({ at: Math.min(now, at + rnd.int(2, 7) * DAY), brandId: click.organization_id, orderId, status });
      }
    }
  });
  let reported = 0;
  for (const r of reports.sort((x, y) => x.at - y.at)) {
    clock.set(r.at);
    const { created } = await conversions.report({ brandId: r.brandId }, { clickId: r.clickId, orderId: r.orderId, value: r.basket.value, items: r.basket.items, createdAt: new Date(r.at).toISOString() });
    if (created) reported++;
  }
  for (const s of settlements.sort((x, y) => x.at - y.at)) {
    clock.set(s.at);
    await conversions.update({ brandId: s.brandId }, s.orderId, { status: s.status });
  }
  return reported;
}
