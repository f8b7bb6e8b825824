// Which affiliate a brand's order goes to, and why: the click it reports, the coupon code the
// customer used, or both. Every way an order arrives from a brand (the API, the postback, a tag or
// pixel of the brand's site) decides it here.
//
// - A click alone: the click's affiliate, if the order was placed after the click and within the
//   brand's attribution window (else refused, as it always was).
// - A coupon alone: the affiliate the brand gave the code (PUT /advertiser/coupons/{code}); a code
//   no affiliate has is refused.
// - Both: a click that cannot earn the order (placed before it, or past the window) gives way to a
//   registered code; when both could, the brand's attributionPriority decides (coupon by default).
//   An unregistered code beside a click changes nothing: the click decides.
// The click id is checked whenever it is given (it must be a click on the brand's links) and kept
// on the order whoever wins; the click's link, channel and time go with the order only when the
// click is its affiliate's.
import type { Clock } from '../../lib/clock.js';
import type { BrandRow, ClickRow, CouponRow, NewClickRow } from '../../storage/tables.js';
import type { ClicksRepository } from '../../storage/repositories/clicks.js';
import type { CouponsRepository } from '../../storage/repositories/coupons.js';
import { clickIdTime } from '../../lib/click-id-time.js';
import { invalid, notFound, notYet, unacceptable } from '../errors.js';
import { couponKeyOf } from './coupon-codes.js';

export interface ClickSource {
  /**
   * Clicks not yet written, so a conversion right after its click still finds it, with the flags
   * the click will be stored with (deciding them first if they are not yet).
   */
  bufferedClick(clickId: string): Promise<NewClickRow | undefined>;
}

export const ATTRIBUTION_PRIORITIES = ['coupon', 'click'] as const;
export type AttributionPriority = (typeof ATTRIBUTION_PRIORITIES)[number];

export type AttributionBrand = Pick<BrandRow, 'id' | 'attribution_window_days' | 'attribution_priority'>;

export interface AttributionInput {
  clickId?: string | undefined;
  /** The coupon code the customer used, as the brand reports it. */
  coupon?: string | undefined;
  /**
   * The order's time (ISO 8601): the click must precede it, within the attribution window. None: the
   * order is known already (a claim recorded it) and only who gets it is asked.
   */
  orderTime?: string;
}

export interface Attributed {
  affiliateId: string;
  attribution: 'click' | 'coupon';
  /** The click id reported (checked: a click on the brand's links), whoever got the order. */
  clickId?: string;
  /** The reported click when it is the affiliate's: its link, channel, time and country go with the order. */
  click?: ClickRow | NewClickRow;
  /** The code as reported, its key, and the affiliate the brand gave it (none: no affiliate has it). */
  coupon?: { code: string; key: string; affiliateId?: string };
}

