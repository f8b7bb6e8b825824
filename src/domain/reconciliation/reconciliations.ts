// Orders confirmed from the shop's own export: a brand without a developer uploads its shop's
// order report (Shopify's or Nuvemshop's export, or any CSV with a column mapping) and gets a
// preview, changing nothing, of what it says of each pending order: confirm (paid or fulfilled),
// cancel (canceled, refunded, voided), correct the value (a partial refund) or leave it; the
// orders the network does not know; the orders of the file's dates the file lacks; the rows it
// cannot read, by line. Applying the preview makes its changes in one transaction through the
// brand's own decision path (ConversionsService.decision): the same history, webhooks, ledger and
// audit entries as PATCH /advertiser/conversions/{orderId}. The file is read as it streams in, in
// batches, so memory stays flat; see docs/decisions.md ("Orders confirmed from the shop's export").
import type { Clock } from '../../lib/clock.js';
import { minorUnitOf } from '../../lib/export-amounts.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { PlannedOrderChange } from '../../storage/repositories/orders.js';
import type { ReconciliationsRepository } from '../../storage/repositories/reconciliations.js';
import type { OrderRow, ReconciliationLineRow, ReconciliationRow } from '../../storage/tables.js';
import type { OrderItem } from '../../schemas/order.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { randomBase62 } from '../random.js';
import { auditEntry, brandActor } from '../audit/audit-entry.js';
import { itemsTolerance, type BrandCaller, type ConversionChange, type ConversionsService } from '../orders/conversions.js';
import { parseExport } from './export-parse.js';
import type { BadRow, ColumnMapping, Platform, ShopOrder, ShopVerdict } from './shop-exports.js';

export const LINE_KINDS = ['confirm', 'cancel', 'correct', 'leave', 'skipped', 'unknown', 'missing', 'invalid'] as const;
export type LineKind = (typeof LINE_KINDS)[number];
/** The kinds that change an order when the preview is applied. */
const CHANGING: readonly LineKind[] = ['confirm', 'cancel', 'correct'];

/** Why a line is what it is: skipped (locked, held, decided), left (the shop still waits), canceled for a refund of the whole value, or a bad row's reason. */
export type LineReason = 'locked' | 'held' | 'decided' | 'shop_pending' | 'refund_covers_value' | BadRow['reason'];

/** One line of a preview as the brand reads it. */
export interface ReconciliationLine {
  line?: number;
  orderId?: string;
  shopStatus?: string;
  verdict?: ShopVerdict;
  total?: number;
  refunded?: number;
  status?: string;
  commissionStatus?: string;
  source?: string;
  value?: number;
  newValue?: number;
  createdAt?: string;
  lockAt?: string;
  reason?: LineReason;
  message?: string;
}

export type Counts = Record<LineKind, number>;

export interface Outcome {
  confirmed: number;
  canceled: number;
  corrected: number;
  /** Changes of the preview not made: the order changed since (decided, locked, held or another value). */
  changedMeanwhile: number;
}

export interface Reconciliation {
  id: string;
  platform: Platform;
  currency: string;
  createdAt: string;
  from?: string;
  to?: string;
  rows: number;
  counts: Counts;
  /** The first lines of each kind, in the file's order. */
  lines: Record<LineKind, ReconciliationLine[]>;
  appliedAt?: string;
  outcome?: Outcome;
}

export interface ReconciliationSettings {
  /** RECONCILIATION_MAX_MB in bytes. */
  maxBytes: number;
  /** The most the file's parsing thread may use of memory, in MB (RECONCILIATION_WORKER_HEAP_MB). */
  workerHeapMb: number;
}

/** Rows read before their orders are looked up and their lines written. */
const BATCH = 500;
/** Lines of each kind a preview shows. */
export const SAMPLE = 20;
/** Orders looked up at once when applying. */
const APPLY_BATCH = 500;

const DAY_MS = 86_400_000;
const emptyCounts = (): Counts => Object.fromEntries(LINE_KINDS.map((kind) => [kind, 0])) as Counts;

/** The order ids a file's id may stand for: as written, and with or without Shopify's "#". */
const idVariants = (id: string): string[] => (id.startsWith('#') ? [id, id.slice(1)] : [id, `#${id}`]);
/** The order ids a row may name, in the order they are tried: its id's variants, then Shopify's numeric id (the one its checkout reports). */
const idsOf = (row: ShopOrder): string[] => (row.numericId === undefined ? idVariants(row.orderId) : [...idVariants(row.orderId), row.numericId]);

