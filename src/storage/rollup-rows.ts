// How clicks and orders become rollup rows, in both forms storage needs: SQL that sums stored
// clicks or orders (the SQLite click writer, and every rebuild), and the same sums computed from
// rows in memory (a batch being written, an order being changed). Both follow the one layout in
// src/lib/rollup-layout.ts, per hour and per day; a test proves they agree.
import { CLICK_DIMENSIONS, FACTS, NETWORK_DIMENSION, ORDER_DIMENSIONS, PAIR_SEPARATOR, UNKNOWN_FACT, dayOf, hourOf, type Dimension, type Fact, type Period, type RollupScope } from '../lib/rollup-layout.js';
import type { ClickRollupRow, NewClickRow, NewOrderRow, OrderRollupRow } from './tables.js';

type KeyColumns = readonly [affiliate: string, organization: string, link: string];

export const CLICK_ROLLUP_KEY = ['affiliate_id', 'organization_id', 'link_id', 'dimension', 'hour', 'value'] as const;
export const ORDER_ROLLUP_KEY = [...CLICK_ROLLUP_KEY, 'currency'] as const;
export const CLICK_COUNTS = ['counted', 'bots', 'heads', 'repeats', 'suspicious', 'suspended'] as const;
/**
 * Which clicks' columns a statement reads: today's, or those the tables had before migration 0047
 * (clicks.asn, the 'network' dimension) and 0048 (the suspended count, clicks.is_suspended), for
 * the migrations before them.
 */
export type ClickCountLayout = 'current' | 'before-0047';
const COUNTS_BEFORE_SUSPENSIONS = ['counted', 'bots', 'heads', 'repeats', 'suspicious'] as const;
const clickCountsOf = (layout: ClickCountLayout): readonly string[] => (layout === 'current' ? CLICK_COUNTS : COUNTS_BEFORE_SUSPENSIONS);
export const ORDER_SUMS = ['orders', 'sales', 'commission'] as const;

/** The tables of each period. */
export const CLICK_ROLLUP_TABLE = { hour: 'click_rollups', day: 'click_rollups_daily' } as const;
export const ORDER_ROLLUP_TABLE = { hour: 'order_rollups', day: 'order_rollups_daily' } as const;
const periodOf: Record<Period, (iso: string) => string> = { hour: hourOf, day: dayOf };

/** Each scope with the dimensions it keeps, as pairs to loop over. */
const layoutOf = (layout: Readonly<Record<RollupScope, readonly Dimension[]>>) => Object.entries(layout) as Array<[RollupScope, readonly Dimension[]]>;
const CLICK_LAYOUT = layoutOf(CLICK_DIMENSIONS);
const ORDER_LAYOUT = layoutOf(ORDER_DIMENSIONS);

// ---- SQL over stored rows -------------------------------------------------------------------

/** The key columns of each scope, as SQL over clicks or orders ('' where the scope has none). */
const SCOPE_SQL: Record<RollupScope, KeyColumns> = {
  affiliate: ['affiliate_id', "''", "''"],
  affiliate_brand: ['affiliate_id', 'organization_id', "''"],
  link: ['affiliate_id', "''", 'link_id'],
  brand: ["''", 'organization_id', "''"],
};

const CLICK_VALUE_SQL: Record<Exclude<Dimension, 'facts'>, string> = {
  all: "''",
  country: `coalesce(country, '${UNKNOWN_FACT.country}')`,
  device: `coalesce(device, '${UNKNOWN_FACT.device}')`,
  browser: `coalesce(browser, '${UNKNOWN_FACT.browser}')`,
  os: `coalesce(os, '${UNKNOWN_FACT.os}')`,
  referer: `coalesce(referer_host, '${UNKNOWN_FACT.referer}')`,
  channel: 'channel_id',
  brand: 'organization_id',
  affiliate: 'affiliate_id',
  link: 'link_id',
  device_country: `coalesce(device, '${UNKNOWN_FACT.device}') || '${PAIR_SEPARATOR}' || coalesce(country, '${UNKNOWN_FACT.country}')`,
  network: "coalesce(cast(asn as text), '0')",
};

