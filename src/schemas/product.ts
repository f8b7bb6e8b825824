import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Uuid } from './common.js';

const Image = Type.Object({ url: Type.String({ maxLength: 2048 }) });

/** Free-form extra data: each element is a { key, value } pair or any JSON value the brand sends. */
const Metadata = Type.Array(Type.Unknown(), {
  description: 'Additional data as the brand supplied it; elements are usually { "key": string, "value": string } pairs. No null anywhere in it (leave the entry out): a product with one is refused with 400 invalid_body',
});

const Cents = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: `${description}, in integer cents` });

export const Pricing = Type.Object({
  listPrice: Cents('Price before discount'),
  price: Cents('Current selling price'),
  metadata: Metadata,
});

export const Stock = Type.Object({
  value: Type.Integer({ minimum: 0, description: 'Units in stock' }),
  metadata: Metadata,
});

export const ProductOption = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    ean: Type.String({ maxLength: 64, description: 'European Article Number' }),
    name: Type.String({ maxLength: 500 }),
    available: Type.Boolean(),
    seller: Type.String({ maxLength: 200, description: 'Seller identifier' }),
    images: Type.Array(Image),
    categories: Type.Array(Type.String(), { description: 'Category names, most general first' }),
    brands: Type.Array(Type.String(), { description: 'Manufacturer brand names' }),
    pricing: Type.Array(Pricing, { description: 'Prices in integer cents, like the price filter' }),
    stocks: Type.Array(Stock),
    metadata: Metadata,
  },
  { $id: 'ProductOption', additionalProperties: false, description: 'A variant of a product (size, colour…)' },
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

export const ProductInput = Type.Object(
  {
    ...productProperties,
    createdAt: Type.Optional(DateTime),
    updatedAt: Type.Optional(DateTime),
    integration: Type.Optional(Type.String({ maxLength: 200 })),
    options: Type.Array(ProductOption),
  },
  { additionalProperties: false },
);
export type ProductInput = Static<typeof ProductInput>;

const { organizationId: _organizationId, id: _id, ...brandProductProperties } = ProductInput.properties;

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
  { additionalProperties: false },
);
export type BrandProductInput = Static<typeof BrandProductInput>;

/** The fields of a product a PATCH changes; at least one. */
export const BrandProductPatch = Type.Partial(Type.Object(brandProductProperties), { additionalProperties: false, minProperties: 1 });
export type BrandProductPatch = Static<typeof BrandProductPatch>;

export const Product = Type.Object(
  {
    ...productProperties,
    integration: Type.Optional(Type.String({ description: 'Source system the product was imported from' })),
    currency: Currency('Addition to the spec: ISO 4217 code of every price of the product (its brand’s currency); prices are integers in its minor unit'),
  },
  { $id: 'Product' },
);
export type Product = Static<typeof Product>;
export type ProductOption = Static<typeof ProductOption>;
