// Phone numbers as Brazilians write them, `(11) 98765-4321`, `+55 11 98765-4321`, `011 98765-4321`
// or `11987654321`, read by libphonenumber-js (its full metadata: which area codes and number
// lengths exist) into E.164, `+5511987654321`. The server reads them; pages send what was typed.
// Its metadata (240 KB) is loaded with the first number read, not at every start.
import type { CountryCode } from 'libphonenumber-js/max';

export type PhoneNumber = { ok: true; e164: string; country: string | undefined } | { ok: false; refusal: PhoneRefusal };

/** Why a text is not a phone number: stable ids, which callers turn into refusals. */
export type PhoneRefusal =
  /** Letters or signs other than spaces, dots, dashes, parentheses and a leading +. */
  | 'unreadable'
  /** Digits, but no number of that country (a missing area code, one digit too many or too few, an area code that does not exist). */
  | 'not_a_number';

/** `text` in E.164; a number without + is read as one of `country` (Brazil unless said), a leading 0 or 55 allowed. */
export async function phoneNumberOf(text: string, country: CountryCode = 'BR'): Promise<PhoneNumber> {
  const value = text.trim();
  if (!/^\+?[\d\s().-]+$/.test(value) || !/\d/.test(value)) return { ok: false, refusal: 'unreadable' };
  const { parsePhoneNumberFromString } = await import('libphonenumber-js/max');
  const number = parsePhoneNumberFromString(value, country);
  if (!number?.isValid()) return { ok: false, refusal: 'not_a_number' };
  return { ok: true, e164: number.number, country: number.country };
}
