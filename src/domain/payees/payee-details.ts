// What payee details must be, each refusal naming the field and what to fix, and how every answer
// shows them (masked). Brazil: a CPF or CNPJ checked digit by digit, punctuated as people like
// (src/lib/tax-ids.ts), PIX keys checked for their type (a phone number read as Brazilians write
// it, kept in E.164); elsewhere: an IBAN checked by its digits
// (ibantools), a tax number as given.
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { BankMethod, PayeeDetails, PayeeMethod, PayeeView, PixMethod } from '../../schemas/payee.js';
import { phoneNumberOf } from '../../lib/phone-numbers.js';
import { cnpjOf, cpfOf } from '../../lib/tax-ids.js';
import { checkCountry } from '../access/application-checks.js';
import { invalid } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const CPF_EXAMPLE = 'a CPF has 11 digits, e.g. 529.982.247-25';
const CNPJ_EXAMPLE = 'a CNPJ has 14 characters, e.g. 11.222.333/0001-81 (or the new alphanumeric form, e.g. 12.ABC.345/01DE-35)';

function legalNameOf(value: string): string {
  const name = value.trim().replace(/\s+/g, ' ');
  if (name.length < 2) throw invalid('invalid_legal_name', 'legalName: write the full name the receiving account is held in (at least 2 characters)');
  return name;
}

function taxIdOf(value: string | undefined, country: string): string | undefined {
  const text = value?.trim() ?? '';
  if (country === 'BR') {
    if (text === '') throw invalid('invalid_tax_id', `taxId: a payee in Brazil needs a CPF or CNPJ (${CPF_EXAMPLE}; ${CNPJ_EXAMPLE})`);
    const id = cpfOf(text) ?? cnpjOf(text);
    if (!id) throw invalid('invalid_tax_id', `taxId: "${text}" is not a valid CPF or CNPJ: check every digit (${CPF_EXAMPLE}; ${CNPJ_EXAMPLE}; the last two are check digits)`);
    return id;
  }
  if (text === '') return undefined;
  if (!/^[\p{L}\p{N} ./-]{1,40}$/u.test(text)) throw invalid('invalid_tax_id', 'taxId: write the tax number as it is printed: letters, digits, spaces, dots, dashes or slashes (40 at most)');
  return text;
}

async function pixKeyOf(method: PixMethod): Promise<string> {
  const key = method.key.trim();
  switch (method.keyType) {
    case 'cpf': {
      const id = cpfOf(key);
      if (!id) throw invalid('invalid_pix_key', `method.key: "${key}" is not a valid CPF: check every digit (${CPF_EXAMPLE}; the last two are check digits)`);
      return id;
    }
    case 'cnpj': {
      const id = cnpjOf(key);
      if (!id) throw invalid('invalid_pix_key', `method.key: "${key}" is not a valid CNPJ: check every character (${CNPJ_EXAMPLE}; the last two are check digits)`);
      return id;
    }
    case 'email': {
      const address = key.toLowerCase();
      if (!EMAIL.test(address) || address.length > 77) throw invalid('invalid_pix_key', `method.key: "${key}" is not an e-mail address a PIX key can be (name@example.com, 77 characters at most)`);
      return address;
    }
    case 'phone': {
      const number = await phoneNumberOf(key);
      if (number.ok && number.country === 'BR') return number.e164;
      const why = !number.ok ? (number.refusal === 'unreadable' ? 'has characters a phone number does not' : 'is not a Brazilian number (check the area code and the digits)') : 'is not a Brazilian number: a PIX key is one';
      throw invalid('invalid_pix_key', `method.key: "${key}" ${why}; write the area code and the number as you like, e.g. (11) 98765-4321, 11987654321 or +55 11 98765-4321`);
    }
    case 'random': {
      const uuid = key.toLowerCase();
      if (!UUID.test(uuid)) throw invalid('invalid_pix_key', `method.key: "${key}" is not a random PIX key: it is the UUID your bank made, e.g. 3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d`);
      return uuid;
    }
  }
}