const CLICK_ID = /^[0-9a-f]{32}$/;
/** How long after its time an unknown click id is answered "not stored yet" (503) rather than 404. */
export const PENDING_CLICK_MS = 10 * 60_000;
/** Instances' clocks may differ by this much: a click id a little ahead of this clock is recent too. */
const CLOCK_SKEW_MS = 60_000;
const DAY_MS = 86_400_000;
/** How often an unknown recent click id is looked up again while another instance may still hold it. */
const CLICK_LOOKUP_EVERY_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Attribution {
  constructor(
    private readonly repositories: { clicks: ClicksRepository; coupons: CouponsRepository },
    private readonly clickSource: ClickSource,
    private readonly clock: Clock,
    /**
     * How long a click may wait in another instance's buffer before it is written: an unknown
     * click id is looked up again every 100 ms for this long before the report is refused (0 alone).
     */
    private readonly clickWriteDelayMs: number,
  ) {}

  /** The click with this id on the brand's links (404 for another brand's or none; 503 for a recent one not stored yet). */
  async clickOf(clickId: string, brandId: string): Promise<ClickRow | NewClickRow> {
    const { clicks } = this.repositories;
    let click = (await this.clickSource.bufferedClick(clickId)) ?? (await clicks.find(clickId));
    const age = this.clock.now() - (CLICK_ID.test(clickId) ? clickIdTime(clickId) : Number.NaN);
    const recent = age >= -CLOCK_SKEW_MS && age <= PENDING_CLICK_MS;
    if (!click && recent && this.clickWriteDelayMs > 0) {
      // Looked up again and again, not once at the end: the click is usually written within the
      // flush interval, and a busy instance may take seconds more.
      const until = Date.now() + this.clickWriteDelayMs;
      while (!click && Date.now() < until) {
        await sleep(Math.min(CLICK_LOOKUP_EVERY_MS, until - Date.now()));
        click = await clicks.find(clickId);
      }
    }
    // Another brand's click answers as an unknown one does: a brand learns nothing of it.
    const notYours = () => notFound(`clickId "${clickId}" is not a click on your links`, 'click_not_found');
    if (click) {
      if (click.organization_id !== brandId) throw notYours();
      return click;
    }
    // A click answered while the database was out waits in its instance's buffer until it can be
    // written: a recent id may be stored in a moment, so the brand is asked to retry, not told it
    // is no click.
    if (recent) {
      throw notYet('click_not_stored_yet', `clickId "${clickId}" is not stored yet (a click can wait a few minutes to be stored while the database is unavailable): retry after Retry-After; if it is still not stored ${PENDING_CLICK_MS / 60_000} minutes after the click, it is no click on your links`);
    }
    throw notYours();
  }

  /** The affiliate the order goes to, and why (see the rules above). */
  async decide(brand: AttributionBrand, input: AttributionInput): Promise<Attributed> {
    const code = input.coupon?.trim() || undefined;
    if (input.clickId === undefined && code === undefined) {
      throw invalid('click_or_coupon_required', 'give clickId (the click your site received), coupon (the code the customer used) or both');
    }
    const coupon = code === undefined ? undefined : await this.couponOf(brand.id, code);
    const registered = coupon?.affiliateId !== undefined ? (coupon as Required<NonNullable<typeof coupon>>) : undefined;
    if (input.clickId === undefined) {
      if (!registered) throw unacceptable('coupon_not_registered', `coupon "${code}" is not a code you gave an affiliate (PUT /advertiser/coupons/{code}): give it to the affiliate first, or report the order with its clickId`);
      return { affiliateId: registered.affiliateId, attribution: 'coupon', coupon: registered };
    }

    const click = await this.clickOf(input.clickId, brand.id);
    const unfit = input.orderTime === undefined ? undefined : clickUnfit(click, input.orderTime, brand.attribution_window_days);
    const byCoupon = registered !== undefined && (unfit !== undefined || brand.attribution_priority !== 'click');
    if (byCoupon) {
      const own = click.affiliate_id === registered.affiliateId && unfit === undefined;
      return { affiliateId: registered.affiliateId, attribution: 'coupon', clickId: click.id, ...(own && { click }), coupon: registered };
    }
    if (unfit) throw unfit;
    return { affiliateId: click.affiliate_id, attribution: 'click', clickId: click.id, click, ...(coupon && { coupon }) };
  }

  private async couponOf(brandId: string, code: string): Promise<NonNullable<Attributed['coupon']>> {
    const key = couponKeyOf(code);
    const row: CouponRow | undefined = await this.repositories.coupons.find(brandId, key);
    return { code, key, ...(row && { affiliateId: row.affiliate_id }) };
  }
}

/** Why the click cannot earn an order placed at `orderTime`, if it cannot. */
function clickUnfit(click: Pick<ClickRow, 'created_at'>, orderTime: string, windowDays: number) {
  if (orderTime < click.created_at) return unacceptable('invalid_order_time', `createdAt is before the click (${click.created_at})`);
  if (Date.parse(orderTime) - Date.parse(click.created_at) > windowDays * DAY_MS) {
    return unacceptable('click_expired', `the click is older than the attribution window of ${windowDays} days`);
  }
  return undefined;
}
