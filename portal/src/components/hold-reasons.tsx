// Why the network holds an order for its fraud review, in words the brand can follow: each rule
// the order tripped, with the figure the brand can see in its own order where there is one (the
// time from the click to the order). The network keeps its limits to itself, so none is shown.
import { useMessages } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import type { components } from '../../../packages/client/index.js';

type Conversion = components['schemas']['Conversion'];
export type HoldReason = NonNullable<Conversion['holdReasons']>[number];

export const HOLD_REASON_MESSAGES: Record<HoldReason, MessageKey> = {
  click_to_order_too_fast: 'hold.reason.click_to_order_too_fast',
  self_referral: 'hold.reason.self_referral',
  conversion_rate: 'hold.reason.conversion_rate',
  conversions_per_click: 'hold.reason.conversions_per_click',
  datacenter_traffic: 'hold.reason.datacenter_traffic',
};

/** Whether the network is reviewing the order now (its commission is held). */
export const isHeld = (conversion: Pick<Conversion, 'commissionStatus'>) => conversion.commissionStatus === 'held';

/** One reason in words; the seconds from click to order when the order has both times. */
export function useHoldReasonText(): (reason: string, conversion: Pick<Conversion, 'clickedAt' | 'createdAt'>) => string {
  const { t, locale } = useMessages();
  const seconds = new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 1 });
  return (reason, conversion) => {
    if (reason === 'click_to_order_too_fast' && conversion.clickedAt) {
      const elapsed = (Date.parse(conversion.createdAt) - Date.parse(conversion.clickedAt)) / 1000;
      if (elapsed >= 0) return t('hold.reason.clickToOrderIn', { seconds: seconds.format(elapsed) });
    }
    const key = (HOLD_REASON_MESSAGES as Partial<Record<string, MessageKey>>)[reason];
    return key ? t(key) : t('hold.reason.other');
  };
}

/** The reasons of a held order, one per line. */
export function HoldReasons({ conversion }: { conversion: Pick<Conversion, 'holdReasons' | 'clickedAt' | 'createdAt' | 'orderId'> }) {
  const text = useHoldReasonText();
  const reasons = conversion.holdReasons ?? [];
  if (reasons.length === 0) return null;
  return (
    <ul class="reasons" data-testid={`hold-reasons-${conversion.orderId}`}>
      {reasons.map((reason) => (
        <li key={reason}>{text(reason, conversion)}</li>
      ))}
    </ul>
  );
}
