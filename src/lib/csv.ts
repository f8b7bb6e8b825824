// CSV as spreadsheets read it (RFC 4180), safe in every locale: what every export writes, through
// csvLine alone. Numbers are numbers; every text is text, never run as a formula, wherever a
// spreadsheet may see a cell begin: at its start, or, when the file is read with another separator
// than the comma (a locale whose list separator is ";") or by a reader that splits on quotes, after
// a separator, a quote or a line break inside it.

/**
 * A number already written out, such as money in major units (`-12.50`): written as it is, a
 * number cell. Made by csvNumber, which refuses anything but digits with an optional sign and
 * decimal point.
 */
export interface CsvNumber {
  readonly digits: string;
}

/** What a cell may hold: text, a number, a number written out, or nothing (an empty cell). */
export type CsvValue = string | number | CsvNumber | undefined;

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A number cell of a number already written out (`-12.50`). */
export function csvNumber(digits: string): CsvNumber {
  if (!PLAIN_NUMBER.test(digits)) throw new Error(`not a plain decimal number: ${JSON.stringify(digits)}`);
  return { digits };
}

/**
 * Where a cell may be seen to begin, followed by what starts a formula (= + - @) or what some
 * spreadsheets drop before looking for one (tab, carriage return): OWASP's CSV injection list.
 */
const FORMULA_AT_CELL_START = /(?<=^|[",;\t\r\n])(?=[=+\-@\t\r])/g;
/** What makes a cell need quotes: a separator of any locale, a quote, a line break or a tab. */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** Text that no spreadsheet runs: a single quote before every formula start where a cell may begin. */
export function neutralised(text: string): string {
  return text.replace(FORMULA_AT_CELL_START, "'");
}

/** One cell: numbers as they are, text neutralised and quoted when it holds a separator, a quote or a line break. */
export function csvCell(value: CsvValue): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') return value.digits;
  const text = neutralised(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** What every export's description says of its cells. */
export const CSV_CELLS_RULE =
  'A cell holding a comma, a semicolon, a quote, a tab or a line break is quoted, so a spreadsheet whose list separator is ";" reads the same cells. Text a spreadsheet would run as a formula gets a single quote before it: = + - @, a tab or a carriage return at the start of a cell, or after a quote, a comma, a semicolon or a line break inside it (OWASP CSV injection). Numbers, amounts in cents and negative ones included, are bare numbers.';

/** One line, its cells joined and ended with CRLF. */
export const csvLine = (cells: ReadonlyArray<CsvValue>): string => `${cells.map(csvCell).join(',')}\r\n`;
