// GTIN (EAN-8, UPC-A, EAN-13, GTIN-14): a barcode number whose last digit checks the others, so a
// mistyped digit is caught where it is typed and where it is stored.

/** Whether the text has a GTIN's shape: 8, 12, 13 or 14 digits. */
export function isGtinShaped(text: string): boolean {
  return /^(\d{8}|\d{12,14})$/.test(text);
}

/** The check digit the digits before the last call for (weights 3 and 1 from the right). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/** Whether a GTIN-shaped text's last digit is the one its other digits call for. */
export function gtinIsValid(text: string): boolean {
  return isGtinShaped(text) && gtinCheckDigit(text.slice(0, -1)) === Number(text.at(-1));
}
