// Whatever the service refuses, the portal says it in the person's language: every error code the
// source can answer (read from the source, not listed by hand) has a sentence in both catalogues,
// naming only values the refusal itself carries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { en } from '../../portal/src/i18n/en.js';
import { ptBR } from '../../portal/src/i18n/pt-BR.js';
import { errorCodesOfSource } from '../helpers/error-codes.js';

const CATALOGUES: Record<string, Record<string, string>> = { en, 'pt-BR': ptBR };

/** The values a refusal's sentence may name: those its answer's details always carry, or the page gives. */
function valuesGiven(code: string): string[] {
  if (/^too_many|^TOO_MANY/.test(code)) return ['seconds', 'minutes'];
  if (code === 'invalid_domain') return ['domains'];
  if (code === 'invalid_members') return ['values'];
  if (code === 'group_in_use') return ['position'];
  if (code === 'reconciliation_columns_unknown' || code === 'reconciliation_column_missing') return ['columns'];
  if (code === 'file_too_large') return ['maxMb'];
  if (code === 'site_outside_channel') return ['site', 'domain'];
  if (code === 'unknown_macro' || code === 'unclosed_macro' || code === 'macro_in_host') return ['position', 'macro'];
  return [];
}

function namedValues(elements: MessageFormatElement[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    if ('value' in element && typeof element.value === 'string' && element.type !== TYPE.literal) names.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) namedValues(option.value, names);
  }
  return names;
}

test('the source answers a known set of codes, found where errors are made', () => {
  const codes = errorCodesOfSource();
  for (const code of ['invalid_body', 'invalid_query', 'not_found', 'order_locked', 'too_many_sign_ins', 'read_only_view']) assert.ok(codes.has(code), code);
  assert.ok(codes.size > 150, `${codes.size} codes`);
});

test('every error code has a sentence in both languages, naming only values its refusal carries', () => {
  const problems: string[] = [];
  for (const [code, files] of errorCodesOfSource()) {
    for (const [locale, catalogue] of Object.entries(CATALOGUES)) {
      const message = catalogue[`refusal.${code}`];
      if (message === undefined) {
        problems.push(`${locale}: no refusal.${code} (answered in ${files.join(', ')})`);
        continue;
      }
      const extra = [...namedValues(parse(message))].filter((name) => !valuesGiven(code).includes(name));
      if (extra.length) problems.push(`${locale}: refusal.${code} names ${extra.join(', ')}, which its refusal does not carry`);
    }
  }
  assert.deepEqual(problems, []);
});
