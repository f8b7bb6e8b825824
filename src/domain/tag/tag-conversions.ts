// Conversions from the shop's own pages: the first-party tag (POST /track/conversions) and the
// pixel (GET /track/pixel.gif), with the brand's publishable key. The key is public (it sits in
// the shop's pages), so what it may report is narrow: an order of a click of that brand stored
// within its attribution window, or with a code the brand gave one of its affiliates, sent from
// one of the brand's domains when the browser says where from. Such an order waits for the brand's confirmation (src/domain/orders/order-locks.ts), and
// the brand's server reporting the same order takes it over, whatever hold it has (ConversionsService). Every report
// that names a known key is kept for a few days, accepted or refused with why, so a brand can
// test its install; one with a test's click id is the test's, never an order (./tag-tests.ts).
import type { Clock } from '../../lib/clock.js';
import type { PublishableKeyOwner, TagInstallRepository } from '../../storage/repositories/tag-install.js';
import type { TagReportRow } from '../../storage/tables.js';
import { checkItems, type ConversionsService, type ReportedItem } from '../orders/conversions.js';
import { DomainError, forbidden, invalid, unacceptable } from '../errors.js';
import { brandDomains, onDomains } from '../links/link-rules.js';
import { hostOf } from '../urls.js';
import { newId } from '../random.js';
import type { ReportDetail } from './tag-reports.js';

export type PageSource = 'tag' | 'pixel';

/** One order as the tag or the pixel sends it. */
export interface PageReport {
  key: string;
  orderId: string;
  /** Integer cents. */
  value: number;
  currency?: string | undefined;
  items?: ReportedItem[] | undefined;
  clickId?: string | undefined;
  coupon?: string | undefined;
  customer?: { isNew?: boolean | undefined; emailHash?: string | undefined } | undefined;
}

/** Where a report came from, as the request says. */
export interface ReportOrigin {
  /** The page's origin (the Origin header, else the Referer's), when the browser sent one. */
  origin?: string | undefined;
  address: string;
}

export class TagConversions {
  constructor(
    private readonly repositories: { tagInstall: TagInstallRepository },
    private readonly conversions: ConversionsService,
    private readonly clock: Clock,
  ) {}

  /**
   * Records an order the shop's pages reported. The answer is `recorded` whether the order is new
   * or was reported before (by the pages or the brand's server, which nothing changes): the key is
   * public, and its answers must not tell which order ids exist (`known` is for the network's own
   * metrics). Refusals throw, as every report does, with their reason, checked alike for a new and
   * a known order.
   */
  async report(source: PageSource, report: PageReport, from: ReportOrigin): Promise<{ orderId: string; outcome: 'recorded'; known: boolean; test: boolean }> {
    const { tagInstall } = this.repositories;
    const owner = await tagInstall.ownerOf(report.key);
    if (!owner) throw forbidden('invalid_publishable_key', 'the key is no publishable key of a brand (or was replaced): copy the snippet again from the brand’s Tag page');
    // A test's click id: checked as any report, kept as the test's, never an order.
    const test = report.clickId !== undefined ? await tagInstall.testOf(owner.brand_id, report.clickId) : undefined;
    const read: ReportDetail = {
      value: report.value,
      ...(report.currency !== undefined && { currency: report.currency.toUpperCase() }),
      ...(report.coupon !== undefined && { coupon: report.coupon }),
      ...(report.items !== undefined && { items: report.items.length }),
    };
    try {
      this.check(owner, report, from);
      if (test) {
        // What a real order would be refused for, the test is too: a test passes only where an order would.
        checkItems(report.items ?? [], report.value);
        await this.keep(owner.brand_id, source, report.orderId, from, undefined, read, test.id);
        return { orderId: report.orderId, outcome: 'recorded', known: false, test: true };
      }
      const { created } = await this.conversions.report(
        { brandId: owner.brand_id, address: from.address },
        { clickId: report.clickId, coupon: report.coupon, orderId: report.orderId, value: report.value, items: report.items ?? [], source, customer: report.customer },
      );
      await this.keep(owner.brand_id, source, report.orderId, from, undefined, read, null);
      return { orderId: report.orderId, outcome: 'recorded', known: !created, test: false };
    } catch (error) {
      if (error instanceof DomainError) await this.keep(owner.brand_id, source, report.orderId, from, error, read, test?.id ?? null);
      throw error;
    }
  }

  /** The tag announced a test link's landing (the key's brand's test, else nothing), from `from`'s page. */
  async visited(key: string, clickId: string, from: ReportOrigin): Promise<void> {
    const owner = await this.repositories.tagInstall.ownerOf(key);
    if (!owner) throw forbidden('invalid_publishable_key', 'the key is no publishable key of a brand (or was replaced): copy the snippet again from the brand’s Tag page');
    await this.repositories.tagInstall.markVisit(owner.brand_id, clickId, this.clock.iso(), from.origin?.slice(0, 300) ?? null);
  }

  private check(owner: PublishableKeyOwner, report: PageReport, from: ReportOrigin): void {
    if (from.origin !== undefined) {
      const host = hostOf(from.origin);
      const domains = brandDomains(owner);
      if (!host || !onDomains(host, domains)) {
        throw forbidden('origin_not_allowed', `reports with this key are accepted from the brand’s domains only (${domains.join(', ')}), not from ${from.origin}`, { origin: from.origin.slice(0, 300), domains });
      }
    }
    if (owner.suspended_at) throw forbidden('brand_suspended', 'the network has suspended this brand: its conversions are not recorded');
    if (report.currency !== undefined && report.currency.toUpperCase() !== owner.currency) {
      throw unacceptable('currency_mismatch', `the brand’s amounts are in ${owner.currency}, not ${report.currency}: send value in ${owner.currency} cents`, { currency: report.currency, expected: owner.currency });
    }
    if (report.clickId === undefined && report.coupon === undefined) {
      throw invalid('click_or_coupon_required', 'neither a click id nor a coupon: the visitor did not come through an affiliate’s link within the attribution window (or the tag was not on the landing page), and used no code');
    }
  }

  private async keep(brandId: string, source: PageSource, orderId: string, from: ReportOrigin, refusal: DomainError | undefined, read: ReportDetail, testId: string | null): Promise<void> {
    const detail: ReportDetail = { ...read, ...(refusal && { code: refusal.code, ...(refusal.details && { details: refusal.details }) }) };
    const row: TagReportRow = {
      id: newId(),
      brand_id: brandId,
      source,
      order_id: orderId.slice(0, 200),
      outcome: refusal ? 'refused' : 'accepted',
      reason: refusal ? `${refusal.code}: ${refusal.message}`.slice(0, 500) : null,
      origin: from.origin?.slice(0, 300) ?? null,
      created_at: this.clock.iso(),
      test_id: testId,
      detail: JSON.stringify(detail),
    };
    await this.repositories.tagInstall.addReport(row);
  }
}
