// The shop's own order export, row by row: which platform wrote it (Shopify's and Nuvemshop's
// exports are known by their headers; any other CSV comes with a column mapping), and what each
// row says of its order: its id, the shop's verdict (paid, canceled, refunded, partly refunded,
// still pending), its total and refunded amount in minor units, its time. docs/decisions.md
// ("Orders confirmed from the shop's export") gives the mapping per platform and its sources.
import { exportAmount } from '../../lib/export-amounts.js';

export type Platform = 'shopify' | 'nuvemshop' | 'mapped';

/** What the shop says of an order. */
export type ShopVerdict = 'paid' | 'canceled' | 'refunded' | 'partially_refunded' | 'pending';

/** Which column holds what (header names as the file writes them). */
export interface ColumnMapping {
  orderId: string;
  status: string;
  total: string;
  date: string;
  refunded?: string | undefined;
  currency?: string | undefined;
  /** Shopify: the fulfilment and cancellation columns, read beside the financial status. */
  fulfillment?: string | undefined;
  canceledAt?: string | undefined;
  /** Nuvemshop: the order's status beside the payment's and the shipping's. */
  orderStatus?: string | undefined;
  /** Shopify: the order's numeric id beside its name, the id its checkout reports (checkout.order.id). */
  numericId?: string | undefined;
}

/** A row the file holds for an order, read. */
export interface ShopOrder {
  line: number;
  orderId: string;
  /** Shopify: the order's numeric id (its Id column), another id the network may know the order by. */
  numericId?: string | undefined;
  /** The shop's own words for the order's state (its status columns, joined). */
  shopStatus: string;
  verdict: ShopVerdict;
  total: number;
  refunded: number;
  /** The order's time, UTC ISO 8601. */
  at: string;
  currency?: string | undefined;
}

/** Why a row cannot be read (a stable code, with an English message). */
export interface BadRow {
  line: number;
  orderId?: string | undefined;
  reason: 'missing_order_id' | 'unknown_status' | 'invalid_amount' | 'invalid_date' | 'other_currency' | 'duplicate_order' | 'refund_exceeds_total';
  message: string;
}

/** Headers compared without case, accents or surrounding spaces. */
export const headerKey = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/** Shopify's orders export (help.shopify.com, "Exporting orders": the CSV's column list). */
const SHOPIFY: ColumnMapping = {
  orderId: 'Name',
  status: 'Financial Status',
  total: 'Total',
  date: 'Created at',
  refunded: 'Refunded Amount',
  currency: 'Currency',
  fulfillment: 'Fulfillment Status',
  canceledAt: 'Cancelled at',
  numericId: 'Id',
};

/** Nuvemshop's sales export (Vendas > Exportar lista). */
const NUVEMSHOP: ColumnMapping = {
  orderId: 'Número do Pedido',
  status: 'Status do Pagamento',
  total: 'Total',
  date: 'Data',
  currency: 'Moeda',
  fulfillment: 'Status do Envio',
  orderStatus: 'Status do Pedido',
};

/** The platform and columns of a file by its header line, or the mapping given; undefined when neither. */
export function columnsOf(header: readonly string[], given: Partial<ColumnMapping> | undefined): { platform: Platform; mapping: ColumnMapping } | undefined {
  const names = new Set(header.map(headerKey));
  const has = (...columns: string[]) => columns.every((column) => names.has(headerKey(column)));
  if (given?.orderId || given?.status || given?.total || given?.date) {
    return { platform: 'mapped', mapping: given as ColumnMapping };
  }
  if (has('Name', 'Financial Status', 'Fulfillment Status', 'Total', 'Created at')) return { platform: 'shopify', mapping: SHOPIFY };
  if (has('Número do Pedido', 'Status do Pagamento', 'Total', 'Data')) return { platform: 'nuvemshop', mapping: NUVEMSHOP };
  return undefined;
}

/** Words of a status, lowercased without accents, spaces, "-" and "_" as one space. */
const words = (text: string): string => headerKey(text).replace(/[\s_-]+/g, ' ');

