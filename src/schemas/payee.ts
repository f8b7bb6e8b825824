// Where an affiliate is paid: its payee details (who receives the money, by which means), as its
// owners give them and as every answer shows them (masked). The full details (PayeeDetails) are
// read in clear only by the payout runs and the operator's export.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const;

const legalName = Type.String({ minLength: 1, maxLength: 140, description: 'The name the receiving account is held in: a person’s full name, or a company’s registered name' });
const country = Type.String({ minLength: 2, maxLength: 2, description: 'Where the payee is resident for tax, ISO 3166-1 alpha-2 (e.g. BR)' });
const taxId = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'In Brazil (required) a CPF (11 digits) or CNPJ (14 characters, numeric or the new alphanumeric form), with any spaces, dots, slashes and dashes (stored without them), check digits verified; elsewhere the tax number as free text (optional)',
});

export const PixMethod = Type.Object(
  {
    type: Type.Literal('pix'),
    keyType: Type.Union([Type.Literal('cpf'), Type.Literal('cnpj'), Type.Literal('email'), Type.Literal('phone'), Type.Literal('random')], { description: 'cpf, cnpj, email, phone (a Brazilian number as people write it, (11) 98765-4321, 11987654321 or +55 11 98765-4321, stored in E.164: +5511987654321) or random (the UUID the bank made)' }),
    key: Type.String({ minLength: 1, maxLength: 140, description: 'The PIX key, checked for its type: a CPF or CNPJ with its check digits (any spaces, dots, slashes and dashes), an e-mail address, a Brazilian phone number (area code required; refused as invalid_pix_key when no such number can exist), or a UUID' }),
  },
  { additionalProperties: false, description: 'A PIX key (Brazil)' },
);

export const BankMethod = Type.Object(
  {
    type: Type.Literal('bank'),
    iban: Type.Optional(Type.String({ minLength: 1, maxLength: 42, description: 'An IBAN (spaces allowed), its check digits verified; or leave out and give bankCode, branch and account' })),
    bankCode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'A Brazilian bank’s 3-digit code (COMPE), e.g. 001, 237, 341' })),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'The branch (agência): 1 to 5 digits, optionally -check digit, e.g. 1234 or 1234-5' })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'The account number with its check digit, e.g. 12345-6 (digits, the last one may be X)' })),
    accountType: Type.Optional(Type.Union([Type.Literal('checking'), Type.Literal('savings')], { description: 'checking (conta corrente, the default) or savings (poupança); Brazilian accounts only' })),
  },
  { additionalProperties: false, description: 'A bank account: an IBAN, or a Brazilian bank code, branch and account' },
);

export type PixMethod = Static<typeof PixMethod>;
export type BankMethod = Static<typeof BankMethod>;
export type PayeeMethod = PixMethod | BankMethod;

/**
 * One of the methods, chosen by `type`: validated as a discriminated union, so a refusal names the
 * field of the method sent rather than "matches no branch".
 */
export const PayeeMethod = Type.Unsafe<PayeeMethod>({
  // The type first: Ajv reads the discriminator only of an object.
  type: 'object',
  oneOf: [PixMethod, BankMethod],
  discriminator: { propertyName: 'type' },
  description: 'How the payee is paid: type pix with keyType and key, or type bank with an IBAN, or with bankCode, branch and account',
});

const details = { legalName, country, taxId: Type.Optional(taxId), method: PayeeMethod };

/** The full details, in clear: what the payout runs pay to. */
export const PayeeDetails = Type.Object(details, { additionalProperties: false });
export type PayeeDetails = Static<typeof PayeeDetails>;

export const PayeeInput = Type.Object(
  {
    ...details,
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your current password, to confirm the change (people without a second factor)' })),
    code: Type.Optional(Type.String({ minLength: 6, maxLength: 12, description: 'A current code of your authenticator app, to confirm the change (people with one); not needed within 10 minutes of passing your second factor' })),
  },
  {
    additionalProperties: false,
    description: 'The payee details, whole (they replace the ones saved), with a confirmation: the password, or, for a person with a second factor, a current code (or a session that passed it within 10 minutes)',
    ...Examples({
      pixCpf: ['A person paid by PIX to their CPF', { legalName: 'Ana Lima', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'cpf', key: '529.982.247-25' }, password: 'correct horse battery' }],
      pixRandom: ['A company paid by PIX to a random key', { legalName: 'Lima Conteúdo Ltda', country: 'BR', taxId: '11.222.333/0001-81', method: { type: 'pix', keyType: 'random', key: '3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d' }, code: '492039' }],
      bankBrazil: ['A Brazilian bank account', { legalName: 'Ana Lima', country: 'BR', taxId: '52998224725', method: { type: 'bank', bankCode: '341', branch: '1234', account: '12345-6', accountType: 'checking' }, password: 'correct horse battery' }],
      iban: ['An IBAN in Portugal', { legalName: 'João Silva', country: 'PT', taxId: '123456789', method: { type: 'bank', iban: 'PT50 0002 0123 1234 5678 9015 4' }, password: 'correct horse battery' }],
    }),
  },
);
export type PayeeInput = Static<typeof PayeeInput>;

const MaskedPix = Type.Object({ type: Type.Literal('pix'), keyType: PixMethod.properties.keyType, key: Type.String({ description: 'The key, masked: e.g. ***.456.789-**, a***@example.com, +55*******4321' }) });
const MaskedBank = Type.Object({
  type: Type.Literal('bank'),
  iban: Type.Optional(Type.String({ description: 'The IBAN, masked but for its country and last 4 characters' })),
  bankCode: Type.Optional(Type.String()),
  branch: Type.Optional(Type.String()),
  account: Type.Optional(Type.String({ description: 'The account, masked but for its last 4 characters' })),
  accountType: Type.Optional(Type.Union([Type.Literal('checking'), Type.Literal('savings')])),
});

export const PayeeView = Type.Object(
  {
    legalName,
    country,
    taxId: Type.Optional(Type.String({ description: 'The tax id, masked: a CPF as ***.456.789-**, a CNPJ as **.345.678/****-**, others but for the last 4 characters' })),
    method: Type.Union([MaskedPix, MaskedBank], { description: 'The method, its key or account masked' }),
    summary: Type.String({ description: 'The method in one line, masked, e.g. "PIX cpf ***.456.789-**"' }),
    updatedAt: DateTime,
    heldUntil: Type.String({ format: 'date-time', description: 'Payouts wait until then after the last change (PAYEE_CHANGE_HOLD_HOURS, 48 hours by default)' }),
    held: Type.Boolean({ description: 'Whether payouts are held now (heldUntil is still to come)' }),
  },
  { description: 'Your payee details as every answer shows them: masked' },
);
export type PayeeView = Static<typeof PayeeView>;