/** A click's value of dimension `dimension` in `scope`, as SQL over clicks. */
function clickValueSql(scope: RollupScope, dimension: Dimension): string {
  if (dimension !== 'facts') return CLICK_VALUE_SQL[dimension];
  return factsOf(scope)
    .map((fact) => CLICK_VALUE_SQL[fact])
    .join(` || '${PAIR_SEPARATOR}' || `);
}

function factsOf(scope: RollupScope): readonly Fact[] {
  const facts = FACTS[scope];
  if (!facts) throw new Error(`the ${scope} rollups keep no facts row`);
  return facts;
}

const ORDER_VALUE_SQL: Partial<Record<Dimension, string>> = {
  all: "''",
  country: `coalesce(click_country, '${UNKNOWN_FACT.country}')`,
  channel: "coalesce(channel_id, '')",
  brand: 'organization_id',
  affiliate: 'affiliate_id',
  link: "coalesce(link_id, '')",
};

/** A stored row's period, from its created_at (clicks, orders) or its hour (hourly rollups). */
const PERIOD_SQL: Record<Period, (column: string) => string> = {
  hour: (column) => `substr(${column}, 1, 13) || ':00:00.000Z'`,
  day: (column) => `substr(${column}, 1, 10) || 'T00:00:00.000Z'`,
};

/**
 * A click's reason not to count, first one only: suspended (nothing on a suspended account's link
 * counts, whoever clicks), then bot, HEAD, repeat, suspicious. In the order of CLICK_COUNTS.
 */
export const CLICK_COUNT_SQL: Record<ClickCountLayout, string[]> = {
  current: [
    'sum(counted)',
    'sum(case when is_suspended = 0 then is_bot else 0 end)',
    'sum(case when is_suspended = 0 and is_bot = 0 then is_head else 0 end)',
    'sum(case when is_suspended = 0 and is_bot = 0 and is_head = 0 then is_repeat else 0 end)',
    'sum(case when is_suspended = 0 and is_bot = 0 and is_head = 0 and is_repeat = 0 then is_suspicious else 0 end)',
    'sum(is_suspended)',
  ],
  'before-0047': [
    'sum(counted)',
    'sum(is_bot)',
    'sum(case when is_bot = 0 then is_head else 0 end)',
    'sum(case when is_bot = 0 and is_head = 0 then is_repeat else 0 end)',
    'sum(case when is_bot = 0 and is_head = 0 and is_repeat = 0 then is_suspicious else 0 end)',
  ],
};

export const ORDER_SUM_SQL = [
  "sum(case when status <> 'canceled' then 1 else 0 end)",
  "sum(case when status <> 'canceled' then value else 0 end)",
  "sum(case when commission_status <> 'canceled' then commission else 0 end)",
];

function upsertSql(table: string, key: readonly string[], sums: readonly string[], selects: string[]): string {
  const columns = [...key, ...sums].join(', ');
  const add = sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
  // "where true": SQLite needs it to tell the upsert clause from a join constraint.
  return `insert into ${table} (${columns}) select * from (${selects.join(' union all ')}) as summed where true on conflict (${key.join(', ')}) do update set ${add}`;
}

function groupedSelect(scope: RollupScope, dimension: Dimension, value: string, extraKey: string[], sums: string[], from: string, where: string, period: Period): string {
  const keys = [...SCOPE_SQL[scope], `'${dimension}'`, PERIOD_SQL[period]('created_at'), value, ...extraKey];
  // Literals are left out of GROUP BY (PostgreSQL refuses to group by a constant position).
  const grouped = keys.filter((k) => !k.startsWith("'"));
  return `select ${keys.join(', ')}, ${sums.join(', ')} from ${from} where ${where} group by ${grouped.join(', ')}`;
}

