// Amounts as shops write them in their exports ("129.90", "1,299.90", "129,90", "1.299,90",
// "R$ 129,90", "150" for JPY) to integer minor units of the currency, read as text digit by digit:
// never through a binary fraction. The currency says how many decimals there are (its minor unit,
// as Intl knows it: 2 for BRL and USD, 0 for JPY, 3 for KWD).

/** The number of decimals of `currency`'s minor unit (2 when Intl does not know the code). */
export function minorUnitOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * The amount `text` in minor units of a currency with `digits` decimals, or undefined when it is
 * not an amount. When both marks appear, the last one is the decimal mark; a lone mark is one too,
 * unless it repeats or is followed by exactly three digits in a currency of fewer decimals
 * ("1,299" and "129.900" in BRL group thousands). More decimals than the currency has are accepted
 * only as zeros. A currency sign or code around the number is ignored; a negative amount is not an
 * amount here.
 */
export function exportAmount(text: string, digits: number): number | undefined {
  const trimmed = text
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/^(?:[A-Z]{3}|[A-Z]{0,2}\$|[€£¥])/i, '')
    .replace(/(?:[A-Z]{3}|[€£¥])$/i, '');
  if (!/^\d[\d.,]*$/.test(trimmed)) return undefined;
  const lastDot = trimmed.lastIndexOf('.');
  const lastComma = trimmed.lastIndexOf(',');
  let whole = trimmed;
  let fraction = '';
  const last = Math.max(lastDot, lastComma);
  if (last >= 0) {
    const mark = trimmed[last]!;
    const other = mark === '.' ? ',' : '.';
    const after = trimmed.slice(last + 1);
    const marks = trimmed.split(mark).length - 1;
    // One mark followed by three digits, none of the other kind, in a currency with fewer decimals: thousands ("1,299").
    const grouping = !trimmed.includes(other) && (marks > 1 || (after.length === 3 && digits < 3));
    if (!grouping) {
      whole = trimmed.slice(0, last);
      fraction = after;
      if (whole.includes(mark)) return undefined;
      if (!/^\d*$/.test(fraction)) return undefined;
    }
    const separator = grouping ? mark : other;
    // Grouping marks only every three digits.
    if (whole.includes(separator) && !new RegExp(`^\\d{1,3}(\\${separator}\\d{3})+$`).test(whole)) return undefined;
    whole = whole.split(separator).join('');
  }
  if (!/^\d+$/.test(whole)) return undefined;
  if (fraction.length > digits && !/^0*$/.test(fraction.slice(digits))) return undefined;
  const cents = BigInt(whole) * 10n ** BigInt(digits) + BigInt((fraction.slice(0, digits) || '0').padEnd(digits, '0'));
  return cents <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cents) : undefined;
}
