// Percentages as people type them, to basis points and back, in both languages of the portal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basisPointsOf, typedPercent } from '../../src/lib/percent-text.js';

test('a percentage typed in pt-BR or en is read as basis points; what is not one is refused', () => {
  const read: Array<[string, string, number | '' | undefined]> = [
    ['2,5', 'pt-BR', 250],
    ['2,5 %', 'pt-BR', 250],
    ['2.5', 'pt-BR', 250],
    ['30', 'pt-BR', 3000],
    ['0,01', 'pt-BR', 1],
    ['100', 'pt-BR', 10_000],
    ['12,75%', 'pt-BR', 1275],
    ['2.5', 'en', 250],
    ['2,5', 'en', 250],
    ['30 %', 'en', 3000],
    ['', 'pt-BR', ''],
    ['  ', 'en', ''],
    ['100,01', 'pt-BR', undefined],
    ['2,555', 'pt-BR', undefined],
    ['-1', 'pt-BR', undefined],
    ['1.000,5', 'pt-BR', undefined],
    ['abc', 'en', undefined],
    ['%', 'en', undefined],
  ];
  for (const [text, locale, expected] of read) assert.equal(basisPointsOf(text, locale), expected, `"${text}" in ${locale}`);
});

test('basis points are written back as people type them, and read back the same', () => {
  assert.equal(typedPercent(250, 'pt-BR'), '2,5');
  assert.equal(typedPercent(250, 'en'), '2.5');
  assert.equal(typedPercent(3000, 'pt-BR'), '30');
  assert.equal(typedPercent(1, 'pt-BR'), '0,01');
  assert.equal(typedPercent(10_000, 'en'), '100');
  for (const bp of [0, 1, 99, 250, 1275, 3333, 10_000]) for (const locale of ['pt-BR', 'en']) assert.equal(basisPointsOf(typedPercent(bp, locale), locale), bp, `${bp} in ${locale}`);
});
