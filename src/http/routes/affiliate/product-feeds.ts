// GET /affiliate/feeds/products.csv and .xml: the products the caller may promote, each with a
// tracked deep link for one of its channels, streamed, one version per day (ETag, 304).
import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import type { FeedItem } from '../../../domain/catalog/product-feeds.js';
import { formatMinor } from '../../../domain/money.js';
import { CSV_CELLS_RULE, csvLine } from '../../../lib/csv.js';
import { xmlText } from '../../../lib/xml.js';
import { errorResponses } from '../../responses.js';
import { refuseWritingKeyInUrl } from '../../feed-key.js';
import { productFilterProperties, productFiltersOf } from './products-list.js';

const Query = Type.Object(
  {
    channelId: Type.String({ minLength: 1, maxLength: 200, description: 'The channel the deep links count for: one of yours (GET /affiliate/channels)' }),
    mdasc: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your own tracking id, carried by every deep link to the product page as the query parameter mdasc' })),
    key: Type.Optional(
      Type.String({
        description:
          'Your API key, for tools that can only be given a URL (comparison sites, shop platforms); the x-api-key header wins when both are sent. It must be a key that can only read (e.g. one made with just products:read): a key with any write scope is refused here with 403 key_not_read_only. Nowhere else is a key read from the URL',
      }),
    ),
    ...productFilterProperties,
  },
  { additionalProperties: false },
);
type Query = Static<typeof Query>;

/** The CSV's columns, in order. */
const COLUMNS: Array<[string, (item: FeedItem) => string | number | undefined]> = [
  ['id', (i) => i.id],
  ['organizationId', (i) => i.organizationId],
  ['brand', (i) => i.brandName],
  ['name', (i) => i.name],
  ['description', (i) => i.description],
  ['link', (i) => i.link],
  ['url', (i) => i.url],
  ['imageUrl', (i) => i.imageUrl],
  ['price', (i) => i.price],
  ['listPrice', (i) => i.listPrice],
  ['currency', (i) => i.currency],
  ['available', (i) => String(i.available)],
  ['categories', (i) => i.categories.join(' > ')],
];

async function* csvOf(items: AsyncIterable<FeedItem>): AsyncGenerator<string> {
  yield csvLine(COLUMNS.map(([name]) => name));
  for await (const item of items) yield csvLine(COLUMNS.map(([, cell]) => cell(item)));
}

const element = (name: string, value: string | undefined) => (value === undefined || value === '' ? '' : `<g:${name}>${xmlText(value)}</g:${name}>`);

/** An item of Google Merchant Center's RSS 2.0 feed: a discount is price (before) and sale_price (now). */
function xmlItem(item: FeedItem): string {
  const price = item.listPrice ?? item.price;
  return (
    '<item>' +
    element('id', `${item.organizationId}:${item.id}`) +
    element('title', item.name) +
    element('description', item.description) +
    element('link', item.link) +
    element('image_link', item.imageUrl) +
    element('availability', item.available ? 'in_stock' : 'out_of_stock') +
    element('price', price === undefined ? undefined : formatMinor(price, item.currency)) +
    element('sale_price', item.listPrice === undefined || item.price === undefined ? undefined : formatMinor(item.price, item.currency)) +
    element('brand', item.brandName) +
    element('product_type', item.categories.join(' > ')) +
    element('condition', 'new') +
    '</item>\n'
  );
}

async function* xmlOf(items: AsyncIterable<FeedItem>, title: string, link: string): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n<title>${xmlText(title)}</title>\n<link>${xmlText(link)}</link>\n<description>Products with tracked links</description>\n`;
  for await (const item of items) yield xmlItem(item);
  yield '</channel>\n</rss>\n';
}

/** Whether If-None-Match names this ETag (or is *); weak tags match, as for a GET. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

const FORMATS = {
  csv: { type: 'text/csv; charset=utf-8', write: (items: AsyncIterable<FeedItem>) => csvOf(items) },
  xml: { type: 'application/xml; charset=utf-8', write: (items: AsyncIterable<FeedItem>, publicUrl: string) => xmlOf(items, 'Product feed', publicUrl) },
};

function feedRoute(app: App, services: ServingServices, format: keyof typeof FORMATS): void {
  const description =
    format === 'csv'
      ? `CSV (RFC 4180, a header line first): ${COLUMNS.map(([name]) => name).join(', ')}. price and listPrice are integer cents (listPrice only when it is above price); categories are joined with " > ". ${CSV_CELLS_RULE} Programs that need the brand’s texts exactly as written read the XML feed.`
      : 'Google Merchant Center RSS 2.0 (namespace g, http://base.google.com/ns/1.0): per item g:id (organizationId:id), g:title, g:description, g:link (the deep link), g:image_link, g:availability, g:price and, for a discount, g:sale_price (major units and currency, e.g. 199.90 BRL), g:brand, g:product_type, g:condition.';
  app.get(
    `/affiliate/feeds/products.${format}`,
    {
      schema: {
        tags: ['Products'],
        summary: `Products you may promote, with deep links, as ${format === 'csv' ? 'CSV' : 'a Google Merchant Center feed'}`,
        description:
          `Addition to the spec. Every product GET /affiliate/products would list with the same filters (no pages), newest first, except those of brands that take no links from the channel (inactive, or not accepting its kind), each with a deep link: the short link of the brand for this channel and mdasc with the product page signed in it (to, sig). A visit lands on the product page and counts as a click of the channel, with mdasc; a changed or foreign product URL lands on the brand's home page instead. ${description} ` +
          'Streamed. One version per affiliate and UTC day: the ETag changes with the day and the query, Cache-Control keeps it until the day ends, and If-None-Match with the ETag answers 304. An unknown or foreign channelId answers 404 channel_not_found.',
        security: [{ apiKey: [] }],
        querystring: Query,
        produces: [format === 'csv' ? 'text/csv' : 'application/xml'],
        response: {
          200: Type.String({ description: FORMATS[format].type }),
          304: Type.Null({ description: 'The feed has not changed since the ETag given in If-None-Match (same day, same query)' }),
          ...errorResponses(403, 404),
        },
      },
    },
    async (request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) => {
      refuseWritingKeyInUrl(request);
      const q = request.query;
      const filters = productFiltersOf(q);
      const shape = JSON.stringify([format, q.channelId, q.mdasc ?? null, filters.search ?? null, filters.priceFrom ?? null, filters.priceTo ?? null, filters.organizationIds ? [...filters.organizationIds].sort() : null, filters.isAvailable ?? null]);
      const { etag, maxAge, channel } = await services.affiliateFeeds.version(request.affiliateId, q.channelId, shape);
      reply.header('etag', etag).header('cache-control', `private, max-age=${maxAge}`);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const items = services.affiliateFeeds.items(request.affiliateId, channel, { channelId: q.channelId, mdasc: q.mdasc, filters });
      reply.header('content-type', FORMATS[format].type).header('content-disposition', `attachment; filename="products.${format}"`);
      // Streamed batch by batch; the 200 schema above documents the body, it does not serialise it.
      return reply.send(Readable.from(FORMATS[format].write(items, services.links.publicUrl)));
    },
  );
}

export const productFeedCsvRoute = (app: App, services: ServingServices): void => feedRoute(app, services, 'csv');
export const productFeedXmlRoute = (app: App, services: ServingServices): void => feedRoute(app, services, 'xml');
