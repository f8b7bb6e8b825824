// An affiliate's monthly statement as files: CSV (amounts in cents, as the API gives them) and PDF
// (in the affiliate's language), one section per currency.
import type { Readable } from 'node:stream';
import type { AffiliateStatement } from '../../domain/ledger/ledger-service.js';
import type { Language } from '../../domain/access/users-service.js';
import { csvLine, csvNumber } from '../../lib/csv.js';
import { majorUnits } from '../../domain/money.js';
import { pdfStream, type PdfSection } from './pdf.js';
import { dayIn, moneyIn, monthIn, wordsOf } from './words.js';

type Movement = AffiliateStatement['movements'][number];
type Cell = string | number | undefined;

export const MOVEMENT_COLUMNS: Array<[string, (m: Movement, s: AffiliateStatement) => Cell]> = [
  ['currency', (_m, s) => s.currency],
  ['at', (m) => m.at],
  ['kind', (m) => m.kind],
  ['amount', (m) => m.amount],
  ['orderId', (m) => m.orderId],
  ['payoutId', (m) => m.payoutId],
  ['adjustmentId', (m) => m.adjustmentId],
];

export const SUMMARY_COLUMNS: Array<[string, (s: AffiliateStatement) => Cell]> = [
  ['month', (s) => s.month],
  ['currency', (s) => s.currency],
  ['openingBalance', (s) => s.openingBalance],
  ['approved', (s) => s.approved],
  ['payable', (s) => s.payable],
  ['paid', (s) => s.paid],
  ['returned', (s) => s.returned],
  ['adjustments', (s) => s.adjustments],
  ['closingBalance', (s) => s.closingBalance],
  ['awaitingBrandPayment', (s) => s.awaitingBrandPayment],
  ['payableBalance', (s) => s.payableBalance],
];

/** The movements of every currency, then, after a blank line, the totals: one line per currency. */
export function affiliateStatementCsv(statements: readonly AffiliateStatement[]): string {
  const movements = statements.flatMap((s) => s.movements.map((m) => csvLine(MOVEMENT_COLUMNS.map(([, cell]) => cell(m, s)))));
  const totals = statements.map((s) => csvLine(SUMMARY_COLUMNS.map(([, cell]) => cell(s))));
  return [csvLine(MOVEMENT_COLUMNS.map(([name]) => name)), ...movements, '\r\n', csvLine(SUMMARY_COLUMNS.map(([name]) => name)), ...totals].join('');
}

/**
 * The same file for people, in their language: headers in words, each movement named as the PDF
 * names it, days as the language writes them, amounts as numbers in the currency's units (12.50).
 */
export function affiliateStatementCsvInWords(statements: readonly AffiliateStatement[], language: Language): string {
  const w = wordsOf(language).affiliate;
  const units = (cents: number, currency: string) => csvNumber(majorUnits(cents, currency));
  const header = csvLine([w.currencyColumn, w.columns.date, w.columns.movement, w.columns.reference, w.columns.amount]);
  const movements = statements.flatMap((s) => s.movements.map((m) => csvLine([s.currency, dayIn(language, m.at), w.kinds[m.kind] ?? m.kind, referenceOf(m, w), units(m.amount, s.currency)])));
  const summaryHeader = csvLine([w.month, w.currencyColumn, w.openingBalance, w.approved, w.payable, w.paid, w.returned, w.adjustments, w.closingBalance, w.awaitingBrandPayment, w.payableBalance]);
  const totals = statements.map((s) =>
    csvLine([monthIn(language, s.month), s.currency, ...[s.openingBalance, s.approved, s.payable, s.paid, s.returned, s.adjustments, s.closingBalance, s.awaitingBrandPayment, s.payableBalance].map((cents) => units(cents, s.currency))]),
  );
  return [header, ...movements, '\r\n', summaryHeader, ...totals].join('');
}

/** What a movement is about, as people read it: the brand's order number and the brand, or the payout's or adjustment's id. */
function referenceOf(m: Movement, w: ReturnType<typeof wordsOf>['affiliate']): string {
  if (m.orderNumber) return w.orderOf(m.orderNumber, m.brandName ?? '');
  return m.orderId ?? m.payoutId ?? m.adjustmentId ?? '';
}

export function affiliateStatementPdf(month: string, affiliateId: string, statements: readonly AffiliateStatement[], language: Language): Promise<Readable> {
  const words = wordsOf(language);
  const w = words.affiliate;
  const money = moneyIn(language);
  const sections: PdfSection[] = statements.map((s) => {
    const amount = (cents: number) => money(cents, s.currency);
    return {
      heading: w.currency(s.currency),
      summary: [
        [w.openingBalance, amount(s.openingBalance)],
        [w.approved, amount(s.approved)],
        [w.adjustments, amount(s.adjustments)],
        [w.paid, amount(-s.paid)],
        [w.returned, amount(s.returned)],
        [w.closingBalance, amount(s.closingBalance)],
        [w.payable, amount(s.payable)],
        [w.awaitingBrandPayment, amount(s.awaitingBrandPayment)],
        [w.payableBalance, amount(s.payableBalance)],
      ],
      table: {
        columns: [
          { label: w.columns.date, width: 0.16 },
          { label: w.columns.movement, width: 0.34 },
          { label: w.columns.reference, width: 0.3 },
          { label: w.columns.amount, width: 0.2, align: 'right' },
        ],
        rows: [s.movements.map((m) => [dayIn(language, m.at), w.kinds[m.kind] ?? m.kind, referenceOf(m, w), amount(m.amount)])],
        empty: w.empty,
      },
    };
  });
  return pdfStream({
    title: w.title(monthIn(language, month)),
    lines: [`${w.affiliate}: ${affiliateId}`, ...(statements.length === 0 ? [w.nothing] : [])],
    pageLabel: words.page,
    sections,
  });
}
