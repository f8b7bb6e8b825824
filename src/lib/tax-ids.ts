// Brazilian tax ids as people write them: a CPF (11 digits) or a CNPJ (14 characters, numeric or
// the new alphanumeric form), with any spaces, dots, slashes and dashes between them, their check
// digits verified by cpf-cnpj-validator. Stored without the punctuation.
import { cnpj, cpf } from 'cpf-cnpj-validator';

/** The punctuation people put in tax ids, anywhere and repeated: spaces, dots, slashes, dashes. */
const PUNCTUATION = /[\s./-]+/g;

/** The CPF as 11 digits, or undefined when it is not a valid one. */
export function cpfOf(value: string): string | undefined {
  const digits = value.replace(PUNCTUATION, '');
  return /^\d{11}$/.test(digits) && cpf.isValid(digits) ? digits : undefined;
}

/** The CNPJ as 14 characters (digits and capitals), or undefined when it is not a valid one. */
export function cnpjOf(value: string): string | undefined {
  const id = value.replace(PUNCTUATION, '').toUpperCase();
  return /^[0-9A-Z]{12}\d{2}$/.test(id) && cnpj.isValid(id) ? id : undefined;
}