/**
 * The rollup rows of the stored clicks matching `where`, one SELECT per scope and dimension, each
 * in key order (its GROUP BY follows the table's key) and none sharing a key with another.
 */
function clickRollupSelects(where: string, period: Period = 'hour', layout: ClickCountLayout = 'current'): string[] {
  const selects: string[] = [];
  for (const [scope, dimensions] of CLICK_LAYOUT) {
    for (const dimension of dimensions) {
      if (layout === 'before-0047' && dimension === NETWORK_DIMENSION) continue;
      selects.push(groupedSelect(scope, dimension, clickValueSql(scope, dimension), [], CLICK_COUNT_SQL[layout], 'clicks', where, period));
    }
  }
  return selects;
}

/** Adds the stored clicks matching `where` (SQL over clicks) to the rollups of `period`. */
export function clickRollupSql(where: string, period: Period = 'hour', layout: ClickCountLayout = 'current'): string {
  return upsertSql(CLICK_ROLLUP_TABLE[period], CLICK_ROLLUP_KEY, clickCountsOf(layout), clickRollupSelects(where, period, layout));
}

/**
 * SQLite: where the next rollup step starts (the rowid rollup_progress remembers, `from`) and the
 * last stored click (`to`), as one row.
 */
export const SQLITE_ROLLUP_RANGE_SQL = 'select (select last_rolled_rowid from rollup_progress where id = 1) as "from", (select coalesce(max(rowid), 0) from clicks) as "to"';

/**
 * SQLite: one rollup step over `range` (a row of SQLITE_ROLLUP_RANGE_SQL), at most `limit`
 * clicks: the statements that add the clicks stored after rowid `from` to the hourly and daily
 * rollups and move rollup_progress past them, to run in one transaction, and how many clicks
 * they add (no statement when none). Both SQLite click writers (the writer thread, and the
 * repository on an in-memory database) step this way, so every click is added exactly once.
 */
export function sqliteRollUpStep(range: { from: number; to: number }, limit = Number.MAX_SAFE_INTEGER): { statements: string[]; clicks: number } {
  const from = Number(range.from);
  const to = Math.min(Number(range.to), from + limit);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new Error('rowids must be integers');
  if (to <= from) return { statements: [], clicks: 0 };
  const where = `rowid > ${from} and rowid <= ${to}`;
  return {
    statements: [clickRollupSql(where, 'hour'), clickRollupSql(where, 'day'), `update rollup_progress set last_rolled_rowid = ${to} where id = 1`],
    clicks: to - from,
  };
}

/** The rollup rows of the stored orders matching `where`, as clickRollupSelects gives those of clicks. */
function orderRollupSelects(where: string, period: Period = 'hour'): string[] {
  const selects: string[] = [];
  for (const [scope, dimensions] of ORDER_LAYOUT) {
    const scoped = scope === 'link' ? `(${where}) and link_id is not null` : where;
    for (const dimension of dimensions) selects.push(groupedSelect(scope, dimension, ORDER_VALUE_SQL[dimension]!, ['currency'], ORDER_SUM_SQL, 'orders', scoped, period));
  }
  return selects;
}

/** Adds the stored orders matching `where` (SQL over orders) to the rollups of `period`. */
export function orderRollupSql(where: string, period: Period = 'hour'): string {
  return upsertSql(ORDER_ROLLUP_TABLE[period], ORDER_ROLLUP_KEY, ORDER_SUMS, orderRollupSelects(where, period));
}

/**
 * Every rollup row of the stored clicks and orders of `period`, as plain INSERTs, one per scope and
 * dimension: for tables still empty (a bulk load), where no two statements share a key and none
 * needs the upsert's conflict handling.
 */
