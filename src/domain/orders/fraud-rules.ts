// The fraud rules a conversion is checked against when a brand reports it (the API, the postback,
// any path that records an order from a click). Each rule has its threshold in an environment
// variable (src/config.ts); a conversion that trips any is stored with its commission held and
// the names of the rules it tripped. The rules' numbers are kept for the operator's review alone.
// See docs/decisions.md, "Fraud holds".
import { createHash, createHmac } from 'node:crypto';
import type { HoldReason } from '../../schemas/order.js';
import type { HoldsRepository } from '../../storage/repositories/holds.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import { dayOf } from '../../lib/rollup-layout.js';

export interface FraudSettings {
  /** A conversion sooner than this after its click is held; 0: off (FRAUD_MIN_CLICK_TO_ORDER_SECONDS). */
  minClickToOrderSeconds: number;
  /** An affiliate's conversions per counted click on one brand within a UTC day above this (basis points) is held; 0: off. */
  maxConversionRateBp: number;
  /** The counted clicks (that day) from which the rate and data-centre rules apply (FRAUD_MIN_CLICKS). */
  minClicks: number;
  /** More conversions than this on one click are held; 0: off. */
  maxConversionsPerClick: number;
  /** A share of an affiliate's counted clicks of the day from data-centre networks above this (basis points) is held; 0: off. */
  maxDatacenterShareBp: number;
  /** The data-centre networks; null (no ASN database or no list): the data-centre rule is off. */
  datacenterAsns: ReadonlySet<number> | null;
}

/** No rule on: what tools that replay known orders use (the demo data). */
export const NO_FRAUD_RULES: FraudSettings = { minClickToOrderSeconds: 0, maxConversionRateBp: 0, minClicks: 1, maxConversionsPerClick: 0, maxDatacenterShareBp: 0, datacenterAsns: null };

/** One tripped rule with its numbers, for the operator (never shown to the affiliate or the brand). */
export type RuleFact =
  | { rule: 'click_to_order_too_fast'; seconds: number; minimumSeconds: number }
  | { rule: 'self_referral' }
  | { rule: 'conversion_rate'; day: string; conversions: number; countedClicks: number; rateBp: number; maximumBp: number; minimumClicks: number }
  | { rule: 'conversions_per_click'; conversions: number; maximum: number }
  | { rule: 'datacenter_traffic'; day: string; datacenterClicks: number; countedClicks: number; shareBp: number; maximumBp: number; minimumClicks: number };

/** What orders.hold_facts keeps: the rules tripped, and the operator's decision once made. */
export interface HoldFacts {
  rules: RuleFact[];
  heldAt: string;
  resolution?: { outcome: 'released' | 'declined'; at: string; by: string; reason?: string };
}

export interface ConversionFacts {
  affiliateId: string;
  brandId: string;
  /** The click that earned the order; none for an order a coupon earned (the rules about clicks do not apply). */
  click?: { id: string; created_at: string };
  /** The order's time (ISO 8601). */
  orderTime: string;
  /** customer.emailHash as the brand sent it (64 hex digits), if it did. */
  emailHash?: string | undefined;
  /** The HMAC of the customer an order stored already keeps, judged when no emailHash is sent. */
  customerHash?: string | null | undefined;
  /** The network id of an order stored already that is judged again: it is not counted twice. */
  storedOrderId?: string | undefined;
}

export interface Verdict {
  reasons: HoldReason[];
  facts: RuleFact[];
  /** The HMAC of emailHash to store (never the value itself); null without one. */
  customerHash: string | null;
}

const DAY_MS = 86_400_000;
const BP = 10_000;

/** The basis points of part/whole, rounded down (for the operator's reading; the rules compare exactly). */
const bp = (part: number, whole: number) => Math.floor((part * BP) / whole);

/** sha256 hex of an address as emailHash defines it: trimmed, lowercased. */
export const emailHashOf = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest('hex');