/** Each line's total in proportion to the value kept, as one unit each; the rounding's rest on the first. Undefined: the lines fit the value as they are. */
function linesForValue(order: OrderRow, value: number): OrderItem[] | undefined {
  const items = JSON.parse(order.items) as OrderItem[];
  const sum = items.reduce((total, item) => total + item.price * item.quantity, 0);
  if (items.length === 0 || Math.abs(sum - value) <= itemsTolerance(value) || sum === 0) return undefined;
  const scaled = items.map((item) => ({ ...item, quantity: 1, price: Number((BigInt(item.price) * BigInt(item.quantity) * BigInt(value)) / BigInt(sum)) }));
  scaled[0]!.price += value - scaled.reduce((total, item) => total + item.price, 0);
  return scaled;
}

/** What the file's row means for the network's order, and why. */
function decide(order: OrderRow, row: ShopOrder, now: string): { kind: LineKind; detail: ReconciliationLine } {
  const detail: ReconciliationLine = {
    line: row.line,
    orderId: order.order_id,
    shopStatus: row.shopStatus,
    verdict: row.verdict,
    total: row.total,
    refunded: row.refunded,
    status: order.status,
    commissionStatus: order.commission_status,
    source: order.source,
    value: order.value,
    createdAt: order.created_at,
    lockAt: order.lock_at,
  };
  if (order.status !== 'pending') return { kind: 'skipped', detail: { ...detail, reason: 'decided' } };
  if (order.commission_status === 'held') return { kind: 'skipped', detail: { ...detail, reason: 'held' } };
  if (now >= order.lock_at) return { kind: 'skipped', detail: { ...detail, reason: 'locked' } };
  switch (row.verdict) {
    case 'paid':
      return { kind: 'confirm', detail };
    case 'canceled':
    case 'refunded':
      return { kind: 'cancel', detail };
    case 'partially_refunded': {
      const kept = order.value - row.refunded;
      if (kept <= 0) return { kind: 'cancel', detail: { ...detail, reason: 'refund_covers_value' } };
      if (kept === order.value) return { kind: 'confirm', detail };
      return { kind: 'correct', detail: { ...detail, newValue: kept } };
    }
    default:
      return { kind: 'leave', detail: { ...detail, reason: 'shop_pending' } };
  }
}

const detailOf = (row: ReconciliationLineRow): ReconciliationLine => JSON.parse(row.detail) as ReconciliationLine;

export interface ReconciliationRepositories {
  brands: BrandsRepository;
  reconciliations: ReconciliationsRepository;
}

export class ReconciliationsService {
  constructor(
    private readonly repositories: ReconciliationRepositories,
    private readonly conversions: ConversionsService,
    private readonly clock: Clock,
    private readonly settings: ReconciliationSettings,
  ) {}

  /** The most a file may hold, in bytes (RECONCILIATION_MAX_MB). */
  get maxBytes(): number {
    return this.settings.maxBytes;
  }

