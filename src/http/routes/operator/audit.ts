// The audit trail, searched by member, actor, action and time; as a page or as CSV.
import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import { AuditEntry } from '../../../schemas/operator.js';
import { DateOrDateTime, LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { AuditEntryView, AuditSearch as AuditFilters } from '../../../domain/audit/audit-service.js';
import { CSV_CELLS_RULE, csvLine } from '../../../lib/csv.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { SESSION_ONLY, TAG } from './actor.js';

const Filters = {
  affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Entries about this affiliate' })),
  brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Entries about this brand' })),
  actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Entries by this user (usr_…) or key (key_…)' })),
  actorKind: Type.Optional(Type.Union(['operator', 'brand', 'affiliate', 'network', 'cli'].map((k) => Type.Literal(k)), { description: 'Entries by this kind of actor' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+(\\.[a-z_]*)?$', description: 'One action (application.approved), or every action of a kind when it ends with a dot (payout.)' })),
  from: Type.Optional(DateOrDateTime('Entries at or after this time')),
  to: Type.Optional(DateOrDateTime('Entries up to this time')),
};
const AuditQuery = Type.Object({ ...Filters, page: PageQuery, limit: LimitQuery(50, 500) }, { additionalProperties: false });
const AuditCsvQuery = Type.Object(Filters, { additionalProperties: false });

const DAY_MS = 86_400_000;
const isDate = (value: string) => value.length === 10;
/** The range's bounds as instants: a date starts at its UTC midnight, and as the end it is included whole. */
const filtersOf = (q: Static<typeof AuditCsvQuery>): AuditFilters => {
  const { from, to, ...rest } = q;
  return {
    ...rest,
    ...(from && { from: new Date(isDate(from) ? `${from}T00:00:00.000Z` : from).toISOString() }),
    ...(to && { to: isDate(to) ? new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString() : new Date(Date.parse(to) + 1).toISOString() }),
  };
};

export function listAuditRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/audit',
    {
      schema: {
        tags: [TAG],
        summary: 'The audit trail',
        description:
          'Every operator action, every brand decision and every money event, newest first, as { data, meta }: who (and as whom), when, from which address (kept AUDIT_ADDRESS_DAYS), what, before → after, with secrets and payee details masked. Entries are never changed or deleted.',
        security: SESSION_ONLY,
        querystring: AuditQuery,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(AuditEntry)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const { items, total } = await services.audit.list(filtersOf(filters), { page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );
}

const COLUMNS: Array<[string, (entry: AuditEntryView) => string | number | undefined]> = [
  ['id', (e) => e.id],
  ['at', (e) => e.at],
  ['actor_kind', (e) => e.actor.kind],
  ['actor_id', (e) => e.actor.id],
  ['acting_as', (e) => e.actor.actingAs],
  ['address', (e) => e.address],
  ['action', (e) => e.action],
  ['subject_kind', (e) => e.subject.kind],
  ['subject_id', (e) => e.subject.id],
  ['affiliate_id', (e) => e.affiliateId],
  ['brand_id', (e) => e.brandId],
  ['before', (e) => (e.before ? JSON.stringify(e.before) : undefined)],
  ['after', (e) => (e.after ? JSON.stringify(e.after) : undefined)],
  ['reason', (e) => e.reason],
];

async function* csvOf(services: ServingServices, filters: AuditFilters): AsyncGenerator<string> {
  yield csvLine(COLUMNS.map(([name]) => name));
  const limit = 500;
  for (let page = 1; ; page++) {
    const { items } = await services.audit.list(filters, { page, limit });
    for (const entry of items) yield csvLine(COLUMNS.map(([, cell]) => cell(entry)));
    if (items.length < limit) return;
  }
}

export function exportAuditRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/audit.csv',
    {
      schema: {
        tags: [TAG],
        summary: 'The audit trail as CSV',
        description: `The entries GET /operator/audit finds with the same filters, all of them, newest first; before and after as JSON in their cells (written as every text is, so a quote may stand before a value: GET /operator/audit gives them exactly). ${CSV_CELLS_RULE}`,
        security: SESSION_ONLY,
        querystring: AuditCsvQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }) },
      },
    },
    async (request, reply) => {
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit.csv"');
      return reply.send(Readable.from(csvOf(services, filtersOf(request.query))) as unknown as string);
    },
  );
}
