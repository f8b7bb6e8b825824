// Checks across query parameters that a schema cannot express.
import { badRequest } from '../../../domain/errors.js';

/** A range's start may not come after its end. */
export function checkRange(fromName: string, from: string | undefined, toName: string, to: string | undefined): void {
  if (from && to && new Date(from).getTime() > new Date(to).getTime()) {
    throw badRequest('invalid_query', `${fromName} must not be after ${toName}`);
  }
}

/** Both or neither. */
export function checkTogether(aName: string, a: unknown, bName: string, b: unknown): void {
  if ((a === undefined) !== (b === undefined)) {
    throw badRequest('invalid_query', `${aName} and ${bName} must be used together`);
  }
}

/** organizationId and organizationIds together select any of the brands they name. */
export function anyOfBrands(organizationId: string | undefined, organizationIds: string[] | undefined): string[] | undefined {
  if (!organizationId && !organizationIds) return undefined;
  return [...new Set([...(organizationIds ?? []), ...(organizationId ? [organizationId] : [])])];
}
