// Shopify's orders export as a shop downloads it: its documented columns in its order
// (help.shopify.com, "Exporting orders"), a row per order and a further row per line item. Whole,
// for a few orders, or as a stream of any number of them.

export const SHOPIFY_HEADER = [
  'Name', 'Email', 'Financial Status', 'Paid at', 'Fulfillment Status', 'Fulfilled at', 'Accepts Marketing', 'Currency', 'Subtotal', 'Shipping', 'Taxes', 'Total',
  'Discount Code', 'Discount Amount', 'Shipping Method', 'Created at', 'Lineitem quantity', 'Lineitem name', 'Lineitem price', 'Lineitem compare at price', 'Lineitem sku',
  'Lineitem requires shipping', 'Lineitem taxable', 'Lineitem fulfillment status', 'Billing Name', 'Notes', 'Cancelled at', 'Payment Method', 'Payment Reference',
  'Refunded Amount', 'Vendor', 'Outstanding Balance', 'Employee', 'Location', 'Device ID', 'Id', 'Tags', 'Risk Level', 'Source', 'Phone',
];

/** A time as Shopify writes it: the shop's local time with its offset (-0300); now, less a minute, unless given. */
export const shopifyTime = (ms = Date.now() - 60_000): string => {
  const local = new Date(ms - 3 * 3_600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)} -0300`;
};

export interface ShopifyRow {
  /** The order's name (`#1001`). */
  name: string;
  /** The order's numeric id (the Id column; Shopify's pixel reports it as checkout.order.id). */
  id?: string;
  financial?: string;
  fulfillment?: string;
  total?: string;
  refunded?: string;
  cancelledAt?: string;
  createdAt?: string;
  /** A further line item of the order above: the order's own columns are left empty, as Shopify does. */
  continuation?: boolean;
}

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** One row of the export, its line ending included. */
export function shopifyLine(row: ShopifyRow): string {
  const cells: Record<string, string> = row.continuation
    ? { Name: row.name, 'Lineitem quantity': '1', 'Lineitem name': 'Socks', 'Lineitem price': '10.00' }
    : {
        Name: row.name,
        Email: 'ana@example.com',
        'Financial Status': row.financial ?? 'paid',
        'Fulfillment Status': row.fulfillment ?? 'unfulfilled',
        'Accepts Marketing': 'no',
        Currency: 'BRL',
        Subtotal: row.total ?? '100.00',
        Shipping: '0.00',
        Taxes: '0.00',
        Total: row.total ?? '100.00',
        'Created at': row.createdAt ?? shopifyTime(),
        'Lineitem quantity': '1',
        'Lineitem name': 'Trail shoe, blue',
        'Lineitem price': row.total ?? '100.00',
        'Cancelled at': row.cancelledAt ?? '',
        'Refunded Amount': row.refunded ?? '0.00',
        'Outstanding Balance': '0.00',
        Id: row.id ?? '',
        Source: 'web',
      };
  return `${SHOPIFY_HEADER.map((column) => csvCell(cells[column] ?? '')).join(',')}\r\n`;
}

/** The export of the given rows, whole. */
export function shopifyExport(rows: ShopifyRow[]): string {
  return `${SHOPIFY_HEADER.join(',')}\r\n${rows.map(shopifyLine).join('')}`;
}

/** The export of `count` orders, `rowOf` each, made as it is read: a thousand rows a chunk. */
export async function* shopifyExportStream(count: number, rowOf: (index: number) => ShopifyRow): AsyncGenerator<Buffer> {
  yield Buffer.from(`${SHOPIFY_HEADER.join(',')}\r\n`);
  for (let start = 0; start < count; start += 1000) {
    let chunk = '';
    for (let index = start; index < Math.min(count, start + 1000); index++) chunk += shopifyLine(rowOf(index));
    yield Buffer.from(chunk);
  }
}
