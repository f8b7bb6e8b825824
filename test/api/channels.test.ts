// GET /affiliate/channels: the caller's own channels; and the scope it needs, channels:read, which
// keys created before it existed hold when they held every affiliate scope of their time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { freshDatabase, redisEnv } from '../helpers/databases.js';
import { injector } from '../helpers/inject.js';
import { loadConfig } from '../../src/config.js';
import { createService } from '../../src/server.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo } from '../../src/storage/migrate.js';
import { hashKey } from '../../src/domain/access/access-service.js';

type Channels = { data: Array<{ id: string; name: string; availableChannel: { id: string; name: string } }> };

describe('GET /affiliate/channels', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  test("lists the caller's channels with their kind, in the order they were added (then id)", async () => {
    const res = await h.get('/affiliate/channels', h.world.keys.aff1);
    assert.equal(res.statusCode, 200, res.body);
    const stored = await h.service.database.db.selectFrom('affiliate_channels').select('id').where('affiliate_id', '=', 'aff-1').orderBy('created_at').orderBy('id').execute();
    const byId = {
      'ch-aff1-site': { id: 'ch-aff1-site', name: 'My blog', availableChannel: { id: 'site', name: 'Site' } },
      'ch-aff1-insta': { id: 'ch-aff1-insta', name: '@aff1', availableChannel: { id: 'instagram', name: 'Instagram' } },
    } as Record<string, unknown>;
    assert.equal(stored.length, 2);
    assert.deepEqual(res.json<Channels>().data, stored.map((row) => byId[row.id]));
  });

  test("another affiliate sees its own channels, never the caller's", async () => {
    const res = await h.get('/affiliate/channels', h.world.keys.aff2);
    assert.deepEqual(res.json<Channels>().data.map((c) => c.id), ['ch-aff2-wa']);
  });

  test('a key without channels:read is refused with 403', async () => {
    const { key } = await newKey(h, 'aff-1', { scopes: ['brands:read'] });
    const error = assertError(await h.get('/affiliate/channels', key), 403, 'forbidden');
    assert.match(error.message, /channels:read/);
  });
});

describe('a scope added after keys were created', () => {
  const OLD_FULL_SET = 'brands:read products:read campaigns:read shortener:read shortener:write orders:read';

  test('is granted (with every scope added after it) to an existing key that held every affiliate scope, and not to a narrowed one', async () => {
    const target = await freshDatabase();
    // The schema as it was before channels:read existed, with two keys made then.
    const before = openDatabase(target.url);
    await migrateTo(before, '0016-order-link-code');
    const now = new Date().toISOString();
    await before.db.insertInto('channel_kinds').values({ id: 'site', name: 'Site' }).execute();
    await before.db.insertInto('affiliates').values({ id: 'aff-old', name: 'Old', created_at: now }).execute();
    await before.db.insertInto('affiliate_channels').values({ id: 'ch-old', affiliate_id: 'aff-old', kind_id: 'site', name: 'Old blog', created_at: now }).execute();
    const key = (name: string, scopes: string) => ({
      id: `key_${name}`,
      key_hash: hashKey(`afn_${name.padEnd(32, '0')}`),
      key_prefix: 'afn_',
      affiliate_id: 'aff-old',
      brand_id: null,
      name,
      scopes,
      rate_limit: 60,
      rate_window_seconds: 60,
      created_at: now,
      revoked_at: null,
    });
    await before.db.insertInto('api_keys').values([key('full', OLD_FULL_SET), key('narrow', 'brands:read orders:read')]).execute();
    await before.close();

    // The service migrates to the latest schema when it starts.
    const service = await createService(loadConfig({ DATABASE_URL: target.url, PUBLIC_URL: 'http://go.test', ...redisEnv() }));
    try {
      const request = injector(service);
      const full = await request({ method: 'GET', url: '/affiliate/channels', headers: { 'x-api-key': `afn_${'full'.padEnd(32, '0')}` } });
      assert.equal(full.statusCode, 200, full.body);
      assert.deepEqual(full.json<Channels>().data.map((c) => c.id), ['ch-old']);
      const narrow = await request({ method: 'GET', url: '/affiliate/channels', headers: { 'x-api-key': `afn_${'narrow'.padEnd(32, '0')}` } });
      assertError(narrow, 403, 'forbidden');
      const scopes = await service.database.db.selectFrom('api_keys').select(['id', 'scopes']).orderBy('id').execute();
      assert.deepEqual(scopes, [
        { id: 'key_full', scopes: `${OLD_FULL_SET} channels:read webhooks:read webhooks:write approvals:write analytics:read channels:write claims:write` },
        { id: 'key_narrow', scopes: 'brands:read orders:read' },
      ]);
    } finally {
      await service.close();
      await target.drop();
    }
  });
});
