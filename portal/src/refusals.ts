// A refusal of the service as the person reads it: the error's stable code in words of the page's
// language (catalogue key `refusal.<code>`), the values the sentence names taken from the refusal's
// details or given by the page. A form's field at fault is named by its label on the page, never by
// its name in the API. The service's own (English) message is never shown. Every page shows
// refusals through here, so a code translated once reads the same everywhere.
import { ApiFailure } from './api-failure.js';
import type { Messages } from './i18n/index.js';
import type { MessageKey } from './i18n/en.js';

/** The codes of a request the schemas refused: their details name the field and the rule it breaks. */
const VALIDATION_CODES = new Set(['invalid_body', 'invalid_query', 'invalid_params', 'invalid_headers']);

/** The rules a field can break, each with its sentence (which names the field by its label). */
const FIELD_RULES: Record<string, MessageKey> = {
  required: 'fieldRule.required',
  minLength: 'fieldRule.minLength',
  maxLength: 'fieldRule.maxLength',
  minimum: 'fieldRule.minimum',
  maximum: 'fieldRule.maximum',
  minItems: 'fieldRule.minItems',
  maxItems: 'fieldRule.maxItems',
};

export interface RefusalOptions {
  /** Values the code's sentence names that only the page knows (the brand's domains). */
  values?: Record<string, string | number>;
  /** The page's labels of its fields, by their names in the request (`legalName` → "Nome do titular"). */
  fields?: Record<string, string>;
}

/** A refusal met inside a success: one item of a batch the service could not do, with its code. */
export interface ItemRefusal {
  code: string;
  details?: NonNullable<ApiFailure['body']>['details'];
}

/** The sentence for a failed request, or a refused item of a batch, in the page's language. */
export function refusalText(error: Error | ItemRefusal, messages: Pick<Messages, 't' | 'has'>, options: RefusalOptions = {}): string {
  if (!(error instanceof Error)) return sentenceOf(error.code, error.details, messages, options);
  const { t } = messages;
  // A passkey step the browser or the key did not complete (cancelled, timed out) is no failure of the network.
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) return t('common.deviceStopped');
  if (!(error instanceof ApiFailure)) return t('common.unreachable');
  const code = error.body?.code;
  if (!code) return t('common.failedStatus', { status: error.status });
  return sentenceOf(code, error.body?.details, messages, options);
}

function sentenceOf(code: string, details: ItemRefusal['details'], { t, has }: Pick<Messages, 't' | 'has'>, { values, fields }: RefusalOptions): string {
  const label = details?.field !== undefined ? fields?.[details.field] : undefined;
  if (VALIDATION_CODES.has(code) && label) {
    const rule = FIELD_RULES[details?.rule ?? ''] ?? 'fieldRule.invalid';
    return t(rule, { field: label, limit: details?.limit ?? 0 });
  }
  const key = `refusal.${code}`;
  // The details' values as the sentence names them: a list written out, separated by commas.
  const named = Object.fromEntries(Object.entries(details ?? {}).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));
  if (has(key)) return t(key, { seconds: 0, minutes: 0, ...named, ...values });
  return t('common.refused', { code });
}