export class FraudRules {
  constructor(
    private readonly repositories: { holds: HoldsRepository; users: Pick<UsersRepository, 'listOf'> },
    private readonly settings: FraudSettings,
    /** The installation's salt (the visitor salt), which keys the HMAC of customers' addresses. */
    private readonly salt: () => Promise<string>,
  ) {}

  private async hmac(value: string): Promise<string> {
    return createHmac('sha256', await this.salt()).update(value.toLowerCase()).digest('hex');
  }

  async evaluate(conversion: ConversionFacts): Promise<Verdict> {
    const { settings } = this;
    const facts: RuleFact[] = [];
    const customerHash = conversion.emailHash ? await this.hmac(conversion.emailHash) : (conversion.customerHash ?? null);
    const day = dayOf(conversion.orderTime);
    const nextDay = new Date(Date.parse(day) + DAY_MS).toISOString();

    const { click } = conversion;
    const elapsedMs = click ? Date.parse(conversion.orderTime) - Date.parse(click.created_at) : Number.POSITIVE_INFINITY;
    if (click && settings.minClickToOrderSeconds > 0 && elapsedMs < settings.minClickToOrderSeconds * 1000) {
      facts.push({ rule: 'click_to_order_too_fast', seconds: Math.max(0, elapsedMs) / 1000, minimumSeconds: settings.minClickToOrderSeconds });
    }

    if (customerHash !== null && (await this.isAffiliatesOwn(conversion.affiliateId, customerHash))) facts.push({ rule: 'self_referral' });

    const { holds } = this.repositories;
    if (click && settings.maxConversionRateBp > 0) {
      const countedClicks = await holds.countedClicksOfDay(conversion.affiliateId, conversion.brandId, day);
      if (countedClicks >= settings.minClicks) {
        // This conversion is not stored yet (or not counted as stored): it counts too.
        const conversions = (await holds.clickConversionsBetween(conversion.affiliateId, conversion.brandId, day, nextDay, conversion.storedOrderId)) + 1;
        if (conversions * BP > settings.maxConversionRateBp * countedClicks) {
          facts.push({ rule: 'conversion_rate', day: day.slice(0, 10), conversions, countedClicks, rateBp: bp(conversions, countedClicks), maximumBp: settings.maxConversionRateBp, minimumClicks: settings.minClicks });
        }
      }
    }

    if (click && settings.maxConversionsPerClick > 0) {
      const conversions = (await holds.conversionsOfClick(click.id, conversion.storedOrderId)) + 1;
      if (conversions > settings.maxConversionsPerClick) facts.push({ rule: 'conversions_per_click', conversions, maximum: settings.maxConversionsPerClick });
    }

    const datacenters = settings.datacenterAsns;
    if (click && datacenters !== null && settings.maxDatacenterShareBp > 0) {
      const countedClicks = await holds.countedClicksOfDay(conversion.affiliateId, undefined, day);
      if (countedClicks >= settings.minClicks) {
        const datacenterClicks = (await holds.countedClicksByNetwork(conversion.affiliateId, day)).reduce((sum, row) => sum + (datacenters.has(row.asn) ? row.counted : 0), 0);
        if (datacenterClicks * BP > settings.maxDatacenterShareBp * countedClicks) {
          facts.push({ rule: 'datacenter_traffic', day: day.slice(0, 10), datacenterClicks, countedClicks, shareBp: bp(datacenterClicks, countedClicks), maximumBp: settings.maxDatacenterShareBp, minimumClicks: settings.minClicks });
        }
      }
    }

    return { reasons: facts.map((f) => f.rule), facts, customerHash };
  }

  /** Whether the customer's address is one of the affiliate's users' (owners and members): only the fact is kept. */
  private async isAffiliatesOwn(affiliateId: string, customerHash: string): Promise<boolean> {
    const users = await this.repositories.users.listOf({ affiliateId });
    for (const user of users) if ((await this.hmac(emailHashOf(user.email))) === customerHash) return true;
    return false;
  }
}
