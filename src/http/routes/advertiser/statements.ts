// The brand's monthly statements: the list, one with a page of its lines, and the same as CSV and PDF.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { Statement, StatementLine } from '../../../schemas/statement.js';
import type { Statement as StatementView } from '../../../domain/ledger/statements-service.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { LINE_COLUMNS, TOTAL_COLUMNS, statementCsv, statementCsvInWords, statementPdf } from '../../documents/brand-statement.js';
import { COLUMNS_RULE, ColumnsQuery, columnsFor, documentLanguage } from '../../documents/language.js';
import { CSV_CELLS_RULE } from '../../../lib/csv.js';

const ListQuery = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });
const LinesQuery = Type.Object({ page: PageQuery, limit: LimitQuery(50, 500) }, { additionalProperties: false });
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: "The statement's id" }) });
const NOT_YOURS = "Another brand's statement, or an unknown id, answers 404 statement_not_found.";

/** A statement as the API answers it: a field without a value is left out. */
export const statementBody = ({ paidAt, ...statement }: StatementView) => ({ ...statement, ...(paidAt && { paidAt }) });

/** The brand's statement (404 when it is not the brand's), for the files. */
async function ownStatement(services: ServingServices, brandId: string, id: string): Promise<StatementView> {
  return (await services.statements.get(brandId, id, { page: 1, limit: 1 })).statement;
}

const fileName = (s: StatementView, extension: string) => `statement-${s.month}-${s.currency}.${extension}`;

export function listStatementsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/statements',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your monthly statements',
        description:
          'Addition to the spec. What the network bills you, one statement per month and currency: the commissions of your orders that locked in the month and the network’s fee on each, due by dueAt; newest month first. Affiliates are paid once a statement is paid in full.',
        security: [{ apiKey: [] }],
        querystring: ListQuery,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Statement)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await services.statements.list(request.brandId, { page, limit });
      return { data: items.map(statementBody), meta: pageOf(total, page, limit) };
    },
  );
}

export function getStatementRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/statements/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'One statement, with a page of its lines',
        description: `Addition to the spec. The statement and a page of its lines (one per order billed, in the order they were billed; page and limit page the lines, meta describes that page). Every line at once: GET /advertiser/statements/{id}.csv or .pdf. ${NOT_YOURS}`,
        security: [{ apiKey: [] }],
        params: Params,
        querystring: LinesQuery,
        response: {
          200: Type.Object({
            data: Type.Intersect([Type.Ref(Statement), Type.Object({ lines: Type.Array(Type.Ref(StatementLine), { description: 'A page of the commissions billed' }) })]),
            meta: Type.Ref(Pagination),
          }),
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { statement, lines } = await services.statements.get(request.brandId, request.params.id, { page, limit });
      return { data: { ...statementBody(statement), lines: lines.items }, meta: pageOf(lines.total, page, limit) };
    },
  );
}

export function statementCsvRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/statements/:id.csv',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'One statement as CSV',
        description: `Addition to the spec. Every line of the statement as CSV (RFC 4180): a header line, then one line per commission billed; then a blank line and the totals section. ${COLUMNS_RULE} With columns=api: lines ${LINE_COLUMNS.map(([name]) => name).join(', ')}; totals a header line and one line (${TOTAL_COLUMNS.map(([name]) => name).join(', ')}); amounts are integers in the minor unit of currency (cents), as everywhere in the API, the same columns in every language. With columns=words, the same in the document's language (as the PDF's): headers in words, days as the language writes them, amounts in the currency's units (12.50), and the totals as a label and a value per line. ${CSV_CELLS_RULE} ${NOT_YOURS}`,
        security: [{ apiKey: [] }],
        params: Params,
        querystring: ColumnsQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const statement = await ownStatement(services, request.brandId, request.params.id);
      const lines = services.statements.allLines(request.brandId, statement.id);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName(statement, 'csv')}"`);
      // Streamed batch by batch; the 200 schema above documents the body, it does not serialise it.
      const csv = columnsFor(request) === 'api' ? statementCsv(statement, lines) : statementCsvInWords(statement, lines, await documentLanguage(request, services, { brandId: request.brandId }));
      return reply.send(Readable.from(csv) as unknown as string);
    },
  );
}

export function statementPdfRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/statements/:id.pdf',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'One statement as PDF',
        description: `Addition to the spec. The statement as a PDF for people: its summary (commissions, the network's fee, total, paid, left to pay, due date) and every line, in the language of the signed-in person (with an API key: of the brand's first owner who chose one; else English). ${NOT_YOURS}`,
        security: [{ apiKey: [] }],
        params: Params,
        produces: ['application/pdf'],
        response: { 200: Type.String({ description: 'application/pdf', format: 'binary' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { brandId } = request;
      const statement = await ownStatement(services, brandId, request.params.id);
      const [language, profile] = await Promise.all([documentLanguage(request, services, { brandId }), services.imports.brandProfile(brandId)]);
      const pdf = await statementPdf(statement, profile.name, services.statements.allLines(brandId, statement.id), language);
      reply.header('content-type', 'application/pdf').header('content-language', language).header('content-disposition', `attachment; filename="${fileName(statement, 'pdf')}"`);
      return reply.send(pdf as unknown as string);
    },
  );
}
