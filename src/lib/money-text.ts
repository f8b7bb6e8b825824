// Amounts as people type them ("129,90", "R$ 129,90", "1.299,90" in pt-BR; "129.90", "$1,299.90"
// in en) to integer cents, without ever going through a binary fraction. The locale says which mark
// separates the cents; the portal's money fields and the CLI's --amount read them the same way.

/** The mark that separates the cents in `locale` ("," in pt-BR, "." in en). */
export function decimalMark(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/**
 * Cents for `text` in `locale` (two decimal places at most), '' for an empty field, or undefined
 * when it is not an amount. A currency sign or code around the number ("R$", "BRL", "$") is
 * ignored; a leading minus is kept only when `signed`.
 */
export function centsOf(text: string, locale: string, { signed = false } = {}): number | '' | undefined {
  // Spaces of every kind (Intl writes "R$ 129,90" with a no-break space), then a sign or code.
  let trimmed = text.replace(/[\s\u00a0\u202f]/g, '').replace(/^([-−]?)(?:[A-Z]{3}|[A-Z]{0,2}\$|[€£¥])/i, '$1').replace(/(?:[A-Z]{3}|[€£¥])$/i, '');
  if (trimmed === '') return text.trim() === '' ? '' : undefined;
  const negative = /^[-−]/.test(trimmed);
  if (negative) {
    if (!signed) return undefined;
    trimmed = trimmed.slice(1);
  }
  const decimal = decimalMark(locale);
  const grouping = decimal === ',' ? '.' : ',';
  // A lone other mark followed by one or two digits is a decimal mark too (49.90 typed in pt-BR).
  const lone = new RegExp(`^\\d+\\${grouping}\\d{1,2}$`).test(trimmed);
  // Grouping marks only where they belong: every three digits (1.299.900,00, never 12.99.00).
  if (!lone && trimmed.includes(grouping) && !new RegExp(`^\\d{1,3}(\\${grouping}\\d{3})+(\\${decimal}\\d*)?$`).test(trimmed)) return undefined;
  const normalised = lone ? trimmed.replace(grouping, decimal) : trimmed.split(grouping).join('');
  const match = new RegExp(`^(\\d+)(?:\\${decimal}(\\d{1,2}))?$`).exec(normalised);
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return undefined;
  return negative ? -cents : cents;
}

/** An amount written for `locale` the way people type it, for hints and messages: 1299.9 → "1.299,90". */
export function typedExample(locale: string, units = 129.9): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(units);
}

/** Cents as a person would type them back in `locale`, without a currency sign: 129990 → "1.299,90". */
export function typedAmount(cents: number, locale: string): string {
  const whole = String(Math.abs(cents)).padStart(3, '0');
  // A decimal string: Intl formats it exactly, no binary fraction in between.
  const text = `${cents < 0 ? '-' : ''}${whole.slice(0, -2)}.${whole.slice(-2)}`;
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(text as unknown as number);
}