export function freshRollupInserts(period: Period): string[] {
  const into = (table: string, columns: readonly string[]) => `insert into ${table} (${columns.join(', ')}) `;
  return [
    ...clickRollupSelects('true', period).map((select) => into(CLICK_ROLLUP_TABLE[period], [...CLICK_ROLLUP_KEY, ...CLICK_COUNTS]) + select),
    ...orderRollupSelects('true', period).map((select) => into(ORDER_ROLLUP_TABLE[period], [...ORDER_ROLLUP_KEY, ...ORDER_SUMS]) + select),
  ];
}

/**
 * Replaces the daily rows from the day `fromDay` (its 00:00, UTC; every day when undefined) on
 * with the sums of the hourly rows (a rebuild: the hourly rows before the hours it recomputed are
 * kept, so whole days come out right even when their first clicks were deleted).
 */
export function dailyFromHourlySql(kind: 'clicks' | 'orders', fromDay?: string, layout: ClickCountLayout = 'current'): string[] {
  const [hourly, daily, key, sums] = kind === 'clicks' ? [CLICK_ROLLUP_TABLE.hour, CLICK_ROLLUP_TABLE.day, CLICK_ROLLUP_KEY, clickCountsOf(layout)] : [ORDER_ROLLUP_TABLE.hour, ORDER_ROLLUP_TABLE.day, ORDER_ROLLUP_KEY, ORDER_SUMS];
  if (fromDay !== undefined && !/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(fromDay)) throw new Error(`not a day: ${fromDay}`);
  const from = fromDay === undefined ? 'true' : `hour >= '${fromDay}'`;
  const keyed = key.map((c) => (c === 'hour' ? PERIOD_SQL.day('hour') : c));
  const grouped = keyed.join(', ');
  return [
    `delete from ${daily} where ${from}`,
    `insert into ${daily} (${[...key, ...sums].join(', ')}) select ${grouped}, ${sums.map((c) => `sum(${c})`).join(', ')} from ${hourly} where ${from} group by ${grouped}`,
  ];
}

// ---- The same sums in memory ----------------------------------------------------------------

const scopeKeys = (scope: RollupScope, affiliate: string, organization: string, link: string): KeyColumns =>
  scope === 'affiliate' ? [affiliate, '', ''] : scope === 'affiliate_brand' ? [affiliate, organization, ''] : scope === 'link' ? [affiliate, '', link] : ['', organization, ''];

function clickValue(click: NewClickRow, dimension: Dimension, scope: RollupScope): string {
  if (dimension === 'facts') return factsOf(scope).map((fact) => clickValue(click, fact, scope)).join(PAIR_SEPARATOR);
  const device = click.device ?? UNKNOWN_FACT.device;
  const country = click.country ?? UNKNOWN_FACT.country;
  switch (dimension) {
    case 'all':
      return '';
    case 'country':
      return country;
    case 'device':
      return device;
    case 'browser':
      return click.browser ?? UNKNOWN_FACT.browser;
    case 'os':
      return click.os ?? UNKNOWN_FACT.os;
    case 'referer':
      return click.referer_host ?? UNKNOWN_FACT.referer;
    case 'channel':
      return click.channel_id;
    case 'brand':
      return click.organization_id;
    case 'affiliate':
      return click.affiliate_id;
    case 'link':
      return click.link_id;
    case 'device_country':
      return `${device}${PAIR_SEPARATOR}${country}`;
    case 'network':
      return String(click.asn ?? 0);
  }
}

/** Which count a click adds to (see CLICK_COUNT_SQL for the order of reasons). */
function countOf(click: NewClickRow): (typeof CLICK_COUNTS)[number] {
  if (click.counted) return 'counted';
  if (click.is_suspended) return 'suspended';
  if (click.is_bot) return 'bots';
  if (click.is_head) return 'heads';
  if (click.is_repeat) return 'repeats';
  return 'suspicious';
}

const keyText = (parts: readonly string[]) => parts.join('\u0000');

