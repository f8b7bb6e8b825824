import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Defaulted, Examples, Uuid, WithoutDefaults } from './common.js';

const Image = Type.Object({ url: Type.String({ maxLength: 2048 }) });

/** Free-form extra data: each element is a { key, value } pair or any JSON value the brand sends. */
const Metadata = Type.Array(Type.Unknown(), {
  description: 'Additional data as the brand supplied it; elements are usually { "key": string, "value": string } pairs. No null anywhere in it (leave the entry out): a product with one is refused with 400 invalid_body',
});

const Cents = (description: string, more = '') => Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: `${description}, in integer cents${more}` });

const pricingProperties = {
  listPrice: Cents('Price before discount'),
  price: Cents('Current selling price'),
  metadata: Metadata,
};
const stockProperties = {
  value: Type.Integer({ minimum: 0, description: 'Units in stock' }),
  metadata: Metadata,
};

const optionProperties = {
  id: Type.String({ minLength: 1, maxLength: 200 }),
  ean: Type.String({ maxLength: 64, description: 'European Article Number' }),
  name: Type.String({ maxLength: 500 }),
  available: Type.Boolean(),
  seller: Type.String({ maxLength: 200, description: 'Seller identifier' }),
  images: Type.Array(Image),
  categories: Type.Array(Type.String(), { description: 'Category names, most general first' }),
  brands: Type.Array(Type.String(), { description: 'Manufacturer brand names' }),
  pricing: Type.Array(Type.Object(pricingProperties), { description: 'Prices in integer cents, like the price filter' }),
  stocks: Type.Array(Type.Object(stockProperties)),
  metadata: Metadata,
};

export const ProductOption = Type.Object(optionProperties, { $id: 'ProductOption', additionalProperties: false, description: 'A variant of a product (size, colour…)' });

/** An option as a brand writes it: id, available and pricing; the rest may be left out (empty). */
const ProductOptionInput = Type.Object(
  {
    ...optionProperties,
    ean: Defaulted(optionProperties.ean, ''),
    name: Defaulted(optionProperties.name, ''),
    seller: Defaulted(optionProperties.seller, ''),
    images: Defaulted(optionProperties.images, []),
    categories: Defaulted(optionProperties.categories, []),
    brands: Defaulted(optionProperties.brands, []),
    pricing: Type.Array(Type.Object({ ...pricingProperties, metadata: Defaulted(Metadata, []) }, { additionalProperties: false }), {
      description: 'Prices in integer cents, like the price filter; each price\'s metadata may be left out (empty)',
    }),
    stocks: Defaulted(Type.Array(Type.Object({ ...stockProperties, metadata: Defaulted(Metadata, []) }, { additionalProperties: false })), []),
    metadata: Defaulted(Metadata, []),
  },
  { additionalProperties: false, description: 'A variant of the product (size, colour…): id, available and pricing; the other fields may be left out and are then empty' },
);

const productProperties = {
  organizationId: Uuid,
  id: Type.String({ minLength: 1, maxLength: 200, description: 'Product identifier, unique per brand (the brand chooses it)' }),
  available: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
  name: Type.String({ minLength: 1, maxLength: 500 }),
  description: Type.String({ maxLength: 100_000, description: 'HTML' }),
  url: Type.String({ maxLength: 2048, description: 'Product page URL' }),
  images: Type.Array(Image),
  options: Type.Array(Type.Ref(ProductOption), { description: 'Variants' }),
  metadata: Metadata,
};

/**
 * What a brand writes of a product besides its brand and id: its name, page, availability and a
 * price (one `price`, or `options` each with its pricing); the rest may be left out (empty).
 */
