// The language a document is written in: the signed-in person's (the portal's), or, for an API
// key, the language of the account's first owner who chose one; English otherwise.
import type { FastifyRequest } from 'fastify';
import type { ServingServices } from '../../services.js';
import type { Language } from '../../domain/access/users-service.js';

export async function documentLanguage(request: FastifyRequest, services: ServingServices, account: { affiliateId: string } | { brandId: string }): Promise<Language> {
  const principal = request.principal!;
  if (principal.credential === 'session') return services.users.languageOf(principal.keyId.replace(/^user:/, ''));
  const owners = (await services.users.team(account)).filter((user) => user.role === 'owner' && user.language);
  owners.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return owners[0]?.language ?? 'en';
}
