// Amounts typed by a person ("49,90", "49.90", "1.234,56", "50") to integer cents, without ever
// going through a binary fraction. The locale says which mark separates the cents.

/**
 * Cents for `text` in `locale` (two decimal places at most), '' for an empty field, or undefined
 * when it is not an amount.
 */
export function centsOf(text: string, locale: string): number | '' | undefined {
  const trimmed = text.trim().replace(/\s/g, '');
  if (trimmed === '') return '';
  const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  const grouping = decimal === ',' ? '.' : ',';
  // A lone other mark followed by one or two digits is a decimal mark too (49.90 typed in pt-BR).
  const normalised = new RegExp(`^\\d+\\${grouping}\\d{1,2}$`).test(trimmed) ? trimmed.replace(grouping, decimal) : trimmed.split(grouping).join('');
  const match = new RegExp(`^(\\d+)(?:\\${decimal}(\\d{1,2}))?$`).exec(normalised);
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}
