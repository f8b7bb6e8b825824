// A change as a person reads it: each field an order's history or the audit trail names, by its
// label on the pages, and each value in words (money as money, times as times, codes as the words
// the pages use for them). The brand's order history and the audit trail share it, so a field is
// worded once.
import { useMessages } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { COMMISSION_REASON_MESSAGES, statusMessage } from '../statuses.js';
import { useHoldReasonText } from './hold-reasons.js';
import { percentText } from './network-terms.js';

/** Each field a change names, in words. */
const FIELDS: Record<string, MessageKey> = {
  created: 'conversion.field.created',
  status: 'conversion.field.status',
  commissionStatus: 'conversion.field.commissionStatus',
  value: 'orders.value',
  items: 'conversion.field.items',
  commission: 'orders.commission',
  commissionReason: 'conversion.field.commissionReason',
  lockAt: 'conversion.lockAt',
  source: 'conversion.field.source',
  affiliateId: 'conversions.affiliate',
  clickId: 'conversion.field.clickId',
  createdAt: 'conversion.field.createdAt',
  holdReasons: 'conversion.field.holdReasons',
  amount: 'change.field.amount',
  paidAmount: 'change.field.paidAmount',
  total: 'change.field.total',
  fee: 'change.field.fee',
  lineCount: 'change.field.lineCount',
  dueAt: 'change.field.dueAt',
  reference: 'change.field.reference',
  payouts: 'change.field.payouts',
  order: 'change.field.order',
  totp: 'change.field.totp',
  passkeys: 'change.field.passkeys',
  expiresAt: 'change.field.expiresAt',
  feeBasisPoints: 'change.field.feeBasisPoints',
  dueDays: 'change.field.dueDays',
};

/** How an order reached the network, in words. */
const SOURCES: Record<string, MessageKey> = {
  api: 'conversion.source.api',
  postback: 'conversion.source.postback',
  tag: 'conversion.source.tag',
  pixel: 'conversion.source.pixel',
  claim: 'conversion.source.claim',
};

/** The statuses of what else the trail records (statements), beside the orders' and commissions'. */
const OTHER_STATUSES: Record<string, MessageKey> = { open: 'statements.open', overdue: 'statements.overdue' };

const MONEY = new Set(['value', 'commission', 'amount', 'paidAmount', 'total', 'fee']);
const TIMES = new Set(['createdAt', 'lockAt', 'dueAt', 'expiresAt']);

/** What a value belongs to, for the fields whose words need it. */
export interface ChangeContext {
  currency?: string | undefined;
  /** A held order's times: the seconds from click to order, for its hold reason. */
  clickedAt?: string | undefined;
  createdAt?: string | undefined;
}

export function useChangeWords() {
  const { t, money, number, locale } = useMessages();
  const reasonText = useHoldReasonText();
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  return {
    /** The field's label on the pages; undefined for one no page names (it stays in the raw entry). */
    label: (field: string): string | undefined => (FIELDS[field] ? t(FIELDS[field]) : undefined),
    /** A value in words; an order history's values come as text, the audit trail's as JSON. */
    value(field: string, value: unknown, context: ChangeContext = {}): string {
      if (value === undefined || value === null || value === '') return '—';
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (MONEY.has(field) && Number.isFinite(Number(value))) return context.currency ? money(Number(value), context.currency) : number(Number(value) / 100);
      if (field === 'status' || field === 'commissionStatus' || field === 'created') {
        if (text === 'held') return t('hold.status');
        const key = statusMessage(text) ?? OTHER_STATUSES[text];
        return key ? t(key) : field === 'created' ? t('conversion.reported') : text;
      }
      if (field === 'items') return t('conversion.itemsCount', { count: Array.isArray(value) ? value.length : typeof value === 'number' ? value : (JSON.parse(text) as unknown[]).length });
      // To the second: an order's time is corrected by seconds (the server's time against the tag's).
      if (TIMES.has(field)) return Number.isNaN(Date.parse(text)) ? text : moment.format(new Date(text));
      if (field === 'source') return SOURCES[text] ? t(SOURCES[text]) : text;
      if (field === 'commissionReason') {
        const key = (COMMISSION_REASON_MESSAGES as Partial<Record<string, MessageKey>>)[text];
        return key ? t(key) : text;
      }
      if (field === 'holdReasons') {
        const reasons = (Array.isArray(value) ? value : JSON.parse(text)) as string[];
        return reasons.length === 0 ? t('hold.none') : reasons.map((reason) => reasonText(reason, { clickedAt: context.clickedAt, createdAt: context.createdAt ?? '' })).join('; ');
      }
      if (field === 'feeBasisPoints') return percentText(Number(value), locale);
      if (typeof value === 'boolean') return t(value ? 'change.yes' : 'change.no');
      if (typeof value === 'number') return number(value);
      return text;
    },
  };
}
