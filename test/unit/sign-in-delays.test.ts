// The holds after failed sign-ins, on the in-memory window counter and a clock the test moves: free
// failures, then 1 s, 2 s, 4 s … up to the cap; a read never starts a counter; a known device is
// counted apart from its account and address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryWindowCounter } from '../../src/domain/access/failed-key-throttle.js';
import { holdAfter, SIGN_IN_RULES, SignInDelays } from '../../src/domain/access/sign-in-delays.js';

test('holds double after the free failures, up to the cap', () => {
  const rule = SIGN_IN_RULES.account;
  assert.deepEqual(
    Array.from({ length: 14 }, (_, i) => holdAfter(i + 1, rule)),
    [0, 0, 0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000],
  );
  assert.equal(holdAfter(10_000, SIGN_IN_RULES.address), 5 * 60_000);
});

test('reading a counter (by 0) neither counts nor starts it', async () => {
  let now = 0;
  const counter = memoryWindowCounter(() => now);
  assert.deepEqual(await counter('k', 1000, 0), { count: 0, resetInMs: 0 });
  assert.deepEqual(await counter('k', 1000), { count: 1, resetInMs: 1000 });
  now = 400;
  assert.deepEqual(await counter('k', 1000, 0), { count: 1, resetInMs: 600 });
  now = 1000;
  assert.deepEqual(await counter('k', 1000, 0), { count: 0, resetInMs: 0 }, 'the window ended');
});

test('an account held back for strangers is not for its known device; the hold ends with its time', async () => {
  let now = 0;
  const delays = new SignInDelays(memoryWindowCounter(() => now));
  const stranger = { email: 'Ana@Example.com', address: '198.51.100.1' };
  for (let i = 0; i < 6; i++) assert.equal(await delays.admit(stranger), 0, `try ${i + 1} is checked`);
  assert.equal(await delays.admit(stranger), 1000);
  assert.equal(await delays.admit({ email: 'ana@example.com', address: '198.51.100.2' }), 1000, 'the account is held from any address');
  assert.equal(await delays.admit({ ...stranger, knownDevice: 'device-hash' }), 0, 'its known device is not');
  now = 1000;
  assert.equal(await delays.admit(stranger), 0, 'the hold is over: one more try');
  assert.equal(await delays.admit(stranger), 2000, 'and the next hold is twice as long');
});

test('tries sent all at once past the free ones: one is let in, the others wait', async () => {
  const delays = new SignInDelays(memoryWindowCounter(() => 0));
  const attempt = { email: 'bia@example.com', address: '198.51.100.3' };
  const waits = await Promise.all(Array.from({ length: 20 }, () => delays.admit(attempt)));
  assert.equal(waits.filter((w) => w === 0).length, 6, 'the 5 free tries and one more');
});

test('a try that succeeds does not count: the owner signing in often is never held', async () => {
  const delays = new SignInDelays(memoryWindowCounter(() => 0));
  const owner = { email: 'caio@example.com', address: '192.0.2.1', knownDevice: 'device-hash' };
  for (let i = 0; i < 50; i++) {
    assert.equal(await delays.admit(owner), 0);
    await delays.succeeded(owner);
  }
});
