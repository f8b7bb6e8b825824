// Joining the network: an affiliate's sign-up, a brand's application, the address confirmed by
// its link, and what the forms offer.
import { Type, type Static } from '@sinclair/typebox';
import { PROFILE_KINDS } from '../lib/profile-addresses.js';
import { Currency, Examples } from './common.js';

const Language = Type.Union([Type.Literal('en'), Type.Literal('pt-BR')], { description: 'The language of the portal and of every message sent to the person' });

/** What both forms ask (each names its own name and website). */
const joining = {
  email: Type.String({ minLength: 3, maxLength: 254, description: 'Where the verification link is sent; the address the person signs in with. Throwaway domains are refused' }),
  language: Language,
  country: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2, e.g. BR' }),
  acceptTerms: Type.Literal(true, { description: "Acceptance of the network's terms: their version, the time and the client address are recorded" }),
  nickname: Type.Optional(Type.String({ maxLength: 200, description: 'Leave out or empty: the pages hide it from people, and a request that fills it in is refused' })),
};

export const SignUp = Type.Object(
  {
    ...joining,
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Your name or your publication’s: the affiliate is called so' }),
    website: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Your main site or social profile, written as you like: www.yoursite.com.br, instagram.com/you, @you (with channelKind) or a full URL. Stored as an https address (a profile on its network’s usual host, e.g. https://www.instagram.com/you, without the query of a share link; a site as written, https:// added when no scheme is given); it becomes your first channel. Refused only when it cannot be an address: invalid_website (not an address), website_network_needed (a bare @handle without channelKind), website_network_mismatch (an address on another network than channelKind), invalid_profile_handle (characters the network does not allow in a handle), website_profile_missing (the network’s address alone)',
    }),
    channelKind: Type.Optional(
      Type.Union(
        PROFILE_KINDS.map((kind) => Type.Literal(kind)),
        { description: 'Which network website is a profile on (instagram, tiktok, youtube, x), or site. Needed for a bare @handle or handle; left out, the address’s host decides (instagram.com → instagram, any other → site)' },
      ),
    ),
    password: Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters, not among the most common passwords' }),
  },
  {
    additionalProperties: false,
    ...Examples({
      blog: ['A blogger in Brazil', { name: 'Ana Lima', email: 'ana@example.com', password: 'correct horse battery', country: 'BR', language: 'pt-BR', website: 'https://ana.example.com', acceptTerms: true }],
      instagram: ['A creator on Instagram, by handle', { name: 'Ana Souza', email: 'ana.souza@example.com', password: 'correct horse battery', country: 'BR', language: 'pt-BR', website: '@anasouza.cria', channelKind: 'instagram', acceptTerms: true }],
    }),
  },
);
export type SignUp = Static<typeof SignUp>;

export const BrandApplication = Type.Object(
  {
    ...joining,
    company: Type.String({ minLength: 1, maxLength: 100, description: 'The brand’s name, as affiliates will see it' }),
    name: Type.String({ minLength: 1, maxLength: 100, description: 'The contact person: they become the brand’s owner in the portal' }),
    country: Type.String({ minLength: 2, maxLength: 2, description: 'Where the company is registered, ISO 3166-1 alpha-2 (e.g. BR)' }),
    website: Type.String({ minLength: 1, maxLength: 2048, description: 'The shop’s site, written as you like (www.lojaazul.com.br or a full URL): stored as an https address (https:// added when no scheme is given); invalid_website when it cannot be one' }),
    taxId: Type.String({ minLength: 2, maxLength: 40, description: 'The company’s tax id: a valid CNPJ in Brazil (any spaces, dots, slashes and dashes; check digits verified; stored without them), the tax or VAT number elsewhere' }),
    currency: Currency('ISO 4217 code of the shop’s prices and orders, e.g. BRL'),
    expectedMonthlyOrders: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Orders a month the brand expects through affiliates' }),
  },
  {
    additionalProperties: false,
    ...Examples({
      shop: [
        'A Brazilian shop',
        { company: 'Loja Azul', name: 'Bruno Reis', email: 'bruno@lojaazul.example', country: 'BR', language: 'pt-BR', website: 'https://lojaazul.example', taxId: '11.222.333/0001-81', currency: 'BRL', expectedMonthlyOrders: 300, acceptTerms: true },
      ],
    }),
  },
);
export type BrandApplication = Static<typeof BrandApplication>;

export const VerifyApplication = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 100, description: 'The token of the link in the verification mail' }) },
  { additionalProperties: false, ...Examples({ link: ['The token from the link', { token: 'Jx3vQm8TzR1bK5wN0pLs7YdC2hFa9UeG4iOq6MnVt' }] }) },
);
export type VerifyApplication = Static<typeof VerifyApplication>;

export const VerifiedApplication = Type.Object(
  {
    kind: Type.Union([Type.Literal('affiliate'), Type.Literal('brand')]),
    status: Type.Union([Type.Literal('pending'), Type.Literal('approved')], { description: 'pending: an operator decides next, and the person is mailed; approved: affiliates approved at once can sign in now' }),
  },
  { description: 'An application whose address is confirmed' },
);

export const JoiningOptions = Type.Object(
  {
    termsVersion: Type.String({ description: 'The version of the terms accepted by joining now' }),
    termsUrl: Type.Optional(Type.String({ description: 'Where the terms are read' })),
    countries: Type.Array(Type.String(), { description: 'Country codes accepted (ISO 3166-1 alpha-2)' }),
    currencies: Type.Array(Type.String(), { description: 'Currency codes accepted for a brand (ISO 4217)' }),
  },
  { description: 'What the sign-up and application forms offer' },
);
