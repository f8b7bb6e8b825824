// The sub-ids a visitor's query carries (src/lib/sub-ids.ts), read as the redirect reads names;
// what a click stores of them and what an order keeps; and how a batch of clicks carries the few
// that have them to the writer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keptSubId, storedSubIdsOfQuery, subIdColumns, subIdsOfColumns, subIdsOfQuery } from '../../src/lib/sub-ids.js';
import { batchSubIds, sliceSubIds } from '../../src/storage/repositories/clicks.js';

test('sub1 … sub5 are found by name percent-decoded and in any case; other names are not sub-ids', () => {
  assert.deepEqual(subIdsOfQuery('sub1=adset-7&SUB2=creative-3&%73%75%62%33=escaped&Sub4=x&sub5=y'), { sub1: 'adset-7', sub2: 'creative-3', sub3: 'escaped', sub4: 'x', sub5: 'y' });
  assert.deepEqual(subIdsOfQuery('sub6=no&sub=no&subway=no&sub1x=no&utm_source=sub1&xsub1=no'), {});
  assert.deepEqual(subIdsOfQuery('sub1+=no'), {}, 'a "+" in a name is a space: "sub1 " is another name');
});

test('values are kept percent-decoded, "+" a space; a name given twice keeps its first value', () => {
  assert.deepEqual(subIdsOfQuery('sub1=ad+set%207&sub1=later'), { sub1: 'ad set 7' });
  assert.deepEqual(subIdsOfQuery('sub1=%C3%A9t%C3%A9&sub2=%F0%9F%98%80'), { sub1: 'été', sub2: '😀' });
});

test('a value is not kept when empty, longer than 100 characters, broken, or holding a control or invisible character', () => {
  assert.equal(keptSubId(''), undefined);
  assert.equal(keptSubId('x'.repeat(100)), 'x'.repeat(100));
  assert.equal(keptSubId('x'.repeat(101)), undefined);
  assert.equal(keptSubId('%F0%9F%98%80'.repeat(100)), '😀'.repeat(100), '100 characters, whatever their UTF-16 length');
  assert.equal(keptSubId('%F0%9F%98%80'.repeat(101)), undefined);
  for (const raw of ['a%00b', 'a%07', 'tab%09', 'line%0Abreak', 'del%7F', 'c1%C2%85', 'bidi%E2%80%AE', 'zero%E2%80%8Bwidth', 'sep%E2%80%A8', 'bom%EF%BB%BF']) {
    assert.equal(keptSubId(raw), undefined, raw);
  }
  for (const raw of ['%', '%E0%A4%A', '%FF', 'a%zz']) assert.equal(keptSubId(raw), undefined, raw);
  assert.deepEqual(subIdsOfQuery(`sub1=${'a'.repeat(101)}&sub2=ok&sub3=%07&sub4`), { sub2: 'ok' }, 'only the value not kept is left out');
});

test('a click stores the present sub-ids as JSON in name order, or nothing', () => {
  assert.equal(storedSubIdsOfQuery('sub2=b&sub1=a'), '{"sub1":"a","sub2":"b"}');
  assert.equal(storedSubIdsOfQuery(''), undefined);
  assert.equal(storedSubIdsOfQuery('utm_source=x&utm_medium=y'), undefined);
  assert.equal(storedSubIdsOfQuery(`sub1=${'a'.repeat(101)}`), undefined);
});

test('an order keeps a click’s sub-ids in columns, and shows only the present ones', () => {
  assert.deepEqual(subIdColumns('{"sub1":"a","sub3":"c"}'), { sub1: 'a', sub2: null, sub3: 'c', sub4: null, sub5: null });
  assert.deepEqual(subIdColumns(null), { sub1: null, sub2: null, sub3: null, sub4: null, sub5: null });
  assert.deepEqual(subIdsOfColumns({ sub1: 'a', sub2: null, sub3: 'c', sub4: null, sub5: null }), { sub1: 'a', sub3: 'c' });
  assert.equal(subIdsOfColumns({ sub1: null, sub2: null, sub3: null, sub4: null, sub5: null }), undefined);
});

test('a batch carries the sub-ids of the few clicks that have them by index; a slice re-indexes them', () => {
  assert.equal(batchSubIds([{}, { sub_ids: null }, {}]), undefined);
  const subIds = batchSubIds([{}, { sub_ids: '{"sub1":"a"}' }, {}, { sub_ids: '{"sub2":"b"}' }]);
  assert.deepEqual(subIds, { at: [1, 3], values: ['{"sub1":"a"}', '{"sub2":"b"}'] });
  assert.deepEqual(sliceSubIds(subIds, 2, 4), { at: [1], values: ['{"sub2":"b"}'] });
  assert.equal(sliceSubIds(subIds, 2, 3), undefined);
});
