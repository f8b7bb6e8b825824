// A product as its form holds it, and back: the few things a shop owner fills in, turned into the
// body any client sends (its options, each with its pricing), keeping what the form does not show
// (an option's stock, seller, metadata) as it was stored.
import type { components, paths, Product } from '../../../../packages/client/index.js';

type ProductOption = components['schemas']['ProductOption'];

export type ProductBody = paths['/advertiser/products/{id}']['put']['requestBody']['content']['application/json'];
type OptionBody = NonNullable<ProductBody['options']>[number];

/** A variation (size, colour…) as the form shows it: its own price only when it differs. */
export interface Variant {
  /** The stored option's id; empty for a variation added on the page. */
  id: string;
  name: string;
  ean: string;
  available: boolean;
  price: number | null;
}

export interface Draft {
  id: string;
  name: string;
  url: string;
  price: number | null;
  listPrice: number | null;
  available: boolean;
  images: string[];
  categories: string[];
  description: string;
  ean: string;
  variants: Variant[];
  /** The stored options, whose hidden fields a save keeps. */
  stored: ProductOption[];
}

export const emptyDraft = (): Draft => ({ id: '', name: '', url: '', price: null, listPrice: null, available: true, images: [], categories: [], description: '', ean: '', variants: [], stored: [] });

/** Whether the product's options are variations a person named, rather than the one option a price is kept in. */
const hasVariants = (options: ProductOption[]) => options.length > 1 || (options.length === 1 && options[0]!.name !== '');

/** The form's values for a stored product. */
export function draftOf(product: Product): Draft {
  const prices = product.options.flatMap((o) => o.pricing);
  const lowest = prices.length > 0 ? prices.reduce((a, b) => (b.price < a.price ? b : a)) : undefined;
  const variants = hasVariants(product.options);
  return {
    id: product.id,
    name: product.name,
    url: product.url,
    price: lowest?.price ?? null,
    listPrice: lowest && lowest.listPrice > lowest.price ? lowest.listPrice : null,
    available: product.available,
    images: product.images.map((i) => i.url),
    categories: [...new Set(product.options.flatMap((o) => o.categories))],
    description: product.description,
    ean: variants ? '' : (product.options[0]?.ean ?? ''),
    variants: variants ? product.options.map((o) => ({ id: o.id, name: o.name, ean: o.ean, available: o.available, price: o.pricing[0] && o.pricing[0].price !== lowest?.price ? o.pricing[0].price : null })) : [],
    stored: product.options,
  };
}

/** A copy of a product to save under a new code: the same fields, new ids, the name marked as a copy. */
export function duplicateOf(product: Product, name: string): Draft {
  const draft = draftOf(product);
  return { ...draft, id: '', name, variants: draft.variants.map((v) => ({ ...v, id: '' })), stored: [] };
}

/** Letters and digits of a text, lower-case and without accents, joined by hyphens. */
export function slugOf(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

/** A product code made from its name and a few random characters, so that two products never share one. */
export function newProductId(name: string): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => (b % 36).toString(36)).join('');
  return `${slugOf(name) || 'produto'}-${random}`;
}

/** The body of a product's PUT (or, without createdAt and the rest, its PATCH): its options carry price, categories and barcode. */
export function bodyOf(draft: Draft & { price: number }): Omit<ProductBody, 'price' | 'listPrice'> & { options: OptionBody[] } {
  const listPriceFor = (price: number) => Math.max(draft.listPrice ?? price, price);
  const option = (kept: ProductOption | undefined, fields: { id: string; name: string; ean: string; available: boolean; price: number }): OptionBody => ({
    ...(kept && { seller: kept.seller, images: kept.images, brands: kept.brands, stocks: kept.stocks, metadata: kept.metadata }),
    id: fields.id,
    name: fields.name,
    ean: fields.ean,
    available: fields.available,
    categories: draft.categories,
    pricing: [{ price: fields.price, listPrice: listPriceFor(fields.price), metadata: kept?.pricing[0]?.metadata ?? [] }],
  });
  const used = new Set<string>();
  const variantId = (variant: Variant, n: number) => {
    let id = variant.id || `${draft.id}-${slugOf(variant.name) || n}`;
    for (let k = 2; used.has(id); k++) id = `${draft.id}-${slugOf(variant.name) || n}-${k}`;
    used.add(id);
    return id;
  };
  const options =
    draft.variants.length === 0
      ? [option(draft.stored.length === 1 && !hasVariants(draft.stored) ? draft.stored[0] : undefined, { id: draft.stored.length === 1 && !hasVariants(draft.stored) ? draft.stored[0]!.id : draft.id, name: '', ean: draft.ean, available: draft.available, price: draft.price })]
      : draft.variants.map((v, i) => option(draft.stored.find((o) => o.id === v.id), { id: variantId(v, i + 1), name: v.name, ean: v.ean, available: v.available, price: v.price ?? draft.price }));
  return {
    name: draft.name,
    url: draft.url,
    available: draft.available,
    description: draft.description,
    images: draft.images.map((url) => ({ url })),
    options,
  };
}
