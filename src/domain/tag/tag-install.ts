// The brand's tag install: its publishable key (made and replaced), the snippet's parts, and what
// the tag and the pixel sent lately with it (kept TAG_REPORT_DAYS), so the brand can test it.
import type { Clock } from '../../lib/clock.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { TagInstallRepository } from '../../storage/repositories/tag-install.js';
import { newId, randomBase62 } from '../random.js';
import { notFound } from '../errors.js';
import { reportOf, type TagReportView } from './tag-reports.js';
import { TAG_SCRIPT } from './tag-script.js';
import { shopifyPixel } from './shopify-pixel.js';

export const PUBLISHABLE_KEY_PREFIX = 'afpub_';
/** How long the tag's reports are kept for the brand's install check. */
export const TAG_REPORT_DAYS = 7;
/** How many of them the install check shows. */
const SHOWN_REPORTS = 20;
const DAY_MS = 86_400_000;

export interface TagInstall {
  /** Absent until the brand makes one. */
  publishableKey?: string;
  scriptUrl: string;
  integrity: string;
  clickIdParam: string;
  attributionWindowDays: number;
  trustTagConversions: boolean;
  /** What to paste, once there is a key. */
  snippets?: { everyPage: string; orderPage: string; pixel: string; shopifyPixel: string };
  reports: TagReportView[];
  /** Orders only the shop's pages reported that wait for the brand's confirmation, and when the first of them is canceled (not when it trusts its tag). */
  awaitingConfirmation?: { orders: number; firstCancelAt?: string };
}

export class TagInstallService {
  constructor(
    private readonly repositories: { tagInstall: TagInstallRepository; brands: BrandsRepository },
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /** What the brand's install page shows: the key, the snippet's parts, the latest reports. */
  async install(brandId: string): Promise<TagInstall> {
    const { tagInstall, brands } = this.repositories;
    const [key, brand, reports, waiting] = await Promise.all([
      tagInstall.activeKeyOf(brandId),
      brands.find(brandId),
      tagInstall.latestReports(brandId, SHOWN_REPORTS),
      tagInstall.awaitingConfirmation(brandId, this.clock.iso()),
    ]);
    const scriptUrl = `${this.publicUrl}/tag.js?v=${TAG_SCRIPT.version}`;
    const clickIdParam = brand?.click_id_param ?? 'clickId';
    const attributionWindowDays = brand?.attribution_window_days ?? 30;
    return {
      ...(key && { publishableKey: key, snippets: this.snippets(key, scriptUrl, clickIdParam, attributionWindowDays) }),
      scriptUrl,
      integrity: TAG_SCRIPT.integrity,
      clickIdParam,
      attributionWindowDays,
      trustTagConversions: brand?.trust_tag_conversions === 1,
      ...(brand?.trust_tag_conversions !== 1 && { awaitingConfirmation: { orders: waiting.orders, ...(waiting.firstLockAt !== null && { firstCancelAt: waiting.firstLockAt }) } }),
      reports: reports.map(reportOf),
    };
  }

  /** The snippet for every page (it queues the settings, then loads the tag), the order page's call, and the pixel. */
  private snippets(key: string, scriptUrl: string, param: string, days: number): NonNullable<TagInstall['snippets']> {
    const settings = JSON.stringify({ key, param, days });
    return {
      everyPage:
        `<script>window.affnet=window.affnet||function(){(affnet.q=affnet.q||[]).push(arguments)};affnet('init',${settings});</script>\n` +
        // No integrity attribute: a pasted snippet outlives the tag's version, and the hash of an
        // older one would block every newer tag its address then serves.
        `<script async src="${scriptUrl}"></script>`,
      orderPage: `<script>affnet('conversion',{orderId:'ORDER_ID',value:VALUE_IN_CENTS,currency:'CURRENCY'});</script>`,
      pixel: `<img src="${this.publicUrl}/track/pixel.gif?pk=${key}&amp;orderId=ORDER_ID&amp;value=VALUE_IN_CENTS&amp;clickId=CLICK_ID" width="1" height="1" alt="">`,
      shopifyPixel: shopifyPixel({ key, param, days, publicUrl: this.publicUrl }),
    };
  }

  /** Makes a new publishable key for the brand; the one it had stops working at once. */
  async replaceKey(brandId: string): Promise<string> {
    if (!(await this.repositories.brands.find(brandId))) throw notFound(`no brand ${brandId}`, 'brand_not_found');
    const key = PUBLISHABLE_KEY_PREFIX + randomBase62(24);
    await this.repositories.tagInstall.replaceKey({ id: newId(), brand_id: brandId, key, created_at: this.clock.iso() });
    return key;
  }

  /** Forgets reports older than TAG_REPORT_DAYS; how many. */
  forgetOldReports(): Promise<number> {
    return this.repositories.tagInstall.deleteReportsBefore(new Date(this.clock.now() - TAG_REPORT_DAYS * DAY_MS).toISOString());
  }
}
