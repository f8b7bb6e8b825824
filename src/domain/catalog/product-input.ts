// A product as a brand writes it, made whole before it is stored: the fields left out take their
// defaults (empty), and a top-level price becomes the one option it stands for, so the catalogue
// answers every product in the same shape whichever way it was written.
import type { BrandProductPatch, CompleteProduct, ProductInput, ProductOption } from '../../schemas/product.js';
import { invalid } from '../errors.js';
import { gtinCheckDigit, gtinIsValid, isGtinShaped } from '../../lib/gtin.js';

type OptionInput = NonNullable<ProductInput['options']>[number];

/** The option a product written with `price` is stored with: the product's id and availability, the rest empty. */
function priceOption(id: string, available: boolean, price: number, listPrice: number): ProductOption {
  return { id, ean: '', name: '', available, seller: '', images: [], categories: [], brands: [], pricing: [{ listPrice, price, metadata: [] }], stocks: [], metadata: [] };
}

function completeOption(option: OptionInput): ProductOption {
  return {
    id: option.id,
    ean: option.ean ?? '',
    name: option.name ?? '',
    available: option.available,
    seller: option.seller ?? '',
    images: option.images ?? [],
    categories: option.categories ?? [],
    brands: option.brands ?? [],
    pricing: option.pricing.map((p) => ({ listPrice: p.listPrice, price: p.price, metadata: p.metadata ?? [] })),
    stocks: (option.stocks ?? []).map((s) => ({ value: s.value, metadata: s.metadata ?? [] })),
    metadata: option.metadata ?? [],
  };
}

const BOTH = 'give either price (the product\'s one price) or options (each with its pricing), not both';
const LIST_PRICE_ALONE = 'listPrice goes with price (with options, each option\'s pricing has its own listPrice)';

/** Refuses a product written with both ways of pricing it, or with neither. */
function checkPricing(input: Pick<ProductInput, 'price' | 'listPrice' | 'options'>): void {
  if (input.price !== undefined && input.options !== undefined) throw invalid('invalid_body', BOTH);
  if (input.listPrice !== undefined && input.price === undefined) throw invalid('invalid_body', LIST_PRICE_ALONE);
  if (input.price === undefined && input.options === undefined) {
    throw invalid('invalid_body', 'a product needs a price: price, in integer cents, or options, each with its pricing');
  }
}

/** The product with its defaults filled in and its price, if given as one, in its one option. */
export function completeProduct(input: ProductInput): CompleteProduct {
  checkPricing(input);
  const { price, listPrice, options, description = '', images = [], metadata = [], ...rest } = input;
  return {
    ...rest,
    description,
    images,
    metadata,
    options: options === undefined ? [priceOption(input.id, input.available, price!, listPrice ?? price!)] : options.map(completeOption),
  };
}

/**
 * The options a PATCH leaves a product with, when it changes them other than by giving options:
 * price and listPrice go to the product's one option (a product without options gets one, as with
 * PUT), and available to it as well, so the two never disagree. listPrice follows a new price when
 * it was equal to the old one (no discount stays none) and is kept otherwise, unless given. Which
 * option a price is for is unclear when there are several: 400 naming them.
 */
export function patchedOptions(stored: CompleteProduct, patch: BrandProductPatch): ProductOption[] | undefined {
  const { price, listPrice, available } = patch;
  const repricing = price !== undefined || listPrice !== undefined;
  if (patch.options !== undefined) {
    if (repricing) throw invalid('invalid_body', BOTH);
    return undefined;
  }
  const options = stored.options;
  if (repricing && options.length > 1) {
    throw invalid('invalid_body', `price applies to a product with one option; "${stored.id}" has ${options.length} (${options.map((o) => `"${o.id}"`).join(', ')}): send options, each with its pricing`);
  }
  const [option] = options;
  if (options.length !== 1 || !option) {
    if (!repricing) return undefined;
    if (price === undefined) throw invalid('invalid_body', `${LIST_PRICE_ALONE}: "${stored.id}" has no price yet`);
    return [priceOption(stored.id, available ?? stored.available, price, listPrice ?? price)];
  }
  const changed = { ...option, ...(available !== undefined && { available }) };
  if (!repricing) return changed.available === option.available ? undefined : [changed];
  if (option.pricing.length > 1) {
    throw invalid('invalid_body', `option "${option.id}" has ${option.pricing.length} prices: send options, each with its pricing`);
  }
  const current = option.pricing[0];
  const nextPrice = price ?? current?.price;
  if (nextPrice === undefined) throw invalid('invalid_body', `${LIST_PRICE_ALONE}: "${stored.id}" has no price yet`);
  const nextListPrice = listPrice ?? (current === undefined || current.listPrice === current.price ? nextPrice : current.listPrice);
  return [{ ...changed, pricing: [{ listPrice: nextListPrice, price: nextPrice, metadata: current?.metadata ?? [] }] }];
}

/**
 * Refuses an option's ean that has a GTIN's shape (8, 12, 13 or 14 digits) but not its check
 * digit: a mistyped barcode. Any other text is kept as sent (the field has always taken a seller's
 * own codes too).
 */
export function checkEans(options: ReadonlyArray<{ ean?: string }> | undefined): void {
  options?.forEach((option, i) => {
    const ean = option.ean ?? '';
    if (isGtinShaped(ean) && !gtinIsValid(ean)) {
      throw invalid('invalid_ean', `options[${i}].ean "${ean}" is not a valid GTIN/EAN: with these digits its last digit would be ${gtinCheckDigit(ean.slice(0, -1))}`);
    }
  });
}
