// Amounts are integers in a currency's minor unit; shown to people in major units, with as many
// decimals as the currency has (2 for BRL, 0 for JPY, 3 for BHD), computed without floating point.

const digitsOf = new Map<string, number>();

export function minorDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsOf.set(currency, digits);
  }
  return digits;
}

/** 150, 'BRL' → '1.50 BRL'; -5, 'BRL' → '-0.05 BRL'; 150, 'JPY' → '150 JPY'. */
export function formatMinor(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = amount < 0 ? '-' : '';
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  const major = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return `${sign}${major} ${currency}`;
}