  /** Reads the shop's export and stores its preview; changes no order. */
  async preview(caller: BrandCaller, body: AsyncIterable<Buffer | string>, given: Partial<ColumnMapping> | undefined): Promise<Reconciliation> {
    const brand = await this.repositories.brands.find(caller.brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    const { reconciliations } = this.repositories;
    const now = this.clock.iso();
    const id = `rec_${randomBase62(20)}`;
    const row: ReconciliationRow = {
      id,
      organization_id: brand.id,
      platform: 'mapped',
      currency: brand.currency,
      range_from: null,
      range_to: null,
      rows: 0,
      counts: JSON.stringify(emptyCounts()),
      created_by: caller.keyId ?? null,
      created_at: now,
      applied_at: null,
      applied_by: null,
      outcome: null,
    };
    await reconciliations.create(row);
    try {
      const read = await this.read(brand.id, brand.currency, id, body, given, now);
      Object.assign(row, read);
      await reconciliations.finish(id, read);
    } catch (error) {
      await reconciliations.discard(id);
      throw error;
    }
    return this.viewOf(row);
  }

  private async read(brandId: string, currency: string, id: string, body: AsyncIterable<Buffer | string>, given: Partial<ColumnMapping> | undefined, now: string) {
    const { reconciliations } = this.repositories;
    const counts = emptyCounts();
    const digits = minorUnitOf(currency);
    let seq = 0;
    let rows = 0;
    let from: string | undefined;
    let to: string | undefined;
    let batch: Array<ShopOrder | BadRow> = [];
    const line = (kind: LineKind, detail: ReconciliationLine, networkId: string | null = null, orderId: string | null = detail.orderId ?? null): ReconciliationLineRow => {
      counts[kind]++;
      return { reconciliation_id: id, seq: seq++, kind, line: detail.line ?? null, order_id: orderId, network_id: networkId, detail: JSON.stringify(detail) };
    };
    const flush = async () => {
      const wanted = batch.flatMap((row) => ('verdict' in row ? idsOf(row) : []));
      const known = new Map((await reconciliations.ordersByIds(brandId, wanted)).map((order) => [order.order_id, order]));
      // Each order once: the id it is known by (the network's, else the file's) on no earlier line.
      const keyOf = (row: ShopOrder) => idsOf(row).map((variant) => known.get(variant)).find(Boolean)?.order_id ?? row.orderId;
      const earlier = await reconciliations.namedIn(id, batch.flatMap((row) => ('verdict' in row ? [keyOf(row)] : [])));
      const lines: ReconciliationLineRow[] = [];
      for (const row of batch) {
        if (!('verdict' in row)) {
          lines.push(line('invalid', { line: row.line, ...(row.orderId !== undefined && { orderId: row.orderId }), reason: row.reason, message: row.message }));
          continue;
        }
        const key = keyOf(row);
        if (earlier.has(key)) {
          lines.push(line('invalid', { line: row.line, orderId: row.orderId, reason: 'duplicate_order', message: `order "${row.orderId}" is on an earlier row of the file` }, null, null));
          continue;
        }
        earlier.add(key);
        const order = known.get(key);
        if (!order) {
          lines.push(line('unknown', { line: row.line, orderId: row.orderId, shopStatus: row.shopStatus, verdict: row.verdict, total: row.total, refunded: row.refunded, createdAt: row.at }));
          continue;
        }
        const { kind, detail } = decide(order, row, now);
        lines.push(line(kind, detail, order.id, order.order_id));
      }
      await reconciliations.addLines(lines);
      batch = [];
    };

    const settings = { maxBytes: this.settings.maxBytes, heapMb: this.settings.workerHeapMb, given, digits, currency, batchSize: BATCH };
    const platform = await parseExport(body, settings, async (read) => {
      for (const row of read) {
        rows++;
        if ('verdict' in row) {
          if (from === undefined || row.at < from) from = row.at;
          if (to === undefined || row.at > to) to = row.at;
        }
      }
      batch = read;
      await flush();
    });

    // The orders of the file's days (whole UTC days, first to last) that it does not name.
    if (from !== undefined && to !== undefined) {
      const start = `${from.slice(0, 10)}T00:00:00.000Z`;
      const end = new Date(Date.parse(`${to.slice(0, 10)}T00:00:00.000Z`) + DAY_MS - 1).toISOString();
      let after: OrderRow | undefined;
      for (;;) {
        const orders = await reconciliations.ordersNotInFile(brandId, id, start, end, after, BATCH);
        await reconciliations.addLines(
          orders.map((order) =>
            line('missing', { orderId: order.order_id, status: order.status, commissionStatus: order.commission_status, source: order.source, value: order.value, createdAt: order.created_at, lockAt: order.lock_at }, order.id),
          ),
        );
        if (orders.length < BATCH) break;
        after = orders.at(-1);
      }
    }
    return { platform, range_from: from ?? null, range_to: to ?? null, rows, counts: JSON.stringify(counts) };
  }

  /** One of the brand's reconciliations (another brand's answers 404 as an unknown one). */
  async get(brandId: string, id: string): Promise<Reconciliation> {
    return this.viewOf(await this.found(brandId, id));
  }

  private async found(brandId: string, id: string): Promise<ReconciliationRow> {
    const row = await this.repositories.reconciliations.find(brandId, id);
    if (!row) throw notFound(`reconciliation "${id}" not found among yours`, 'reconciliation_not_found');
    return row;
  }

  /**
   * Applies the preview in one transaction: each order still as the preview read it is confirmed
   * (approved), canceled or corrected (its value, then approved) through the brand's decision
   * path, its history naming the reconciliation; an order that changed since is left alone and
   * counted. A reconciliation is applied once: again answers 409 reconciliation_applied.
   */
  async apply(caller: BrandCaller, id: string): Promise<Reconciliation> {
    const row = await this.found(caller.brandId, id);
    if (row.applied_at !== null) throw conflict('reconciliation_applied', `reconciliation "${id}" was applied at ${row.applied_at}: upload the file again for a new preview`, { appliedAt: row.applied_at });
    const now = this.clock.iso();
    const { reconciliations } = this.repositories;
    const planned: Array<{ kind: LineKind; change: PlannedOrderChange }> = [];
    let changedMeanwhile = 0;
    let afterSeq = -1;
    for (;;) {
      const lines = await reconciliations.linesOf(id, CHANGING, APPLY_BATCH, afterSeq);
      const orders = new Map((await reconciliations.ordersByIds(caller.brandId, lines.map((l) => l.order_id!))).map((order) => [order.id, order]));
      for (const line of lines) {
        const detail = detailOf(line);
        const order = orders.get(line.network_id!);
        if (!order || order.status !== detail.status || order.commission_status !== detail.commissionStatus || order.value !== detail.value) {
          changedMeanwhile++;
          continue;
        }
        const reason = `Shop's order export (reconciliation ${id}): ${detail.shopStatus ?? detail.verdict}`;
        const change: ConversionChange =
          line.kind === 'cancel'
            ? { status: 'canceled', reason }
            : line.kind === 'correct'
              ? { status: 'approved', value: detail.newValue!, items: linesForValue(order, detail.newValue!), reason }
              : { status: 'approved', reason };
        try {
          const decision = await this.conversions.decision({ ...caller, reconciliationId: id }, order, change, now);
          if (decision) planned.push({ kind: line.kind as LineKind, change: decision });
        } catch (error) {
          // Locked or held since the preview: the file changes it no more than PATCH would.
          if (!(error instanceof DomainError)) throw error;
          changedMeanwhile++;
        }
      }
      if (lines.length < APPLY_BATCH) break;
      afterSeq = lines.at(-1)!.seq;
    }
    let outcome: Outcome | undefined;
    const made = await reconciliations.apply(
      caller.brandId,
      id,
      planned.map((p) => p.change),
      { at: now, by: caller.keyId ?? null },
      (results) => {
        const count = (kind: LineKind) => planned.filter((p, i) => p.kind === kind && results[i]).length;
        outcome = { confirmed: count('confirm'), canceled: count('cancel'), corrected: count('correct'), changedMeanwhile: changedMeanwhile + results.filter((r) => !r).length };
        return {
          outcome: JSON.stringify(outcome),
          audit: auditEntry(brandActor(caller), { action: 'reconciliation.applied', subject: { kind: 'reconciliation', id }, members: { brandId: caller.brandId }, after: { platform: row.platform, ...outcome } }),
        };
      },
    );
    if (!made) throw conflict('reconciliation_applied', `reconciliation "${id}" was applied meanwhile: upload the file again for a new preview`);
    return this.viewOf({ ...row, applied_at: now, applied_by: caller.keyId ?? null, outcome: JSON.stringify(outcome) });
  }

  private async viewOf(row: ReconciliationRow): Promise<Reconciliation> {
    const lines = Object.fromEntries(
      await Promise.all(LINE_KINDS.map(async (kind) => [kind, (await this.repositories.reconciliations.linesOf(row.id, [kind], SAMPLE)).map(detailOf)] as const)),
    ) as Record<LineKind, ReconciliationLine[]>;
    return {
      id: row.id,
      platform: row.platform as Platform,
      currency: row.currency,
      createdAt: row.created_at,
      ...(row.range_from !== null && { from: row.range_from }),
      ...(row.range_to !== null && { to: row.range_to }),
      rows: row.rows,
      counts: { ...emptyCounts(), ...(JSON.parse(row.counts) as Partial<Counts>) },
      lines,
      ...(row.applied_at !== null && { appliedAt: row.applied_at }),
      ...(row.outcome !== null && { outcome: JSON.parse(row.outcome) as Outcome }),
    };
  }
}
