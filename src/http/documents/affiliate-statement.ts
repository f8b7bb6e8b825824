// An affiliate's monthly statement as files: CSV (amounts in cents, as the API gives them) and PDF
// (in the affiliate's language), one section per currency.
import type { Readable } from 'node:stream';
import type { AffiliateStatement } from '../../domain/ledger/ledger-service.js';
import type { Language } from '../../domain/access/users-service.js';
import { csvLine } from '../../lib/csv.js';
import { pdfStream, type PdfSection } from './pdf.js';
import { dayIn, moneyIn, wordsOf } from './words.js';

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

export function affiliateStatementPdf(month: string, affiliateId: string, statements: readonly AffiliateStatement[], language: Language): Promise<Readable> {
  const words = wordsOf(language);
  const w = words.affiliate;
  const money = moneyIn(language);
  const sections: PdfSection[] = statements.map((s) => {
    const amount = (cents: number) => money(cents, s.currency);
    const reference = (m: Movement) => m.orderId ?? m.payoutId ?? m.adjustmentId ?? '';
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
        rows: [s.movements.map((m) => [dayIn(language, m.at), w.kinds[m.kind] ?? m.kind, reference(m), amount(m.amount)])],
        empty: w.empty,
      },
    };
  });
  return pdfStream({
    title: w.title(month),
    lines: [`${w.affiliate}: ${affiliateId}`, ...(statements.length === 0 ? [w.nothing] : [])],
    pageLabel: words.page,
    sections,
  });
}
