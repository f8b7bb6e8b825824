// A brand's reconciliations: its shop's own order export uploaded as the body (read as it streams
// in, never buffered whole), answered with a preview that changes nothing; the preview read again;
// and applied, once.
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { HttpError } from '../../errors.js';
import { FileTooLarge } from '../../../domain/reconciliation/export-reading.js';
import { Reconciliation, ReconciliationParams, ReconciliationQuery } from '../../../schemas/reconciliation.js';

/** The content type the export comes as (its parser is the advertiser scope's, shared with uploaded feeds: the body as a stream). */
const EXPORT_TYPES = ['text/csv'];

const Envelope = Type.Object({ data: Type.Ref(Reconciliation) });

const UploadBody = Type.String({
  description: 'The shop’s order export as it was downloaded (CSV; comma, semicolon or tab; UTF-8 or Windows-1252)',
  examples: ['Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Currency,Subtotal,Shipping,Taxes,Total,Created at,Cancelled at,Refunded Amount\r\n#1001,ana@example.com,paid,2026-11-20 14:05:00 -0300,fulfilled,2026-11-21 09:00:00 -0300,BRL,129.90,0.00,0.00,129.90,2026-11-20 14:03:11 -0300,,0.00\r\n'],
});

const PREVIEW_DESCRIPTION =
  'Your shop’s own order export as the body (Content-Type text/csv), read as it streams in, up to RECONCILIATION_MAX_MB (default 100; past it 413 file_too_large; rows so long their reading outgrows RECONCILIATION_WORKER_HEAP_MB: 413 file_rows_too_large). ' +
  'Shopify’s orders export is known by its headers (Name, Financial Status, Fulfillment Status, Total, Refunded Amount, Currency, Created at, Cancelled at), and so is Nuvemshop’s (Número do Pedido, Status do Pedido, Status do Pagamento, Status do Envio, Total, Moeda, Data); any other CSV needs orderIdColumn, statusColumn, totalColumn and dateColumn (refundedColumn and currencyColumn optional), else 400 reconciliation_columns_unknown with the file’s columns in details. ' +
  'Nothing changes: the answer (201) is a preview, kept under its id. For each of your orders the file names: confirm (pending here, paid or fulfilled in the shop: approved when applied), cancel (canceled, voided or refunded in the shop), correct (partly refunded: its value less the refund, then approved; its lines scaled to the value when they no longer fit), leave (the shop is still waiting for payment). ' +
  'An order locked (past its lockAt), held for the network’s fraud review, or already approved or canceled is never changed by a file: skipped, with its reason. Ids are matched as written, or with Shopify’s "#" added or taken off; a Shopify row also by its Id column (the order’s numeric id, which Shopify’s checkout reports). unknown: rows naming no order of yours; missing: your orders of the file’s days (whole UTC days, its first to its last order) the file lacks; invalid: rows that cannot be read, by line number and reason. ' +
  'Amounts are read as text by your currency’s minor unit ("129.90", "1.299,90", "R$ 129,90"), never as binary fractions; a row in another currency is invalid.';

export function reconciliationRoutes(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/conversions/reconciliations',
    {
      config: { swaggerTransform: ({ schema, url }) => ({ url, schema: { ...schema, consumes: EXPORT_TYPES, body: UploadBody } }) },
      schema: {
        tags: ['Advertiser'],
        summary: 'Preview what your shop’s order export says of your orders',
        description: PREVIEW_DESCRIPTION,
        security: [{ apiKey: [] }],
        querystring: ReconciliationQuery,
        response: { 201: Envelope, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!EXPORT_TYPES.includes(type)) throw new HttpError(415, 'unsupported_media_type', `Send the export with content-type text/csv`);
      const maxBytes = services.reconciliations.maxBytes;
      if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
        throw new FileTooLarge(Math.round(maxBytes / 1024 / 1024));
      }
      const q = request.query;
      const mapping = { orderId: q.orderIdColumn, status: q.statusColumn, total: q.totalColumn, date: q.dateColumn, refunded: q.refundedColumn, currency: q.currencyColumn };
      const reconciliation = await services.reconciliations.preview(request.brandCaller, request.body as Readable, mapping);
      return reply.status(201).send({ data: reconciliation });
    },
  );

  app.get(
    '/advertiser/conversions/reconciliations/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Read one of your reconciliations',
        description: 'The preview as it was made (its counts and the first 20 lines of each kind), and, once applied, when and what it changed. Another brand’s answers 404 reconciliation_not_found.',
        security: [{ apiKey: [] }],
        params: ReconciliationParams,
        response: { 200: Envelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.reconciliations.get(request.brandId, request.params.id) }),
  );

  app.post(
    '/advertiser/conversions/reconciliations/:id/apply',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Apply a reconciliation’s preview',
        description:
          'Makes the preview’s changes in one transaction, each as PATCH /advertiser/conversions/{orderId} makes it: the order’s history (by brand, with the reconciliationId), the webhooks (conversion.updated, order.updated, commission.approved or commission.canceled), the ledger and an audit entry per order (conversion.approved, conversion.canceled), plus reconciliation.applied with the outcome. ' +
          'An order the preview named that changed since (decided, locked, held, another value) is left alone and counted in outcome.changedMeanwhile. An order of the tag or the pixel approved this way is confirmed by you: it is not canceled at its lock date. ' +
          'A reconciliation is applied once: again answers 409 reconciliation_applied; upload the file again for a new preview (it finds nothing left to do for the orders already changed: they are decided). Another brand’s answers 404.',
        security: [{ apiKey: [] }],
        params: ReconciliationParams,
        response: { 200: Envelope, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ data: await services.reconciliations.apply(request.brandCaller, request.params.id) }),
  );
}
