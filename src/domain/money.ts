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

/** How a language writes the decimal mark and groups thousands. */
const MARKS: Record<string, { decimal: string; group: string }> = { en: { decimal: '.', group: ',' }, 'pt-BR': { decimal: ',', group: '.' } };

/** 150, 'BRL' → '1.50'; -5, 'BRL' → '-0.05'; 150, 'JPY' → '150': major units as a plain decimal number, from integers. */
export function majorUnits(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  return `${amount < 0 ? '-' : ''}${digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`}`;
}

/**
 * 150, 'BRL' → '1.50 BRL'; -5, 'BRL' → '-0.05 BRL'; 150, 'JPY' → '150 JPY'. With a language, as
 * people of that language write it, thousands grouped: 123456, 'BRL', 'pt-BR' → '1.234,56 BRL';
 * 'en' → '1,234.56 BRL'.
 */
export function formatMinor(amount: number, currency: string, language?: string): string {
  const digits = minorDigits(currency);
  const sign = amount < 0 ? '-' : '';
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  const marks = language === undefined ? undefined : (MARKS[language] ?? MARKS.en!);
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const grouped = marks ? whole.replace(/\B(?=(\d{3})+$)/g, marks.group) : whole;
  const major = digits === 0 ? grouped : `${grouped}${marks?.decimal ?? '.'}${text.slice(-digits)}`;
  return `${sign}${major} ${currency}`;
}