/** The rollup rows of `period` a batch of clicks adds, summed per key, in key order (concurrent writers then lock rows in one order). */
export function clickRollupRows(clicks: readonly NewClickRow[], period: Period = 'hour'): ClickRollupRow[] {
  const rows = new Map<string, ClickRollupRow>();
  for (const click of clicks) {
    const hour = periodOf[period](click.created_at);
    const count = countOf(click);
    for (const [scope, dimensions] of CLICK_LAYOUT) {
      const [affiliate_id, organization_id, link_id] = scopeKeys(scope, click.affiliate_id, click.organization_id, click.link_id);
      for (const dimension of dimensions) {
        const value = clickValue(click, dimension, scope);
        const key = keyText([affiliate_id, organization_id, link_id, dimension, hour, value]);
        let row = rows.get(key);
        if (!row) {
          row = { affiliate_id, organization_id, link_id, dimension, hour, value, counted: 0, bots: 0, heads: 0, repeats: 0, suspicious: 0, suspended: 0 };
          rows.set(key, row);
        }
        row[count] += 1;
      }
    }
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

export type OrderFacts = Pick<NewOrderRow, 'affiliate_id' | 'organization_id' | 'link_id' | 'channel_id' | 'click_country' | 'currency' | 'created_at' | 'status' | 'commission_status' | 'value' | 'commission'>;

/** What an order adds to the sums as it is now (see ORDER_SUM_SQL). */
function contribution(order: OrderFacts): [number, number, number] {
  const live = order.status !== 'canceled';
  return [live ? 1 : 0, live ? Number(order.value) : 0, order.commission_status !== 'canceled' ? Number(order.commission) : 0];
}

function orderValue(order: OrderFacts, dimension: Dimension): string {
  switch (dimension) {
    case 'country':
      return order.click_country ?? UNKNOWN_FACT.country;
    case 'channel':
      return order.channel_id ?? '';
    case 'brand':
      return order.organization_id;
    case 'affiliate':
      return order.affiliate_id;
    case 'link':
      return order.link_id ?? '';
    default:
      return '';
  }
}

/** An order's rows of `period`, each adding `sign` times what it contributes as it is. */
function orderRows(order: OrderFacts, period: Period, sign: 1 | -1): OrderRollupRow[] {
  const [orders, sales, commission] = contribution(order).map((n) => sign * n) as [number, number, number];
  const hour = periodOf[period](order.created_at);
  const rows: OrderRollupRow[] = [];
  for (const [scope, dimensions] of ORDER_LAYOUT) {
    if (scope === 'link' && !order.link_id) continue; // an order without a link has no link rows
    const [affiliate_id, organization_id, link_id] = scopeKeys(scope, order.affiliate_id, order.organization_id, order.link_id ?? '');
    for (const dimension of dimensions) {
      rows.push({ affiliate_id, organization_id, link_id, dimension, hour, value: orderValue(order, dimension), currency: order.currency, orders, sales, commission });
    }
  }
  return rows;
}

/**
 * The rows an order's creation (`before` undefined) or change adds to order_rollups: its
 * contribution now less what it contributed before, each at its own keys (affiliate, brand, link,
 * channel, country, currency, creation time), which a takeover by the brand's server may change.
 * Summed per key, in key order (one upsert may not touch a row twice), without the rows a change
 * leaves as they were; a new order always gets its rows, zero or not, as a rebuild does.
 */
export function orderRollupDelta(before: OrderFacts | undefined, after: OrderFacts, period: Period = 'hour'): OrderRollupRow[] {
  if (!before) return orderRows(after, period, 1);
  const rows = new Map<string, OrderRollupRow>();
  for (const row of [...orderRows(before, period, -1), ...orderRows(after, period, 1)]) {
    const key = keyText([row.affiliate_id, row.organization_id, row.link_id, row.dimension, row.hour, row.value, row.currency]);
    const summed = rows.get(key);
    if (!summed) rows.set(key, row);
    else for (const sum of ORDER_SUMS) summed[sum] += row[sum];
  }
  return [...rows.entries()]
    .filter(([, row]) => row.orders !== 0 || row.sales !== 0 || row.commission !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}
