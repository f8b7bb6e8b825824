// Final touches to the generated OpenAPI document, for the readers the schemas alone mislead:
// - a query parameter with a default may be left out, so it is not `required` (the route schema
//   lists it as required only because validation fills the default in);
// - a choice among string literals (an `anyOf` of one-word schemas, `const` or `enum`) is
//   written as the `enum` it means, which documentation viewers list and generators read alike.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one string a schema allows (`{ const: 'a' }` or `{ enum: ['a'] }`, with its type), else undefined. */
function literalWord(schema: unknown): string | undefined {
  if (!isObject(schema) || !Object.keys(schema).every((k) => k === 'const' || k === 'enum' || k === 'type')) return undefined;
  if (typeof schema.const === 'string') return schema.const;
  return Array.isArray(schema.enum) && schema.enum.length === 1 && typeof schema.enum[0] === 'string' ? schema.enum[0] : undefined;
}

/** `anyOf: [{ const: 'a', type: 'string' }, …]` → `type: 'string', enum: ['a', …]`, everywhere in `node`. */
function literalUnionsAsEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) literalUnionsAsEnums(item);
    return;
  }
  if (!isObject(node)) return;
  const words = Array.isArray(node.anyOf) && node.anyOf.length > 0 ? node.anyOf.map(literalWord) : [];
  if (words.length > 0 && words.every((w) => w !== undefined)) {
    delete node.anyOf;
    node.type = 'string';
    node.enum = words;
  }
  for (const value of Object.values(node)) literalUnionsAsEnums(value);
}

function parametersWithDefaultsOptional(document: Json): void {
  for (const pathItem of Object.values(isObject(document.paths) ? document.paths : {})) {
    for (const operation of Object.values(isObject(pathItem) ? pathItem : {})) {
      const parameters = isObject(operation) && Array.isArray(operation.parameters) ? operation.parameters : [];
      for (const parameter of parameters) {
        if (isObject(parameter) && parameter.in === 'query' && isObject(parameter.schema) && parameter.schema.default !== undefined) parameter.required = false;
      }
    }
  }
}

export function polishDocument<T extends object>(document: T): T {
  parametersWithDefaultsOptional(document as Json);
  literalUnionsAsEnums(document);
  return document;
}
