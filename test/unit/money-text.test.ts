// Amounts as people type them, read to integer cents in the person's locale: what the portal's money
// fields and the CLI's --amount accept and refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { centsOf, typedAmount, typedExample } from '../../src/lib/money-text.js';

const READ: ReadonlyArray<readonly [locale: string, typed: string, cents: number]> = [
  ['pt-BR', '129,90', 12990],
  ['pt-BR', 'R$ 129,90', 12990],
  ['pt-BR', 'R$129,9', 12990],
  ['pt-BR', '1.299,90', 129990],
  ['pt-BR', '1.299', 129900],
  ['pt-BR', '1.299.900,05', 129990005],
  ['pt-BR', '49.90', 4990],
  ['pt-BR', '50', 5000],
  ['pt-BR', ' 12,5 ', 1250],
  ['pt-BR', 'R$\u00a01.234,56', 123456],
  ['pt-BR', '129,90 BRL', 12990],
  ['en', '129.90', 12990],
  ['en', '$1,299.90', 129990],
  ['en', '1,299', 129900],
  ['en', 'BRL 129.90', 12990],
  ['en', '0.05', 5],
];

const REFUSED: ReadonlyArray<readonly [locale: string, typed: string]> = [
  ['pt-BR', '129,905'],
  ['pt-BR', '12.99.00'],
  ['pt-BR', '1.2345,00'],
  ['pt-BR', 'abc'],
  ['pt-BR', 'R$'],
  ['pt-BR', '-10,00'],
  ['pt-BR', '1e5'],
  ['en', '1,2,3'],
  ['en', '99999999999999999999'],
];

test('amounts typed the way people write them in their locale are read to cents', () => {
  for (const [locale, typed, cents] of READ) assert.equal(centsOf(typed, locale), cents, `${locale} "${typed}"`);
});

test('what is not an amount is refused (undefined), and an empty field is told apart', () => {
  for (const [locale, typed] of REFUSED) assert.equal(centsOf(typed, locale), undefined, `${locale} "${typed}"`);
  assert.equal(centsOf('  ', 'pt-BR'), '');
});

test('a minus is read only where an amount may be negative', () => {
  assert.equal(centsOf('-15,00', 'pt-BR', { signed: true }), -1500);
  assert.equal(centsOf('−R$ 15,00', 'pt-BR', { signed: true }), -1500);
  assert.equal(centsOf('-15.00', 'en', { signed: true }), -1500);
  assert.equal(centsOf('15,00', 'pt-BR', { signed: true }), 1500);
});

test('the example shown beside a field is written in the person locale', () => {
  assert.equal(typedExample('pt-BR'), '129,90');
  assert.equal(typedExample('en', 1299.9), '1,299.90');
});

test('cents are written back as the person would type them, and read back the same', () => {
  for (const [locale, cents, typed] of [['pt-BR', 129990, '1.299,90'], ['pt-BR', 5, '0,05'], ['en', 12990, '129.90'], ['en', -1500, '-15.00']] as const) {
    assert.equal(typedAmount(cents, locale), typed);
    assert.equal(centsOf(typed, locale, { signed: true }), cents);
  }
});
