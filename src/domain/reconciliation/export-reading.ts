// A shop's order export from its bytes to its rows: decoded (UTF-8, else Windows-1252), its
// delimiter found, parsed as CSV, its header recognised (Shopify's, Nuvemshop's, or the mapping
// given) and each row read. It runs on the export's parsing thread (reconciliation-worker.ts); the
// refusals are the domain's errors, with the codes and details the API answers with.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { DomainError, invalid } from '../errors.js';
import { columnsOf, RowReader, type ColumnMapping, type Platform } from './shop-exports.js';

/** A file larger than the network reads: 413. */
export class FileTooLarge extends DomainError {
  constructor(readonly maxMb: number) {
    super('too_large', 'file_too_large', `the file is larger than ${maxMb} MB, the most a reconciliation reads: split it by dates`, undefined, { maxMb });
  }
}

/** The file's text, decoded as UTF-8, or as Windows-1252 when its first bytes are not UTF-8 (spreadsheets' "CSV" in Latin languages); refused past `maxBytes`. */
async function* textOf(body: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let bytes = 0;
  for await (const part of body) {
    const chunk = typeof part === 'string' ? Buffer.from(part) : part;
    bytes += chunk.length;
    if (bytes > maxBytes) throw new FileTooLarge(Math.round(maxBytes / 1024 / 1024));
    if (!decoder) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(chunk, { stream: true });
        decoder = new TextDecoder('utf-8');
      } catch {
        decoder = new TextDecoder('windows-1252');
      }
    }
    yield decoder.decode(chunk, { stream: true });
  }
  if (decoder) yield decoder.decode();
}

/** The text with its delimiter: the one of ",", ";" and tab its first line holds most of. */
async function delimited(text: AsyncGenerator<string>): Promise<{ delimiter: string; text: AsyncIterable<string> }> {
  let head = '';
  let next = await text.next();
  while (!next.done) {
    head += next.value;
    if (head.includes('\n') || head.length > 65_536) break;
    next = await text.next();
  }
  const first = head.split('\n', 1)[0]!;
  const count = (mark: string) => first.split(mark).length - 1;
  const delimiter = [',', ';', '\t'].reduce((best, mark) => (count(mark) > count(best) ? mark : best), ',');
  async function* all(): AsyncGenerator<string> {
    yield head;
    if (next.done) return;
    yield* text;
  }
  return { delimiter, text: all() };
}

/** The records of a CSV file with the line each ends on. */
export async function* recordsOf(body: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<{ record: string[]; line: number }> {
  let head: Awaited<ReturnType<typeof delimited>>;
  try {
    head = await delimited(textOf(body, maxBytes));
  } catch (error) {
    // The file stopped within its first line: refused as a file stopped later is.
    if (error instanceof DomainError) throw error;
    throw invalid('file_not_csv', `the file cannot be read as CSV: ${(error as Error).message}`);
  }
  const { delimiter, text } = head;
  const parser = parse({ delimiter, bom: true, info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: 1_000_000 });
  // A failure upstream (the size limit, a broken connection) ends the reading below with its error.
  pipeline(Readable.from(text), parser).catch(() => undefined);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) yield { record, line: info.lines };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw invalid('file_not_csv', `the file cannot be read as CSV: ${(error as Error).message}`);
  }
}

/** The reader of a file's rows by its header line, or the refusal of a header it cannot read. */
export function readerOf(header: string[], given: Partial<ColumnMapping> | undefined, digits: number, currency: string): { platform: Platform; reader: RowReader } {
  const columns = columnsOf(header, given);
  if (!columns) {
    throw invalid(
      'reconciliation_columns_unknown',
      `the file's first line is neither Shopify's nor Nuvemshop's order export: say which columns hold the order id, the status, the total and the date (orderIdColumn, statusColumn, totalColumn, dateColumn)`,
      { columns: header.slice(0, 40).map((name) => name.trim()) },
    );
  }
  if (columns.platform === 'mapped' && (!given?.orderId || !given.status || !given.total || !given.date)) {
    throw invalid('reconciliation_mapping_incomplete', 'a column mapping names the order id, the status, the total and the date columns (orderIdColumn, statusColumn, totalColumn, dateColumn)');
  }
  const missing = RowReader.missing(header, columns.mapping);
  if (missing.length > 0) throw invalid('reconciliation_column_missing', `the file's first line has no column ${missing.map((c) => `"${c}"`).join(', ')}`, { columns: missing });
  return { platform: columns.platform, reader: new RowReader(header, columns.platform, columns.mapping, digits, currency) };
}

/** A file without even a header line. */
export const fileEmpty = () => invalid('reconciliation_file_empty', 'the file is empty: it needs a header line and a row per order');
