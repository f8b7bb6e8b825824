// The language a document is written in: the signed-in person's (the portal's), or, for an API
// key, the language of the account's first owner who chose one; English otherwise.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ServingServices } from '../../services.js';
import type { Language } from '../../domain/access/users-service.js';

export async function documentLanguage(request: FastifyRequest, services: ServingServices, account: { affiliateId: string } | { brandId: string }): Promise<Language> {
  const principal = request.principal!;
  if (principal.credential === 'session') return services.users.languageOf(principal.keyId.replace(/^user:/, ''));
  const owners = (await services.users.team(account)).filter((user) => user.role === 'owner' && user.language);
  owners.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return owners[0]?.language ?? 'en';
}

/** How a spreadsheet's columns are written: api (the API's field names, cents) or words (for people). */
export const ColumnsQuery = Type.Object(
  {
    columns: Type.Optional(Type.Union([Type.Literal('api'), Type.Literal('words')], { description: 'api: field names and cents, stable for programs; words: for people, in the document’s language' })),
  },
  { additionalProperties: false },
);

export const COLUMNS_RULE =
  'Which columns: columns=api (the API’s field names, amounts in cents: what programs read, stable) or columns=words (for people, in the document’s language); without it, words for a signed-in person (the portal) and api for an API key.';

/** The columns asked for, or the caller's default: words for a person in the portal, api for a program's key. */
export function columnsFor(request: FastifyRequest): 'api' | 'words' {
  const asked = (request.query as { columns?: 'api' | 'words' } | undefined)?.columns;
  return asked ?? (request.principal?.credential === 'session' ? 'words' : 'api');
}
