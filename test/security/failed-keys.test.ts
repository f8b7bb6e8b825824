// Guessing keys is throttled per client address: past the limit, requests with an invalid key or
// postback token answer 429 until the window ends, while a valid key from the same address is
// always served and a request without any key never counts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey, sleep } from '../helpers/api.js';

const LIMIT = 3;
const WINDOW_SECONDS = 2;

let h: Harness;
let validKey: string;
before(async () => {
  h = await startHarness({ FAILED_KEY_LIMIT: String(LIMIT), FAILED_KEY_WINDOW_SECONDS: String(WINDOW_SECONDS) });
  validKey = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

let addresses = 0;
/** A client address no other test has used. */
const freshAddress = () => `203.0.113.${++addresses}`;

const brands = (address: string, key?: string): InjectOptions => ({
  method: 'GET',
  url: '/affiliate/brands',
  remoteAddress: address,
  headers: key === undefined ? {} : { 'x-api-key': key },
});
const guess = (i: number) => `afn_guess${String(i).padStart(27, '0')}`;

function assertThrottled(res: Awaited<ReturnType<Harness['request']>>): void {
  const error = assertError(res, 429, 'TOO_MANY_REQUESTS');
  assert.match(error.message, /invalid API key from this address; retry in \d+ s with a valid key/);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_SECONDS, `Retry-After ${res.headers['retry-after']}`);
}

describe('requests with invalid keys, from one address', () => {
  test(`the first ${LIMIT} answer 401; past them 429 with Retry-After, until the window has passed`, async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT; i++) assertError(await h.request(brands(address, guess(i))), 401, 'unauthorized');
    assertThrottled(await h.request(brands(address, guess(LIMIT))));
    assertThrottled(await h.request(brands(address, guess(LIMIT + 1))));
    await sleep(WINDOW_SECONDS * 1000 + 100);
    assertError(await h.request(brands(address, guess(LIMIT + 2))), 401, 'unauthorized');
  });

  test('a valid key from the throttled address is still served', async () => {
    const address = freshAddress();
    for (let i = 0; i <= LIMIT; i++) await h.request(brands(address, guess(i)));
    assertThrottled(await h.request(brands(address, guess(99))));
    for (let i = 0; i < 3; i++) {
      const res = await h.request(brands(address, validKey));
      assert.equal(res.statusCode, 200, res.body);
    }
  });

  test('other addresses are not affected', async () => {
    const address = freshAddress();
    for (let i = 0; i <= LIMIT; i++) await h.request(brands(address, guess(i)));
    assertThrottled(await h.request(brands(address, guess(99))));
    assertError(await h.request(brands(freshAddress(), guess(0))), 401, 'unauthorized');
  });

  test('a request without a key answers 401 and does not count', async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT * 3; i++) assertError(await h.request(brands(address)), 401, 'unauthorized');
    for (let i = 0; i < LIMIT; i++) assertError(await h.request(brands(address, guess(i))), 401, 'unauthorized');
    assertThrottled(await h.request(brands(address, guess(LIMIT))));
  });

  test('unknown postback tokens count too', async () => {
    const address = freshAddress();
    const postback = (i: number): InjectOptions => ({
      method: 'GET',
      url: `/postback?clickId=${'0'.repeat(32)}&orderId=guess-${i}&value=1000&token=afp_${String(i).padStart(32, '0')}`,
      remoteAddress: address,
    });
    for (let i = 0; i < LIMIT; i++) assertError(await h.request(postback(i)), 401, 'unauthorized');
    assertThrottled(await h.request(postback(LIMIT)));
  });
});
