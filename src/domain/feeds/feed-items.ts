// Google Merchant Center items as products: each item is an option (variant) of the product named
// by its item_group_id, or, without one, a product of its own with the item as its one option.
// Prices become integer cents of the brand's currency from their decimal text, without floating
// point; an item priced in another currency, or missing what a product needs, is refused with the
// reason.
import type { ProductOption } from '../../schemas/product.js';
import { minorDigits } from '../money.js';

export const FEED_FORMATS = ['google-xml', 'google-tsv', 'csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** An item as read from the file: its fields by name (lower case, without the g: prefix), each with its values in order. */
export interface RawItem {
  fields: Map<string, string[]>;
  /** Where the item begins in the file (its line). */
  line: number;
}

/** An item the run did not take, and why. */
export interface Refusal {
  line?: number;
  item?: string;
  reason: string;
}

/** What the feed says of a product: its fields, and the options its items gave. */
export interface FeedProduct {
  id: string;
  name: string;
  description: string;
  url: string;
  images: Array<{ url: string }>;
  options: ProductOption[];
  metadata: Array<{ key: string; value: string }>;
}

/** Google's availability values that can be ordered now (or ahead). */
const ORDERABLE = new Set(['in_stock', 'in stock', 'preorder', 'backorder', 'available for order']);
const NOT_ORDERABLE = new Set(['out_of_stock', 'out of stock']);

/** Google allows 10 additional images per item. */
const MAX_ADDITIONAL_IMAGES = 10;

const LIMITS = { id: 200, name: 500, description: 100_000, url: 2048, ean: 64 } as const;

class Refused extends Error {}

const first = (item: RawItem, name: string): string | undefined => {
  const value = item.fields.get(name)?.find((v) => v.trim() !== '');
  return value?.trim();
};

function required(item: RawItem, name: string): string {
  const value = first(item, name);
  if (value === undefined) throw new Refused(`${name} is missing`);
  return value;
}

function limited(value: string, name: keyof typeof LIMITS, field: string): string {
  if (value.length > LIMITS[name]) throw new Refused(`${field} is longer than ${LIMITS[name].toLocaleString('en')} characters`);
  return value;
}

function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Refused(`${field} "${value.slice(0, 100)}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Refused(`${field} must be an http(s) URL`);
  return limited(value, 'url', field);
}

/**
 * "129.90 BRL" (or "BRL 129.90", or "129,90 BRL") → 12990 cents, checked to be in `currency`.
 * More decimals than the currency has, thousands separators or anything else is refused: a price
 * is never guessed.
 */
export function priceCents(text: string, currency: string, field = 'price'): number {
  const match = /^(?:([A-Za-z]{3})\s*)?(\d+)(?:[.,](\d+))?(?:\s*([A-Za-z]{3}))?$/.exec(text.trim());
  const code = (match?.[1] ?? match?.[4])?.toUpperCase();
  if (!match || !code || (match[1] && match[4])) throw new Refused(`${field} "${text.slice(0, 40)}" is not a price like "129.90 ${currency}" (amount, then its currency)`);
  if (code !== currency) throw new Refused(`${field} is in ${code}; your prices are in ${currency}: items in another currency are refused`);
  const digits = minorDigits(currency);
  const fraction = match[3] ?? '';
  if (fraction.length > digits) throw new Refused(`${field} "${text.trim()}" has more decimals than ${currency} has (${digits})`);
  const cents = BigInt(match[2]!) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0');
  if (cents > 1_000_000_000_000n) throw new Refused(`${field} "${text.trim()}" is too large`);
  return Number(cents);
}

function availability(item: RawItem): boolean {
  const value = required(item, 'availability').toLowerCase();
  if (ORDERABLE.has(value)) return true;
  if (NOT_ORDERABLE.has(value)) return false;
  throw new Refused(`availability "${value.slice(0, 40)}" is none of in_stock, out_of_stock, preorder, backorder`);
}

/** The pieces of a Google category path ("Apparel > Shoes"), most general first. */
const pathOf = (value: string | undefined): string[] => (value ? value.split('>').map((part) => part.trim()).filter((part) => part !== '') : []);

/** The item as the option it stands for, and the product it belongs to; or why it is refused. */
export function productOfItem(item: RawItem, currency: string): { ok: true; product: FeedProduct } | { ok: false; refusal: Refusal } {
  const id = first(item, 'id');
  try {
    if (id === undefined) throw new Refused('id is missing');
    limited(id, 'id', 'id');
    const name = limited(required(item, 'title'), 'name', 'title');
    const url = httpUrl(required(item, 'link'), 'link');
    const regular = priceCents(required(item, 'price'), currency);
    const saleText = first(item, 'sale_price');
    const sale = saleText === undefined ? undefined : priceCents(saleText, currency, 'sale_price');
    const available = availability(item);
    const imageLink = first(item, 'image_link');
    // A TSV or CSV feed lists additional images in one field, separated by commas.
    const additional = (item.fields.get('additional_image_link') ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
    const images = [...(imageLink ? [imageLink] : []), ...additional.slice(0, MAX_ADDITIONAL_IMAGES)].map((image, i) => ({ url: httpUrl(image, i === 0 && imageLink ? 'image_link' : 'additional_image_link') }));
    const gtin = first(item, 'gtin') ?? '';
    const brand = first(item, 'brand');
    const productType = first(item, 'product_type');
    const googleCategory = first(item, 'google_product_category');
    const mpn = first(item, 'mpn');
    const optionMetadata = [...(mpn ? [{ key: 'mpn', value: mpn }] : []), ...(googleCategory ? [{ key: 'google_product_category', value: googleCategory }] : [])];
    const option: ProductOption = {
      id,
      ean: limited(gtin, 'ean', 'gtin'),
      name,
      available,
      seller: '',
      images,
      categories: pathOf(productType),
      brands: brand ? [brand] : [],
      // A sale price lower than the regular one is the price now, the regular one its list price.
      pricing: [sale !== undefined && sale < regular ? { listPrice: regular, price: sale, metadata: [] } : { listPrice: regular, price: regular, metadata: [] }],
      stocks: [],
      metadata: optionMetadata,
    };
    const group = first(item, 'item_group_id');
    if (group !== undefined) limited(group, 'id', 'item_group_id');
    return {
      ok: true,
      product: {
        id: group ?? id,
        name,
        description: limited(first(item, 'description') ?? '', 'description', 'description'),
        url,
        images,
        options: [option],
        metadata: [...(productType ? [{ key: 'product_type', value: productType }] : []), ...(googleCategory ? [{ key: 'google_product_category', value: googleCategory }] : []), ...(group ? [{ key: 'item_group_id', value: group }] : [])],
      },
    };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return { ok: false, refusal: { line: item.line, ...(id !== undefined && { item: id.slice(0, 200) }), reason: error.message } };
  }
}

/** `later`'s options added to `product` (an option of the same id replaced): items of one group read apart. */
export function withOptionsOf(product: FeedProduct, later: FeedProduct): FeedProduct {
  const options = new Map(product.options.map((option) => [option.id, option]));
  for (const option of later.options) options.set(option.id, option);
  return { ...product, options: [...options.values()] };
}
