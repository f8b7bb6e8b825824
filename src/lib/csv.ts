// CSV as spreadsheets read it (RFC 4180): what the export routes answer.

/** One cell: numbers as they are, text quoted when it must be, and never run as a formula. */
export function csvCell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = value;
  // A text starting with = + - @ would run as a formula in a spreadsheet: keep it text.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, its cells joined and ended with CRLF. */
export const csvLine = (cells: ReadonlyArray<string | number | undefined>): string => `${cells.map(csvCell).join(',')}\r\n`;
