// A brand's statement as files: CSV for spreadsheets and programs (amounts in cents, as the API
// gives them), PDF for people (in their language). Both read every line batch by batch.
import type { Readable } from 'node:stream';
import type { Statement, StatementLineView } from '../../domain/ledger/statements-service.js';
import type { Language } from '../../domain/access/users-service.js';
import { csvLine, csvNumber, type CsvValue } from '../../lib/csv.js';
import { majorUnits } from '../../domain/money.js';
import { pdfStream } from './pdf.js';
import { dayIn, moneyIn, monthIn, percentIn, wordsOf } from './words.js';

type Cell = string | number | undefined;

/** The lines' columns, in order, and how each comes from a line. */
export const LINE_COLUMNS: Array<[string, (line: StatementLineView, statement: Statement) => Cell]> = [
  ['orderId', (l) => l.orderId],
  ['affiliateId', (l) => l.affiliateId],
  ['orderedAt', (l) => l.orderedAt],
  ['lockAt', (l) => l.lockAt],
  ['autoApproved', (l) => String(l.autoApproved)],
  ['currency', (_l, s) => s.currency],
  ['value', (l) => l.value],
  ['commission', (l) => l.commission],
  ['fee', (l) => l.fee],
];

/** The totals section's columns, after a blank line: the statement as GET /advertiser/statements/{id} gives it. */
export const TOTAL_COLUMNS: Array<[string, (s: Statement) => Cell]> = [
  ['statementId', (s) => s.id],
  ['month', (s) => s.month],
  ['currency', (s) => s.currency],
  ['lineCount', (s) => s.lineCount],
  ['commission', (s) => s.commission],
  ['feeBasisPoints', (s) => s.feeBasisPoints],
  ['fee', (s) => s.fee],
  ['total', (s) => s.total],
  ['paidAmount', (s) => s.paidAmount],
  ['status', (s) => s.status],
  ['issuedAt', (s) => s.issuedAt],
  ['dueAt', (s) => s.dueAt],
  ['paidAt', (s) => s.paidAt ?? undefined],
];

export async function* statementCsv(statement: Statement, lines: AsyncIterable<StatementLineView[]>): AsyncGenerator<string> {
  yield csvLine(LINE_COLUMNS.map(([name]) => name));
  for await (const batch of lines) yield batch.map((line) => csvLine(LINE_COLUMNS.map(([, cell]) => cell(line, statement)))).join('');
  yield '\r\n';
  yield csvLine(TOTAL_COLUMNS.map(([name]) => name));
  yield csvLine(TOTAL_COLUMNS.map(([, cell]) => cell(statement)));
}

/**
 * The same file for people, in their language (the PDF's words): the lines with their headers in
 * words, days as the language writes them, "yes"/"no", amounts in the currency's units (12.50); then
 * the statement's totals, a label and a value per line.
 */
export async function* statementCsvInWords(statement: Statement, lines: AsyncIterable<StatementLineView[]>, language: Language): AsyncGenerator<string> {
  const words = wordsOf(language);
  const w = words.brand;
  const c = w.columns;
  const units = (cents: number) => csvNumber(majorUnits(cents, statement.currency));
  const day = (iso: string) => dayIn(language, iso);
  yield csvLine([c.orderId, c.affiliate, c.orderedAt, c.lockAt, c.auto, `${c.value} (${statement.currency})`, `${c.commission} (${statement.currency})`, `${c.fee} (${statement.currency})`]);
  for await (const batch of lines) {
    yield batch.map((l) => csvLine([l.orderId, l.affiliateId, day(l.orderedAt), day(l.lockAt), l.autoApproved ? words.yes : words.no, units(l.value), units(l.commission), units(l.fee)])).join('');
  }
  yield '\r\n';
  const totals: Array<[string, CsvValue]> = [
    [w.statement, statement.id],
    [w.month, monthIn(language, statement.month)],
    [w.statusLabel, w.status[statement.status]],
    [w.lineCount, statement.lineCount],
    [w.commission, units(statement.commission)],
    [w.fee(percentIn(language, statement.feeBasisPoints)), units(statement.fee)],
    [w.total, units(statement.total)],
    [w.paidAmount, units(statement.paidAmount)],
    [w.due, units(statement.total - statement.paidAmount)],
    [w.dueAt, day(statement.dueAt)],
    ...(statement.paidAt ? [[w.paidAt, day(statement.paidAt)] as [string, CsvValue]] : []),
  ];
  for (const [label, value] of totals) yield csvLine([label, value]);
}

export function statementPdf(statement: Statement, brandName: string, lines: AsyncIterable<StatementLineView[]>, language: Language): Promise<Readable> {
  const words = wordsOf(language);
  const w = words.brand;
  const money = moneyIn(language);
  const amount = (cents: number) => money(cents, statement.currency);
  const day = (iso: string) => dayIn(language, iso);
  const summary: Array<[string, string]> = [
    [w.brand, brandName],
    [w.month, monthIn(language, statement.month)],
    [w.statusLabel, w.status[statement.status]],
    [w.lineCount, String(statement.lineCount)],
    [w.commission, amount(statement.commission)],
    [w.fee(percentIn(language, statement.feeBasisPoints)), amount(statement.fee)],
    [w.total, amount(statement.total)],
    [w.paidAmount, amount(statement.paidAmount)],
    [w.due, amount(statement.total - statement.paidAmount)],
    [w.dueAt, day(statement.dueAt)],
    ...(statement.paidAt ? [[w.paidAt, day(statement.paidAt)] as [string, string]] : []),
  ];
  const c = w.columns;
  async function* rows(): AsyncGenerator<string[][]> {
    for await (const batch of lines) {
      yield batch.map((l) => [l.orderId, l.affiliateId, day(l.orderedAt), day(l.lockAt), l.autoApproved ? words.yes : words.no, amount(l.value), amount(l.commission), amount(l.fee)]);
    }
  }
  return pdfStream({
    title: w.title(monthIn(language, statement.month), statement.currency),
    lines: [`${w.statement} ${statement.id}`, words.issuedOn(day(statement.issuedAt))],
    pageLabel: words.page,
    sections: [
      {
        summary,
        table: {
          columns: [
            { label: c.orderId, width: 0.17 },
            { label: c.affiliate, width: 0.13 },
            { label: c.orderedAt, width: 0.11 },
            { label: c.lockAt, width: 0.11 },
            { label: c.auto, width: 0.06 },
            { label: c.value, width: 0.15, align: 'right' },
            { label: c.commission, width: 0.14, align: 'right' },
            { label: c.fee, width: 0.13, align: 'right' },
          ],
          rows: rows(),
          empty: w.empty,
        },
      },
    ],
  });
}
