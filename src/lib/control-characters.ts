// Control characters (and absurd nesting) have no place in what clients send: PostgreSQL refuses NUL in text outright
// (a 500 if it got that far), and the others only hide in logs and lookups. Tab, line feed and
// carriage return are text where text allows them (bodies, imported lines); nowhere else.

// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- as above
const ANYWHERE = /[\u0000-\u001F\u007F]/;

/** How deep objects and arrays may nest in what a client sends. */
export const MAX_DEPTH = 64;

/** Whether a value nests objects or arrays deeper than `limit`, found without recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

export interface ControlCharacter {
  /** Where it is, as a client names the field: `name`, `items[0].name`. */
  field: string;
  /** The character as U+XXXX. */
  character: string;
}

/**
 * The first control character in a value (a string, or strings anywhere inside objects and
 * arrays), with the field it is in; undefined when there is none.
 */
export function findControlCharacter(value: unknown, options: { allowWhitespace: boolean }, field = ''): ControlCharacter | undefined {
  if (typeof value === 'string') {
    const match = (options.allowWhitespace ? IN_TEXT : ANYWHERE).exec(value);
    return match ? { field: field || 'value', character: `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` } : undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findControlCharacter(item, options, `${field}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findControlCharacter(key, options, field ? `${field}.${key}` : key) ?? findControlCharacter(item, options, field ? `${field}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

/** The message that says what to fix. */
export const controlCharacterMessage = (found: ControlCharacter): string => `${found.field} must not contain control characters (found ${found.character}): remove it`;
