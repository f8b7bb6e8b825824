// What the tag and the pixel sent, as the brand reads it on its install page: accepted or refused,
// the refusal's code and details (the page words them), and what the report read of the order.
import type { TagReportRow } from '../../storage/tables.js';
import type { PageSource } from './tag-conversions.js';

/** What a report read of the order, and why it was refused: kept as the report's detail (JSON). */
export interface ReportDetail {
  value?: number;
  currency?: string;
  coupon?: string;
  /** How many lines it carried. */
  items?: number;
  code?: string;
  details?: Record<string, string | number | string[]>;
}

export interface TagReportView {
  at: string;
  source: PageSource;
  orderId?: string;
  outcome: 'accepted' | 'refused';
  /** The refusal's code and what to fix, in English (the API's words). */
  reason?: string;
  code?: string;
  details?: Record<string, string | number | string[]>;
  origin?: string;
  /** Sent with a test's click id: never an order. */
  test?: true;
  value?: number;
  currency?: string;
  coupon?: string;
  items?: number;
}

export function reportOf(row: TagReportRow): TagReportView {
  const detail = row.detail === null ? {} : (JSON.parse(row.detail) as ReportDetail);
  return {
    at: row.created_at,
    source: row.source as PageSource,
    ...(row.order_id !== null && { orderId: row.order_id }),
    outcome: row.outcome as 'accepted' | 'refused',
    ...(row.reason !== null && { reason: row.reason }),
    // Reports kept before codes were: the code is the reason's first word.
    ...(row.outcome === 'refused' && { code: detail.code ?? row.reason?.split(':', 1)[0] }),
    ...(detail.details && { details: detail.details }),
    ...(row.origin !== null && { origin: row.origin }),
    ...(row.test_id !== null && { test: true as const }),
    ...(detail.value !== undefined && { value: detail.value }),
    ...(detail.currency !== undefined && { currency: detail.currency }),
    ...(detail.coupon !== undefined && { coupon: detail.coupon }),
    ...(detail.items !== undefined && { items: detail.items }),
  };
}
