// Ajv as the project uses it everywhere: formats (uuid, date-time, uri…), unknown fields reported
// rather than dropped, verbose errors so messages can say what to fix, and OpenAPI's discriminator
// (a oneOf chosen by a property), so a union's refusal names the field of the branch sent.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ES modules.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export function buildAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, verbose: true, strict: false, discriminator: true, ...options });
  addFormats(ajv);
  return ajv;
}
