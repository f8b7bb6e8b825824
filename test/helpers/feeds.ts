// Google Merchant Center XML feeds made item by item as they are sent (never held whole) or a byte
// a second, and a loopback server answering what a test sets: the feed a brand's URL serves in
// feed tests, and the million-item feed of the bench.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface FeedShape {
  /** Items numbered 0..items-1. */
  items: number;
  currency?: string;
  /** Items left out (gone from the shop). */
  without?: (index: number) => boolean;
  /** Characters of each item's description. */
  descriptionChars?: number;
}

/** Items 0-2 of every ten share a group: three options of one product. */
export const groupOf = (index: number): string | undefined => (index % 10 < 3 ? `group-${Math.floor(index / 10)}` : undefined);
/** Every seventh item is out of stock. */
export const inStock = (index: number): boolean => index % 7 !== 0;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The price of item `index`: "129.90 BRL" form, whole cents. */
export const priceOf = (index: number): { cents: number; text: (currency: string) => string } => {
  const cents = 1000 + (index % 500) * 100 + (index % 100);
  return { cents, text: (currency) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')} ${currency}` };
};

export function itemXml(index: number, shape: Pick<FeedShape, 'currency' | 'descriptionChars'> = {}): string {
  const currency = shape.currency ?? 'BRL';
  const group = groupOf(index);
  const price = priceOf(index);
  const words = 'Light trail shoe with a grippy sole & breathable mesh. ';
  const description = words.repeat(Math.ceil((shape.descriptionChars ?? 120) / words.length)).slice(0, shape.descriptionChars ?? 120);
  return (
    `<item><g:id>item-${index}</g:id><title>${escape(`Trail shoe ${index}`)}</title><description>${escape(description)}</description>` +
    `<link>https://www.example.com/p/${index}</link><g:image_link>https://cdn.example.com/${index}.jpg</g:image_link>` +
    `<g:additional_image_link>https://cdn.example.com/${index}-b.jpg</g:additional_image_link>` +
    `<g:price>${price.text(currency)}</g:price>${index % 5 === 0 ? `<g:sale_price>${priceOf(index).text(currency).replace(/^\d+/, (whole) => String(Math.max(1, Number(whole) - 5)))}</g:sale_price>` : ''}` +
    `<g:availability>${inStock(index) ? 'in_stock' : 'out_of_stock'}</g:availability><g:brand>Acme</g:brand><g:gtin>${String(7890000000000 + index)}</g:gtin><g:mpn>MPN-${index}</g:mpn>` +
    `<g:product_type>Shoes &gt; Trail</g:product_type><g:google_product_category>187</g:google_product_category>${group ? `<g:item_group_id>${group}</g:item_group_id>` : ''}` +
    `<g:shipping><g:country>BR</g:country><g:price>0 BRL</g:price></g:shipping></item>\n`
  );
}

/** The feed's text, a few hundred items at a time. */
export async function* googleXml(shape: FeedShape): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Acme</title><link>https://www.example.com</link>\n';
  let piece = '';
  for (let index = 0; index < shape.items; index++) {
    if (shape.without?.(index)) continue;
    piece += itemXml(index, shape);
    if (piece.length > 64 * 1024) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}</channel></rss>\n`;
}

/** A feed's start, then a byte a second (for `seconds` at most, then its end): a server holding its fetcher. */
export async function* trickled(seconds = 60): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>';
  for (let sent = 0; sent < seconds; sent++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    yield ' ';
  }
  yield `${itemXml(0)}</channel></rss>\n`;
}

/** What the loopback server answers: a status, a content type, and the body made as it is sent. */
export interface Served {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: () => AsyncIterable<string | Buffer> | string | Buffer;
}

export interface FeedServer {
  url(path?: string): string;
  serve(path: string, served: Served): void;
  close(): Promise<void>;
}

/** A feed server on 127.0.0.1: each path answers what was last set for it (404 otherwise). */
export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Served>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const served = routes.get(new URL(request.url ?? '/', 'http://x').pathname);
    if (!served) return response.writeHead(404).end('not found');
    response.writeHead(served.status ?? 200, { 'content-type': served.contentType ?? 'application/xml', ...served.headers });
    const body = served.body();
    if (typeof body === 'string' || Buffer.isBuffer(body)) return response.end(body);
    Readable.from(body).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/feed.xml') => `http://127.0.0.1:${port}${path}`,
    serve: (path, served) => void routes.set(path, served),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
