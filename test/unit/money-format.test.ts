// Amounts written for people: without a language as before (for messages and errors), with one as
// its people write them, thousands grouped, in integer arithmetic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMinor } from '../../src/domain/money.js';

test('an amount in cents, plain or in a language', () => {
  assert.equal(formatMinor(123456, 'BRL'), '1234.56 BRL');
  assert.equal(formatMinor(-5, 'BRL'), '-0.05 BRL');
  assert.equal(formatMinor(123456, 'BRL', 'en'), '1,234.56 BRL');
  assert.equal(formatMinor(123456, 'BRL', 'pt-BR'), '1.234,56 BRL');
  assert.equal(formatMinor(-100000000, 'BRL', 'pt-BR'), '-1.000.000,00 BRL');
  assert.equal(formatMinor(5, 'BRL', 'pt-BR'), '0,05 BRL');
  assert.equal(formatMinor(1234567, 'JPY', 'en'), '1,234,567 JPY');
  assert.equal(formatMinor(1234567, 'BHD', 'pt-BR'), '1.234,567 BHD');
  assert.equal(formatMinor(Number.MAX_SAFE_INTEGER, 'BRL', 'en'), '90,071,992,547,409.91 BRL');
});
