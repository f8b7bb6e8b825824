// The portal's two catalogues are ICU MessageFormat: every message reads in both languages, names
// the same values in both (a page fills in one set of values whatever the language), and counts are
// said by each language's plural rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { en } from '../../portal/src/i18n/en.js';
import { ptBR } from '../../portal/src/i18n/pt-BR.js';
import { messagesFor, type Catalogue } from '../../portal/src/i18n/index.js';

const CATALOGUES = { en, 'pt-BR': ptBR } as const satisfies Record<string, Catalogue>;

/** The values a message names, each with its kind (a plain value, a number, a plural…); and its plural categories. */
function valuesOf(elements: MessageFormatElement[], found = new Map<string, string>(), categories: string[] = []): { values: Map<string, string>; categories: string[] } {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) found.set(element.value, 'value');
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      // A plural's value is a count: a plain {count} in the other language names the same value.
      found.set(element.value, element.type === TYPE.select ? 'select' : 'value');
      for (const [selector, option] of Object.entries(element.options)) {
        if (element.type === TYPE.plural && !selector.startsWith('=')) categories.push(selector);
        valuesOf(option.value, found, categories);
      }
      assert.ok('other' in element.options, `a ${element.type === TYPE.plural ? 'plural' : 'select'} needs an "other" case`);
    }
  }
  return { values: found, categories };
}

test('every message of both catalogues is ICU MessageFormat, naming the same values in both languages', () => {
  const problems: string[] = [];
  for (const key of Object.keys(en) as Array<keyof typeof en>) {
    const read = Object.fromEntries(
      Object.entries(CATALOGUES).map(([locale, catalogue]) => {
        try {
          return [locale, valuesOf(parse(catalogue[key]))];
        } catch (error) {
          problems.push(`${locale} ${key}: ${(error as Error).message}`);
          return [locale, undefined];
        }
      }),
    );
    const [english, portuguese] = [read.en, read['pt-BR']];
    if (!english || !portuguese) continue;
    const names = (values: Map<string, string>) => [...values].map(([name, kind]) => `${name}:${kind}`).sort().join(', ');
    if (names(english.values) !== names(portuguese.values)) problems.push(`${key}: en names {${names(english.values)}}, pt-BR names {${names(portuguese.values)}}`);
    for (const [locale, { categories }] of Object.entries(read) as Array<[keyof typeof CATALOGUES, { categories: string[] }]>) {
      const known = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];
      for (const category of categories) if (!known.includes(category)) problems.push(`${locale} ${key}: "${category}" is not a plural category of ${locale} (${known.join(', ')})`);
    }
  }
  assert.deepEqual(problems, []);
});

test('counts are said by each language’s rules, with the locale’s digits', () => {
  const pt = messagesFor('pt-BR', ptBR);
  const english = messagesFor('en', en);
  assert.equal(pt.t('orders.count', { count: 0 }), 'nenhum pedido');
  assert.equal(pt.t('orders.count', { count: 1 }), '1 pedido');
  assert.equal(pt.t('orders.count', { count: 1234 }), '1.234 pedidos');
  assert.equal(english.t('orders.count', { count: 1 }), '1 order');
  assert.equal(english.t('orders.count', { count: 1234 }), '1,234 orders');
  assert.equal(english.t('links.count', { count: 1 }), '1 link');
  assert.equal(pt.t('links.count', { count: 2 }), '2 links');
  assert.equal(pt.t('profile.days', { days: 1 }), '1 dia após o clique');
  assert.equal(pt.t('profile.days', { days: 30 }), '30 dias após o clique');
});

test('a value a message names and the page did not give leaves the message readable, not a blank page', () => {
  const pt = messagesFor('pt-BR', ptBR);
  const quiet = console.error;
  console.error = () => {};
  try {
    assert.match(pt.t('orders.count'), /pedido/);
  } finally {
    console.error = quiet;
  }
});
