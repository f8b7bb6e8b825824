// Percentages as people type them ("2,5", "2,5 %" in pt-BR; "2.5", "2.5%" in en) to integer basis
// points (2,5 % → 250), without ever going through a binary fraction: a share typed on a form and
// the basis points the service keeps agree to the hundredth of a percent.
import { decimalMark } from './money-text.js';

/**
 * Basis points for `text` in `locale` (a percentage of 0 to 100 with two decimals at most), '' for
 * an empty field, or undefined when it is not such a percentage. A percent sign is ignored; the
 * other mark than the locale's is read as the decimal mark too when it is alone ("2.5" in pt-BR).
 */
export function basisPointsOf(text: string, locale: string): number | '' | undefined {
  const trimmed = text.replace(/[\s\u00a0\u202f]/g, '').replace(/%$/, '');
  if (trimmed === '') return text.trim() === '' ? '' : undefined;
  const decimal = decimalMark(locale);
  const other = decimal === ',' ? '.' : ',';
  const normalised = trimmed.split(other).length === 2 && !trimmed.includes(decimal) ? trimmed.replace(other, decimal) : trimmed;
  const match = new RegExp(`^(\\d{1,3})(?:\\${decimal}(\\d{1,2}))?$`).exec(normalised);
  if (!match) return undefined;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return basisPoints <= 10_000 ? basisPoints : undefined;
}

/** Basis points as a person would type the percentage back in `locale`, without the sign: 250 → "2,5" in pt-BR. */
export function typedPercent(basisPoints: number, locale: string): string {
  const whole = String(basisPoints).padStart(3, '0');
  // A decimal string: Intl formats it exactly, no binary fraction in between.
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }).format(`${whole.slice(0, -2)}.${whole.slice(-2)}` as unknown as number);
}
