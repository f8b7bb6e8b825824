// A refused outbound target tells the member what is wrong and keeps where for the log: the
// message names no address and no kind of machine; the detail, for the log alone, names both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkedAddress, RefusedTarget } from '../../src/outbound/outbound-target.js';
import { webhookTransport } from '../../src/outbound/webhook-transport.js';
import { feedFetcher } from '../../src/outbound/feed-fetch.js';

const resolve = async (name: string) => {
  if (name === 'db.example') return ['93.184.216.34', '10.0.0.5'];
  if (name === 'empty.example') return [];
  if (name === 'public.example') return ['93.184.216.34'];
  throw new Error(`getaddrinfo ENOTFOUND ${name}`);
};
const refusal = async (url: string, allowLocal = false): Promise<RefusedTarget> => {
  try {
    await checkedAddress(new URL(url), { allowLocal, resolve });
  } catch (error) {
    assert.ok(error instanceof RefusedTarget, String(error));
    return error;
  }
  assert.fail(`${url} was not refused`);
};

test('the message says what is wrong, the detail where', async () => {
  const inward = await refusal('https://db.example/hook');
  assert.equal(inward.message, 'refused: the address of db.example is not public');
  assert.equal(inward.detail, 'refused: db.example resolves to 10.0.0.5, a private address');
  const literal = await refusal('https://[::ffff:7f00:1]/hook');
  assert.equal(literal.message, 'refused: ::ffff:7f00:1 is not a public address');
  assert.match(literal.detail, /loopback/);
  const unknown = await refusal('https://gone.example/feed.xml');
  assert.equal(unknown.message, 'refused: gone.example could not be resolved');
  assert.equal(unknown.detail, 'cannot resolve gone.example: getaddrinfo ENOTFOUND gone.example');
  const empty = await refusal('https://empty.example/feed.xml');
  assert.equal(empty.message, 'refused: empty.example could not be resolved');
  assert.equal(empty.detail, 'cannot resolve empty.example: no address');
  assert.equal((await refusal('http://public.example/hook')).message, 'refused: http: URLs are not allowed, only https');
});

test('a public address is the one to connect to; local targets pass where the operator allows them', async () => {
  assert.equal(await checkedAddress(new URL('https://public.example/hook'), { allowLocal: false, resolve }), '93.184.216.34');
  assert.equal(await checkedAddress(new URL('http://db.example/hook'), { allowLocal: true, resolve }), '93.184.216.34');
});

test('a webhook delivery and a feed fetch refused tell the member what is wrong and the log where', async () => {
  const logged: string[] = [];
  const onRefused = (detail: string) => void logged.push(detail);
  const delivery = await webhookTransport({ allowLocal: false, resolve, onRefused }).send({ url: 'https://db.example/hook', headers: {}, body: '{}' });
  assert.equal(delivery.error, 'refused: the address of db.example is not public');
  const feed = await feedFetcher({ allowLocal: false, resolve, onRefused })('https://db.example/feed.xml');
  assert.deepEqual(feed, { ok: false, reason: 'refused: the address of db.example is not public' });
  assert.deepEqual(logged, ['refused: db.example resolves to 10.0.0.5, a private address', 'refused: db.example resolves to 10.0.0.5, a private address']);
});
