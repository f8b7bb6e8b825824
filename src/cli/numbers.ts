/** A whole number written in decimal digits (an optional minus sign), or undefined. */
export function wholeNumber(text: string): number | undefined {
  if (!/^-?\d{1,15}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}
