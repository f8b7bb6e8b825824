// The API never answers null (a field without a value is left out), so free-form JSON a client
// stores (product metadata) must not hold one either: neither a null nor a number JSON cannot
// carry (1e400 parses to Infinity, which would be written back as null).

/** Where the first null or non-finite number inside `value` is (`field` extended as a client names it), or undefined. */
export function findNull(value: unknown, field: string): string | undefined {
  if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return field;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNull(item, `${field}[${i}]`);
      if (found) return found;
    }
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNull(item, `${field}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