function bankOf(method: BankMethod): BankMethod {
  const local = { bankCode: method.bankCode, branch: method.branch, account: method.account };
  if (method.iban !== undefined) {
    const given = Object.entries({ ...local, accountType: method.accountType }).filter(([, v]) => v !== undefined).map(([k]) => k);
    if (given.length > 0) throw invalid('invalid_bank_account', `method: give either iban, or bankCode, branch and account, not both (remove ${given.join(', ')})`);
    const iban = electronicFormatIBAN(method.iban) ?? '';
    if (!isValidIBAN(iban)) throw invalid('invalid_iban', `method.iban: "${method.iban}" is not a valid IBAN: check it against your bank statement (its check digits or its length do not match its country's)`);
    return { type: 'bank', iban };
  }
  const missing = Object.entries(local).filter(([, v]) => v === undefined || v.trim() === '').map(([k]) => k);
  if (missing.length > 0) throw invalid('invalid_bank_account', `method: a bank account needs an iban, or bankCode, branch and account (missing: ${missing.join(', ')})`);
  const bankCode = method.bankCode!.trim();
  const branch = method.branch!.trim();
  const account = method.account!.trim().toUpperCase().replace(/\s/g, '');
  if (!/^\d{3}$/.test(bankCode)) throw invalid('invalid_bank_account', `method.bankCode: "${bankCode}" is not a bank code: the bank's 3 digits (COMPE), e.g. 001, 237, 341`);
  if (!/^\d{1,5}(-[\dX])?$/i.test(branch)) throw invalid('invalid_bank_account', `method.branch: "${branch}" is not a branch number: 1 to 5 digits, optionally -check digit, e.g. 1234 or 1234-5`);
  if (!/^\d{1,19}(-?[\dX])?$/.test(account) || account.replace(/\D/g, '').length < 2) throw invalid('invalid_bank_account', `method.account: "${method.account}" is not an account number: its digits and check digit, e.g. 12345-6`);
  return { type: 'bank', bankCode, branch: branch.toUpperCase(), account, accountType: method.accountType ?? 'checking' };
}

/** The details checked and in their stored form (digits without punctuation, lower-case keys…); a 400 naming the field otherwise. */
export async function checkPayeeDetails(input: PayeeDetails): Promise<PayeeDetails> {
  const legalName = legalNameOf(input.legalName);
  const country = checkCountry(input.country);
  const taxId = taxIdOf(input.taxId, country);
  const method: PayeeMethod = input.method.type === 'pix' ? { type: 'pix', keyType: input.method.keyType, key: await pixKeyOf(input.method) } : bankOf(input.method);
  return { legalName, country, ...(taxId !== undefined && { taxId }), method };
}

// ---- Masks ------------------------------------------------------------------------------------

const stars = (n: number) => '*'.repeat(Math.max(n, 0));

/** All but the last `keep` characters masked (all of a value that short). */
export function maskTail(value: string, keep: number): string {
  return value.length <= keep + 1 ? stars(value.length) : `${stars(value.length - keep)}${value.slice(-keep)}`;
}

/** A CPF as ***.456.789-**: the middle six digits, as Brazilian services show it. */
export const maskCpf = (digits: string): string => `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
/** A CNPJ as **.345.678/****-**. */
export const maskCnpj = (id: string): string => `**.${id.slice(2, 5)}.${id.slice(5, 8)}/****-**`;

function maskTaxId(taxId: string, country: string): string {
  if (country === 'BR') return taxId.length === 11 ? maskCpf(taxId) : maskCnpj(taxId);
  return maskTail(taxId, 4);
}

function maskPixKey({ keyType, key }: PixMethod): string {
  switch (keyType) {
    case 'cpf':
      return maskCpf(key);
    case 'cnpj':
      return maskCnpj(key);
    case 'email': {
      const [local = '', domain = ''] = key.split('@');
      return `${local.slice(0, 1)}***@${domain}`;
    }
    case 'phone':
      return `+55${stars(key.length - 7)}${key.slice(-4)}`;
    case 'random':
      return key.slice(0, -4).replace(/[0-9a-f]/g, '*') + key.slice(-4);
  }
}

/** An IBAN by its country and last 4 characters, in groups of four: PT50 **** … **54. */
const maskIban = (iban: string): string => `${iban.slice(0, 2)}${stars(iban.length - 6)}${iban.slice(-4)}`.replace(/(.{4})(?=.)/g, '$1 ');

function maskedMethod(method: PayeeMethod): PayeeView['method'] {
  if (method.type === 'pix') return { type: 'pix', keyType: method.keyType, key: maskPixKey(method) };
  if (method.iban) return { type: 'bank', iban: maskIban(method.iban) };
  return { type: 'bank', bankCode: method.bankCode!, branch: method.branch!, account: maskTail(method.account!, 4), accountType: method.accountType ?? 'checking' };
}

/** The method in one masked line, e.g. "PIX cpf ***.456.789-**". */
export function summaryOf(method: PayeeMethod): string {
  const masked = maskedMethod(method);
  if (masked.type === 'pix') return `PIX ${masked.keyType} ${masked.key}`;
  if (masked.iban) return `IBAN ${masked.iban}`;
  return `Bank ${masked.bankCode} branch ${masked.branch} account ${masked.account}`;
}

/** The details as answers show them. */
export function maskedView(details: PayeeDetails): Pick<PayeeView, 'legalName' | 'country' | 'taxId' | 'method' | 'summary'> {
  return {
    legalName: details.legalName,
    country: details.country,
    ...(details.taxId !== undefined && { taxId: maskTaxId(details.taxId, details.country) }),
    method: maskedMethod(details.method),
    summary: summaryOf(details.method),
  };
}
