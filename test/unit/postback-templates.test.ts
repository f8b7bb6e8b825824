// A postback's URL template filled in from an event's payload: sub-ids read from the order's view
// when it carries them, commissions in the currency's units from integer cents, every value
// URL-encoded, an absent one empty; and where a refused template goes wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkedTemplate, filledIn, templateParts, valuesOf } from '../../src/domain/postbacks/templates.js';
import { DomainError } from '../../src/domain/errors.js';

const payload = (data: object) => JSON.stringify({ type: 'order.created', version: 1, timestamp: '2026-03-01T12:00:00.000Z', data });
const fill = (template: string, data: object, event = 'conversion.created') => filledIn(templateParts(template), valuesOf(event, payload(data)));

test('sub-ids carried by the order view fill {sub1}…{sub5}; absent ones are empty', () => {
  const url = fill('https://t.example/pb?a={sub1}&b={sub2}&c={sub3}&d={sub4}&e={sub5}', { subIds: { sub1: 'camp 7', sub3: 'x&y=z', sub5: 'ação' } });
  assert.equal(url, 'https://t.example/pb?a=camp%207&b=&c=x%26y%3Dz&d=&e=a%C3%A7%C3%A3o');
  assert.equal(fill('https://t.example/pb?a={sub1}', {}), 'https://t.example/pb?a=', 'a view without subIds leaves them empty');
  assert.equal(fill('https://t.example/pb?a={sub1}', { subIds: 'not an object' }), 'https://t.example/pb?a=');
});

test('the commission in the currency’s units, from integer cents', () => {
  const commission = (cents: number, currency: string) => fill('https://t.example/pb?c={commission}&cc={commission_cents}', { commission: cents, currency });
  assert.equal(commission(1290, 'BRL'), 'https://t.example/pb?c=12.90&cc=1290');
  assert.equal(commission(1290, 'JPY'), 'https://t.example/pb?c=1290&cc=1290');
  assert.equal(commission(5, 'BRL'), 'https://t.example/pb?c=0.05&cc=5');
  assert.equal(commission(12345, 'BHD'), 'https://t.example/pb?c=12.345&cc=12345');
  assert.equal(commission(0, 'BRL'), 'https://t.example/pb?c=0.00&cc=0');
  assert.equal(fill('https://t.example/pb?c={commission}', { commission: 1290 }), 'https://t.example/pb?c=', 'no currency: no decimal');
});

test("the network's order id, the click, the brand, the status, the event and its time", () => {
  const url = fill('https://t.example/pb?o={order_id}&k={click_id}&b={brand_id}&s={status}&e={event}&t={timestamp}&cur={currency}', {
    id: 'net-1',
    orderId: 'BRAND-99',
    clickId: 'c1',
    organizationId: 'b-1',
    commissionStatus: 'approved',
    currency: 'BRL',
  }, 'conversion.approved');
  assert.equal(url, 'https://t.example/pb?o=net-1&k=c1&b=b-1&s=approved&e=conversion.approved&t=2026-03-01T12%3A00%3A00.000Z&cur=BRL');
});

test('a refused template says where, from offset 0', () => {
  const refusal = (template: string): Record<string, unknown> => {
    try {
      checkedTemplate(template, false);
    } catch (error) {
      assert.ok(error instanceof DomainError);
      return { code: error.code, ...error.details };
    }
    assert.fail(`${template} was accepted`);
  };
  const { allowed, ...unknown } = refusal('https://t.example/{nope}');
  assert.deepEqual(unknown, { code: 'unknown_macro', position: 18, macro: '{nope}' });
  assert.ok(Array.isArray(allowed) && allowed.includes('{click_id}') && allowed.includes('{timestamp}'), 'the macros it may name');
  assert.deepEqual(refusal('https://t.example/{sub1'), { code: 'unclosed_macro', position: 18, macro: '{sub1' });
  assert.deepEqual(refusal('https://t.example/a}'), { code: 'unclosed_macro', position: 19, macro: '}' });
  assert.deepEqual(refusal('https://t.example{click_id}'), { code: 'macro_in_host', position: 17, macro: '{click_id}' });
  assert.deepEqual(refusal('http://t.example/pb'), { code: 'invalid_url', position: 0 });
  assert.deepEqual(checkedTemplate('HTTPS://t.example/pb?x={click_id}#{sub1}', false).length, 4);
});
