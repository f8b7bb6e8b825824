// Affiliates manage their own channels: add, rename, remove. A new channel gets links from link
// creation at once; a removed one gets none, while its links keep redirecting and its orders keep
// naming it. Names are checked; one affiliate never sees or touches another's channels; a key
// without channels:write only reads them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, startWithKeys } from '../helpers/api.js';
import { affiliateOrder, brandKey, clickLink, createLink, item, report } from '../helpers/tracking.js';

type Channel = { id: string; name: string; availableChannel: { id: string; name: string } };

let h: Harness;
let aff1: string;
let aff2: string;
let aff3: string;

before(async () => {
  ({ h, aff1, aff2, aff3 } = await startWithKeys());
});
after(async () => {
  await h.close();
});

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, key: string, payload?: object) =>
  h.request({ method, url, headers: { 'x-api-key': key }, ...(payload && { payload }) });
const channelsOf = async (key: string) => (await h.get('/affiliate/channels', key)).json<{ data: Channel[] }>().data;
const linkChannels = async (key: string) => {
  const res = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Home' }, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Array<{ id: string; name: string; shortUrls: string[] }>>();
};

describe('channels', () => {
  test('an affiliate without channels adds one: it is listed and link creation makes its link at once', async () => {
    assert.deepEqual(await linkChannels(aff3), [], 'no channel, no link');
    const res = await send('POST', '/affiliate/channels', aff3, { availableChannelId: 'youtube', name: '  My cooking channel ' });
    assert.equal(res.statusCode, 201, res.body);
    const channel = res.json<{ data: Channel }>().data;
    assert.deepEqual({ name: channel.name, kind: channel.availableChannel }, { name: 'My cooking channel', kind: { id: 'youtube', name: 'YouTube' } });
    assert.deepEqual(await channelsOf(aff3), [channel]);
    const links = await linkChannels(aff3);
    assert.deepEqual(links.map((c) => [c.id, c.shortUrls.length]), [[channel.id, 1]]);
  });

  test('renaming keeps the channel and its links; the order of the link shows the new name', async () => {
    const { id } = (await send('POST', '/affiliate/channels', aff3, { availableChannelId: 'site', name: 'Old blog' })).json<{ data: Channel }>().data;
    const { code } = await createLink(h, aff3, BRANDS.acme, { channelId: id });
    const renamed = await send('PATCH', `/affiliate/channels/${id}`, aff3, { name: 'New blog' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json<{ data: Channel }>().data.name, 'New blog');
    const { clickId } = await clickLink(h, code);
    const acme = await brandKey(h, BRANDS.acme);
    assert.equal((await report(h, acme, { clickId, orderId: 'CH-RENAMED', value: 5000, items: [item(5000)] })).statusCode, 201);
    assert.deepEqual((await affiliateOrder(h, aff3, 'CH-RENAMED')).channel, { id, name: 'New blog', kind: 'site' });
  });

  test('a removed channel leaves the list and link creation; its link still redirects and its order still names it', async () => {
    const { id } = (await send('POST', '/affiliate/channels', aff3, { availableChannelId: 'telegram', name: 'Deals chat' })).json<{ data: Channel }>().data;
    const { code } = await createLink(h, aff3, BRANDS.acme, { channelId: id, mdasc: 'before-removal' });
    assert.equal((await send('DELETE', `/affiliate/channels/${id}`, aff3)).statusCode, 204);
    assert.ok(!(await channelsOf(aff3)).some((c) => c.id === id), 'not listed');
    assert.ok(!(await linkChannels(aff3)).some((c) => c.id === id), 'no new link for it');
    const { clickId } = await clickLink(h, code);
    const acme = await brandKey(h, BRANDS.acme);
    assert.equal((await report(h, acme, { clickId, orderId: 'CH-REMOVED', value: 7000, items: [item(7000)] })).statusCode, 201);
    assert.deepEqual((await affiliateOrder(h, aff3, 'CH-REMOVED')).channel, { id, name: 'Deals chat', kind: 'telegram' });
    assertError(await send('DELETE', `/affiliate/channels/${id}`, aff3), 404, 'channel_not_found');
    assertError(await send('PATCH', `/affiliate/channels/${id}`, aff3, { name: 'Back' }), 404, 'channel_not_found');
    // Its name is free again.
    assert.equal((await send('POST', '/affiliate/channels', aff3, { availableChannelId: 'telegram', name: 'Deals chat' })).statusCode, 201);
  });

  test('names: trimmed, not blank, not too long, unlike the other channels in use (case aside)', async () => {
    assertError(await send('POST', '/affiliate/channels', aff1, { availableChannelId: 'site', name: 'my BLOG' }), 409, 'channel_name_taken');
    assertError(await send('POST', '/affiliate/channels', aff1, { availableChannelId: 'site', name: '   ' }), 400, 'invalid_channel_name');
    assertError(await send('POST', '/affiliate/channels', aff1, { availableChannelId: 'site', name: 'x'.repeat(101) }), 400);
    assertError(await send('POST', '/affiliate/channels', aff1, { availableChannelId: 'myspace', name: 'Old times' }), 400);
    assertError(await send('POST', '/affiliate/channels', aff1, { name: 'No kind' }), 400);
    assertError(await send('PATCH', `/affiliate/channels/${h.world.channels.aff1Instagram}`, aff1, { name: 'My Blog' }), 409, 'channel_name_taken');
    // Its own name, differently cased, is not a clash.
    const same = await send('PATCH', `/affiliate/channels/${h.world.channels.aff1Site}`, aff1, { name: 'My Blog' });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal(same.json<{ data: Channel }>().data.name, 'My Blog');
  });

  test('two adds of one name at once: one channel, and the other answers 409 as one after the other would', async () => {
    for (const names of [['Twin deals', 'Twin deals'], ['Case twins', 'CASE TWINS']]) {
      const answers = await Promise.all(names.map((name) => send('POST', '/affiliate/channels', aff3, { availableChannelId: 'telegram', name })));
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, 409], answers.map((a) => a.body).join('\n'));
      const refused = answers.find((a) => a.statusCode === 409)!;
      assert.match(assertError(refused, 409, 'channel_name_taken').message, /already have a channel named/);
      assert.equal((await channelsOf(aff3)).filter((c) => c.name.toLowerCase() === names[0]!.toLowerCase()).length, 1);
    }
    // Renames at once to one name: one of them is refused.
    const ids = [];
    for (const name of ['Race one', 'Race two']) ids.push((await send('POST', '/affiliate/channels', aff3, { availableChannelId: 'site', name })).json<{ data: Channel }>().data.id);
    const renames = await Promise.all(ids.map((id, i) => send('PATCH', `/affiliate/channels/${id}`, aff3, { name: i === 0 ? 'Race winner' : 'race WINNER' })));
    assert.deepEqual(renames.map((r) => r.statusCode).sort(), [200, 409], renames.map((r) => r.body).join('\n'));
    assertError(renames.find((r) => r.statusCode === 409)!, 409, 'channel_name_taken');
    // A removed channel's name is free again, for one new channel.
    const winner = (await channelsOf(aff3)).find((c) => c.name.toLowerCase() === 'race winner')!;
    assert.equal((await send('DELETE', `/affiliate/channels/${winner.id}`, aff3)).statusCode, 204);
    const again = await Promise.all([0, 1].map(() => send('POST', '/affiliate/channels', aff3, { availableChannelId: 'site', name: 'Race winner' })));
    assert.deepEqual(again.map((a) => a.statusCode).sort(), [201, 409]);
  });

  test("another affiliate's channel is not found, and stays as it was", async () => {
    const theirs = h.world.channels.aff2Whatsapp;
    assertError(await send('PATCH', `/affiliate/channels/${theirs}`, aff1, { name: 'Mine now' }), 404, 'channel_not_found');
    assertError(await send('DELETE', `/affiliate/channels/${theirs}`, aff1), 404, 'channel_not_found');
    assert.deepEqual((await channelsOf(aff2)).map((c) => [c.id, c.name]), [[theirs, 'Deals group']]);
  });

  test('a key without channels:write reads the channels and may not change them', async () => {
    const { key } = await newKey(h, 'aff-1', { scopes: ['channels:read'] });
    assert.equal((await h.get('/affiliate/channels', key)).statusCode, 200);
    assert.match(assertError(await send('POST', '/affiliate/channels', key, { availableChannelId: 'site', name: 'Nope' }), 403).message, /channels:write/);
    assert.match(assertError(await send('DELETE', `/affiliate/channels/${h.world.channels.aff1Site}`, key), 403).message, /channels:write/);
  });
});