const productInputProperties = {
  available: productProperties.available,
  name: productProperties.name,
  url: productProperties.url,
  price: Type.Optional(
    Cents('The product\'s one price', ', instead of options. Stored as one option whose id is the product\'s, available as the product, with pricing [{ listPrice, price }] and the rest empty'),
  ),
  listPrice: Type.Optional(Cents('Price before discount', ', with price only; default: price (no discount)')),
  options: Type.Optional(Type.Array(ProductOptionInput, { description: 'Variants, each with its pricing, instead of price' })),
  description: Defaulted(productProperties.description, ''),
  images: Defaulted(productProperties.images, []),
  metadata: Defaulted(Metadata, []),
  createdAt: Type.Optional(DateTime),
  updatedAt: Type.Optional(DateTime),
};

/** A product as the catalogue import reads it: its brand and id, and what a brand writes. */
export const ProductInput = Type.Object(
  {
    organizationId: productProperties.organizationId,
    id: productProperties.id,
    ...productInputProperties,
    integration: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ProductInput = Static<typeof ProductInput>;

/** A product with every field filled in and its prices in options: what a product input is stored as. */
export type CompleteProduct = Omit<Product, 'currency' | 'createdAt' | 'updatedAt'> & Partial<Pick<Product, 'createdAt' | 'updatedAt'>>;

const { organizationId: _organizationId, id: _id, ...brandProductProperties } = ProductInput.properties;

const SHORT_PRODUCT = { name: 'Trail running shoe', url: 'https://www.example.com/p/trail-shoe', available: true, price: 19990 };
const PRODUCT_WITH_OPTIONS = {
  name: 'Trail running shoe',
  url: 'https://www.example.com/p/trail-shoe',
  available: true,
  description: '<p>Light, with a grippy sole.</p>',
  images: [{ url: 'https://cdn.example.com/trail-shoe.jpg' }],
  options: [
    { id: 'trail-shoe-41', name: 'Size 41', available: true, pricing: [{ listPrice: 24990, price: 19990 }], stocks: [{ value: 12 }] },
    { id: 'trail-shoe-42', name: 'Size 42', available: false, pricing: [{ listPrice: 24990, price: 19990 }] },
  ],
};

/**
 * A product as its brand sends it through the API: the brand comes from the key and the id from
 * the path; either may still be given (the import's shape), and must then agree.
 */
export const BrandProductInput = Type.Object(
  {
    ...brandProductProperties,
    organizationId: Type.Optional(Uuid),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  {
    additionalProperties: false,
    ...Examples({ price: ['One price', SHORT_PRODUCT], options: ['Variants, each with its price and stock', PRODUCT_WITH_OPTIONS] }),
  },
);
export type BrandProductInput = Static<typeof BrandProductInput>;

/** NDJSON lines of products, as the bulk upload and its example take them. */
export const PRODUCT_LINES_EXAMPLE = [{ id: 'trail-shoe', ...SHORT_PRODUCT }, { id: 'city-shoe', ...PRODUCT_WITH_OPTIONS, name: 'City shoe', url: 'https://www.example.com/p/city-shoe' }]
  .map((line) => JSON.stringify(line))
  .join('\n');

/** The fields of a product a PATCH changes; at least one. */
export const BrandProductPatch = Type.Partial(Type.Object(WithoutDefaults(brandProductProperties)), {
  additionalProperties: false,
  minProperties: 1,
  ...Examples({ price: ['A new price', { price: 17990 }], available: ['Sold out', { available: false }] }),
});
export type BrandProductPatch = Static<typeof BrandProductPatch>;

export const Product = Type.Object(
  {
    ...productProperties,
    integration: Type.Optional(Type.String({ description: 'Source system the product was imported from' })),
    currency: Currency('Addition to the spec: ISO 4217 code of every price of the product (its brand’s currency); prices are integers in its minor unit'),
    brandName: Type.Optional(Type.String({ description: 'Addition to the spec: the brand’s name (in an affiliate’s product list)' })),
  },
  { $id: 'Product' },
);
export type Product = Static<typeof Product>;
export type ProductOption = Static<typeof ProductOption>;