// Shopify's financial statuses (the Admin API's OrderDisplayFinancialStatus, lowercased in the
// export: pending, authorized, partially_paid, paid, partially_refunded, refunded, voided, expired).
const SHOPIFY_FINANCIAL: Record<string, ShopVerdict> = {
  pending: 'pending',
  authorized: 'pending',
  'partially paid': 'pending',
  expired: 'canceled',
  paid: 'paid',
  'partially refunded': 'partially_refunded',
  refunded: 'refunded',
  voided: 'canceled',
};

/** Words of other shops and of people (English and Portuguese), for Nuvemshop's and mapped files. */
const STATUS_WORDS: Record<string, ShopVerdict> = {
  ...SHOPIFY_FINANCIAL,
  expired: 'canceled',
  unpaid: 'pending',
  open: 'pending',
  processing: 'pending',
  'on hold': 'pending',
  'awaiting payment': 'pending',
  pendente: 'pending',
  autorizado: 'pending',
  aberto: 'pending',
  'em processamento': 'pending',
  'pagamento em processo': 'pending',
  'aguardando pagamento': 'pending',
  approved: 'paid',
  complete: 'paid',
  completed: 'paid',
  confirmed: 'paid',
  fulfilled: 'paid',
  shipped: 'paid',
  delivered: 'paid',
  pago: 'paid',
  paga: 'paid',
  recebido: 'paid',
  aprovado: 'paid',
  confirmado: 'paid',
  concluido: 'paid',
  faturado: 'paid',
  enviado: 'paid',
  entregue: 'paid',
  canceled: 'canceled',
  cancelled: 'canceled',
  void: 'canceled',
  declined: 'canceled',
  failed: 'canceled',
  cancelado: 'canceled',
  cancelada: 'canceled',
  recusado: 'canceled',
  'pagamento recusado': 'canceled',
  anulado: 'canceled',
  returned: 'refunded',
  reembolsado: 'refunded',
  estornado: 'refunded',
  devolvido: 'refunded',
  'parcialmente reembolsado': 'partially_refunded',
  'reembolso parcial': 'partially_refunded',
  'partial refund': 'partially_refunded',
};

/** Shipping words that mean the goods left: the shop fulfilled the order. */
const SHIPPED = new Set(['fulfilled', 'shipped', 'delivered', 'enviado', 'entregue', 'retirado']);

/** A time as exports write it, to UTC ISO 8601: ISO with or without a zone ("2026-11-20 14:03:11 -0300"), or day/month/year; without a zone, UTC. */
export function exportTime(text: string): string | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  let parts: { y: string; mo: string; d: string; h?: string | undefined; mi?: string | undefined; s?: string | undefined; zone?: string | undefined };
  if (iso) parts = { y: iso[1]!, mo: iso[2]!, d: iso[3]!, h: iso[4], mi: iso[5], s: iso[6], zone: iso[7] };
  else if (dmy) parts = { y: dmy[3]!, mo: dmy[2]!.padStart(2, '0'), d: dmy[1]!.padStart(2, '0'), h: dmy[4]?.padStart(2, '0'), mi: dmy[5], s: dmy[6] };
  else return undefined;
  const zone = parts.zone === undefined || parts.zone.toUpperCase() === 'Z' ? 'Z' : `${parts.zone.slice(0, 3)}:${parts.zone.slice(-2)}`;
  const text8601 = `${parts.y}-${parts.mo}-${parts.d}T${parts.h ?? '00'}:${parts.mi ?? '00'}:${parts.s ?? '00'}${zone}`;
  const ms = Date.parse(text8601);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 31/02 over to March: the date must be the one written.
  // The written (local) time is the instant plus its offset: -03:00 is three hours behind UTC.
  const check = new Date(ms + (zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000));
  if (check.getUTCDate() !== Number(parts.d) || check.getUTCMonth() + 1 !== Number(parts.mo)) return undefined;
  return new Date(ms).toISOString();
}

/** Reads the rows of one file, given its columns; remembers the previous row (Shopify's line-item rows). */
export class RowReader {
  private readonly index: Map<keyof ColumnMapping, number>;
  private previousId: string | undefined;

  constructor(
    header: readonly string[],
    private readonly platform: Platform,
    mapping: ColumnMapping,
    /** The minor unit's digits of the brand's currency. */
    private readonly digits: number,
    private readonly currency: string,
  ) {
    const positions = new Map(header.map((name, i) => [headerKey(name), i] as const));
    this.index = new Map();
    for (const [field, column] of Object.entries(mapping) as Array<[keyof ColumnMapping, string | undefined]>) {
      if (column === undefined) continue;
      const at = positions.get(headerKey(column));
      if (at !== undefined) this.index.set(field, at);
    }
  }

