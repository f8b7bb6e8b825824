// The affiliate's monthly statement: what the network owed it over a month, per currency, as JSON,
// CSV and PDF.
import { Type } from '@sinclair/typebox';
import { AffiliateStatement } from '../../../schemas/affiliate-statement.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { MOVEMENT_COLUMNS, SUMMARY_COLUMNS, affiliateStatementCsv, affiliateStatementCsvInWords, affiliateStatementPdf } from '../../documents/affiliate-statement.js';
import { COLUMNS_RULE, ColumnsQuery, columnsFor, documentLanguage } from '../../documents/language.js';
import { CSV_CELLS_RULE } from '../../../lib/csv.js';

const Params = Type.Object({ month: Type.String({ minLength: 1, maxLength: 16, description: 'YYYY-MM: a UTC month, the current one at the latest' }) });
const MONTH_RULE = 'month is YYYY-MM, a UTC month up to the current one (the current month so far); another answers 400 invalid_month, a later one 400 month_in_future.';

export function getAffiliateStatementRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/statements/:month',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Your monthly statement',
        description: `Addition to the spec. What the network owed you over the month, one entry per currency you had money in (none: an empty list): opening balance, commissions approved, made payable, paid out, returned, adjustments, closing balance (and its split between waiting for brands and payable), with every movement. ${MONTH_RULE} The same as files: .csv and .pdf.`,
        security: [{ apiKey: [] }],
        params: Params,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(AffiliateStatement)) }) },
      },
    },
    async (request) => ({ data: await services.ledger.affiliateStatement(request.affiliateId, request.params.month) }),
  );
}

export function affiliateStatementCsvRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/statements/:month.csv',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Your monthly statement as CSV',
        description: `Addition to the spec. The monthly statement as CSV (RFC 4180): a header line and one line per movement; then a blank line and the totals section, a header line and one line per currency. ${COLUMNS_RULE} With columns=api: movements ${MOVEMENT_COLUMNS.map(([name]) => name).join(', ')}; totals ${SUMMARY_COLUMNS.map(([name]) => name).join(', ')}; amounts are integers in the minor unit of currency (cents), as everywhere in the API, the same columns in every language. With columns=words, the same in the document's language (as the PDF's): headers in words, each movement named, an order by the brand's number and the brand, days as the language writes them, amounts in the currency's units (12.50). ${CSV_CELLS_RULE} ${MONTH_RULE}`,
        security: [{ apiKey: [] }],
        params: Params,
        querystring: ColumnsQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }) },
      },
    },
    async (request, reply) => {
      const statements = await services.ledger.affiliateStatement(request.affiliateId, request.params.month);
      const csv =
        columnsFor(request) === 'api' ? affiliateStatementCsv(statements) : affiliateStatementCsvInWords(statements, await documentLanguage(request, services, { affiliateId: request.affiliateId }));
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="statement-${request.params.month}.csv"`);
      return reply.send(csv);
    },
  );
}

export function affiliateStatementPdfRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/statements/:month.pdf',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Your monthly statement as PDF',
        description: `Addition to the spec. The monthly statement as a PDF for people, a section per currency (the summary, then every movement), in the language of the signed-in person (with an API key: of the affiliate's first owner who chose one; else English). ${MONTH_RULE}`,
        security: [{ apiKey: [] }],
        params: Params,
        produces: ['application/pdf'],
        response: { 200: Type.String({ description: 'application/pdf', format: 'binary' }) },
      },
    },
    async (request, reply) => {
      const { affiliateId } = request;
      const [statements, language] = await Promise.all([services.ledger.affiliateStatement(affiliateId, request.params.month), documentLanguage(request, services, { affiliateId })]);
      const pdf = await affiliateStatementPdf(request.params.month, affiliateId, statements, language);
      reply.header('content-type', 'application/pdf').header('content-language', language).header('content-disposition', `attachment; filename="statement-${request.params.month}.pdf"`);
      return reply.send(pdf as unknown as string);
    },
  );
}