  /** The columns of the mapping the header lacks (those that must be there). */
  static missing(header: readonly string[], mapping: ColumnMapping): string[] {
    const names = new Set(header.map(headerKey));
    return [mapping.orderId, mapping.status, mapping.total, mapping.date, mapping.refunded].filter((c): c is string => c !== undefined && !names.has(headerKey(c)));
  }

  private cell(record: readonly string[], field: keyof ColumnMapping): string {
    const at = this.index.get(field);
    return at === undefined ? '' : (record[at] ?? '').trim();
  }

  /** The row's order, a bad row, or undefined for a row that only continues the previous order (Shopify's further line items). */
  read(record: readonly string[], line: number): ShopOrder | BadRow | undefined {
    const orderId = this.cell(record, 'orderId');
    const status = this.cell(record, 'status');
    if (this.platform === 'shopify' && orderId !== '' && orderId === this.previousId && status === '' && this.cell(record, 'total') === '') return undefined;
    this.previousId = orderId;
    if (orderId === '') return { line, reason: 'missing_order_id', message: 'the row has no order id' };
    const bad = (reason: BadRow['reason'], message: string): BadRow => ({ line, orderId, reason, message });
    const currency = this.cell(record, 'currency').toUpperCase();
    if (currency !== '' && currency !== this.currency) return bad('other_currency', `the order is in ${currency}, your orders are in ${this.currency}`);
    const total = exportAmount(this.cell(record, 'total'), this.digits);
    if (total === undefined) return bad('invalid_amount', `the total "${this.cell(record, 'total')}" is not an amount in ${this.currency}`);
    const refundedText = this.cell(record, 'refunded');
    const refunded = refundedText === '' ? 0 : exportAmount(refundedText, this.digits);
    if (refunded === undefined) return bad('invalid_amount', `the refunded amount "${refundedText}" is not an amount in ${this.currency}`);
    if (refunded > total && total > 0) return bad('refund_exceeds_total', `the refunded amount (${refunded}) is more than the total (${total})`);
    const at = exportTime(this.cell(record, 'date'));
    if (at === undefined) return bad('invalid_date', `the date "${this.cell(record, 'date')}" is not a date (2026-11-20 14:03:11 -0300, 20/11/2026 14:03)`);
    const verdict = this.verdict(record);
    const shopStatus = [this.cell(record, 'orderStatus'), status, this.cell(record, 'fulfillment'), this.cell(record, 'canceledAt') && 'cancelled'].filter(Boolean).join(' / ');
    if (verdict === undefined) return bad('unknown_status', `the status "${status}" is none the network knows (paid, pending, canceled, refunded, partially refunded…)`);
    // A refund recorded beside a status that says nothing of it: the amount decides.
    const refundedVerdict: ShopVerdict = refunded > 0 && (verdict === 'paid' || verdict === 'partially_refunded') ? (refunded >= total ? 'refunded' : 'partially_refunded') : verdict;
    const numericId = this.cell(record, 'numericId');
    return { line, orderId, ...(numericId !== '' && { numericId }), shopStatus, verdict: refundedVerdict, total, refunded, at, ...(currency !== '' && { currency }) };
  }

  private verdict(record: readonly string[]): ShopVerdict | undefined {
    const status = words(this.cell(record, 'status'));
    const shipping = words(this.cell(record, 'fulfillment'));
    if (this.cell(record, 'canceledAt') !== '') {
      // Shopify: a canceled order's money went back (refunded) or was never taken (voided): canceled either way.
      return status === 'refunded' ? 'refunded' : 'canceled';
    }
    if (this.platform === 'nuvemshop' && ['cancelado', 'cancelada'].includes(words(this.cell(record, 'orderStatus')))) return 'canceled';
    const table = this.platform === 'shopify' ? SHOPIFY_FINANCIAL : STATUS_WORDS;
    const verdict = status === '' && this.platform !== 'mapped' ? 'pending' : table[status];
    // Paid or fulfilled: goods that left the shop confirm the order as payment does.
    if (verdict === 'pending' && SHIPPED.has(shipping)) return 'paid';
    return verdict;
  }
}
