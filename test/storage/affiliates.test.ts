// AffiliatesRepository against a real database: anyExists on an empty and a non-empty network,
// save (insert, then a rename that keeps the creation time), exists; channel kinds (saved once,
// never overwritten) and channels (saved, renamed or moved to another kind, listed per affiliate
// in creation order with the id breaking ties, with their kind's name).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openFixture, type StorageFixture } from './fixture.js';
import { freshDatabase } from '../helpers/databases.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrate.js';
import { NameTaken } from '../../src/lib/unique-violation.js';

let f: StorageFixture;

before(async () => {
  f = await openFixture();
});

after(async () => {
  await f?.close();
});

const at = (day: string) => `2026-${day}T00:00:00.000Z`;

describe('AffiliatesRepository', () => {
  // First in the file: the database starts without affiliates.
  test('anyExists is false on an empty network and true once an affiliate is saved', async () => {
    assert.equal(await f.repos.affiliates.anyExists(), false);
    await f.repos.affiliates.save({ id: 'aff-1', name: 'One', created_at: at('01-01') });
    assert.equal(await f.repos.affiliates.anyExists(), true);
  });

  test('save renames an existing affiliate and keeps its creation time', async () => {
    await f.repos.affiliates.save({ id: 'aff-1', name: 'One renamed', created_at: at('02-01') });
    const rows = await f.database.db.selectFrom('affiliates').selectAll().execute();
    assert.deepEqual(rows, [{ id: 'aff-1', name: 'One renamed', created_at: at('01-01'), updated_at: null, suspended_at: null, suspension_reason: null }]);
    assert.equal(await f.repos.affiliates.exists('aff-1'), true);
    assert.equal(await f.repos.affiliates.exists('aff-2'), false);
  });

  test('channel kinds are saved once: saving a known kind again keeps its name', async () => {
    assert.equal(await f.repos.affiliates.channelKindExists('site'), false);
    await f.repos.affiliates.saveChannelKinds([
      { id: 'site', name: 'Site' },
      { id: 'instagram', name: 'Instagram' },
    ]);
    await f.repos.affiliates.saveChannelKinds([
      { id: 'site', name: 'Renamed site' },
      { id: 'whatsapp', name: 'WhatsApp' },
    ]);
    assert.equal(await f.repos.affiliates.channelKindExists('whatsapp'), true);
    assert.equal(await f.repos.affiliates.channelKindExists('fax'), false);
    const kinds = await f.database.db.selectFrom('channel_kinds').selectAll().orderBy('id').execute();
    assert.deepEqual(kinds, [
      { id: 'instagram', name: 'Instagram' },
      { id: 'site', name: 'Site' },
      { id: 'whatsapp', name: 'WhatsApp' },
    ]);
  });

  test("channelsOf lists the affiliate's channels in creation order, the id breaking ties, with their kind", async () => {
    await f.repos.affiliates.save({ id: 'aff-2', name: 'Two', created_at: at('01-02') });
    await f.repos.affiliates.saveChannel({ id: 'ch-c', affiliate_id: 'aff-1', kind_id: 'site', name: 'Blog', created_at: at('01-03') });
    await f.repos.affiliates.saveChannel({ id: 'ch-b', affiliate_id: 'aff-1', kind_id: 'instagram', name: '@one', created_at: at('01-02') });
    await f.repos.affiliates.saveChannel({ id: 'ch-a', affiliate_id: 'aff-1', kind_id: 'whatsapp', name: 'Group', created_at: at('01-03') });
    await f.repos.affiliates.saveChannel({ id: 'ch-z', affiliate_id: 'aff-2', kind_id: 'site', name: 'Their blog', created_at: at('01-01') });
    assert.deepEqual(await f.repos.affiliates.channelsOf('aff-1'), [
      { id: 'ch-b', name: '@one', kindId: 'instagram', kindName: 'Instagram' },
      { id: 'ch-a', name: 'Group', kindId: 'whatsapp', kindName: 'WhatsApp' },
      { id: 'ch-c', name: 'Blog', kindId: 'site', kindName: 'Site' },
    ]);
    assert.deepEqual(await f.repos.affiliates.channelsOf('aff-nobody'), []);
  });

  test('saving a channel again renames it and changes its kind, keeping its creation time', async () => {
    await f.repos.affiliates.saveChannel({ id: 'ch-c', affiliate_id: 'aff-1', kind_id: 'instagram', name: '@blog', created_at: at('05-01') });
    const row = await f.database.db.selectFrom('affiliate_channels').selectAll().where('id', '=', 'ch-c').executeTakeFirstOrThrow();
    assert.deepEqual(row, { id: 'ch-c', affiliate_id: 'aff-1', kind_id: 'instagram', name: '@blog', created_at: at('01-03'), removed_at: null, site: null });
    assert.deepEqual((await f.repos.affiliates.channelsOf('aff-1')).at(-1), { id: 'ch-c', name: '@blog', kindId: 'instagram', kindName: 'Instagram' });
  });

  test("a channel id of another affiliate is refused (false) and that channel is left as it was", async () => {
    assert.equal(await f.repos.affiliates.saveChannel({ id: 'ch-z', affiliate_id: 'aff-1', kind_id: 'instagram', name: 'Taken over', created_at: at('06-01') }), false);
    const row = await f.database.db.selectFrom('affiliate_channels').selectAll().where('id', '=', 'ch-z').executeTakeFirstOrThrow();
    assert.deepEqual(row, { id: 'ch-z', affiliate_id: 'aff-2', kind_id: 'site', name: 'Their blog', created_at: at('01-01'), removed_at: null, site: null });
    assert.equal(await f.repos.affiliates.saveChannel({ id: 'ch-z', affiliate_id: 'aff-2', kind_id: 'site', name: 'Renamed', created_at: at('06-01') }), true);
  });

  test("renaming and removing touch only the affiliate's own channel in use; a removed one is listed only on request", async () => {
    assert.equal(await f.repos.affiliates.renameChannel('aff-1', 'ch-z', 'Mine now'), false, "another affiliate's channel");
    assert.equal(await f.repos.affiliates.removeChannel('aff-1', 'ch-z', at('07-01')), false, "another affiliate's channel");
    assert.equal(await f.repos.affiliates.renameChannel('aff-1', 'ch-a', 'Group chat'), true);
    assert.equal(await f.repos.affiliates.removeChannel('aff-1', 'ch-a', at('07-01')), true);
    assert.equal(await f.repos.affiliates.removeChannel('aff-1', 'ch-a', at('07-02')), false, 'removed once');
    assert.equal(await f.repos.affiliates.renameChannel('aff-1', 'ch-a', 'Back'), false, 'a removed channel is not renamed');
    assert.deepEqual((await f.repos.affiliates.channelsOf('aff-1')).map((c) => c.id), ['ch-b', 'ch-c']);
    assert.deepEqual((await f.repos.affiliates.channelsOf('aff-1', { includeRemoved: true })).map((c) => [c.id, c.name]), [['ch-b', '@one'], ['ch-a', 'Group chat'], ['ch-c', '@blog']]);
    const row = await f.database.db.selectFrom('affiliate_channels').select('removed_at').where('id', '=', 'ch-a').executeTakeFirstOrThrow();
    assert.equal(row.removed_at, at('07-01'));
    assert.equal((await f.database.db.selectFrom('affiliate_channels').select('name').where('id', '=', 'ch-z').executeTakeFirstOrThrow()).name, 'Renamed');
  });

  test('two channels in use of an affiliate never share a name, case aside: NameTaken, and nothing written', async () => {
    // In use now: ch-b '@one', ch-c '@blog' (aff-1); ch-a 'Group chat' was removed.
    const taken = await f.repos.affiliates.saveChannel({ id: 'ch-d', affiliate_id: 'aff-1', kind_id: 'site', name: '@BLOG', created_at: at('08-01') }).catch((e: unknown) => e);
    assert.ok(taken instanceof NameTaken, String(taken));
    assert.equal(taken.message, 'you already have a channel named "@BLOG"; choose another name');
    assert.equal(await f.database.db.selectFrom('affiliate_channels').select('id').where('id', '=', 'ch-d').executeTakeFirst(), undefined);
    await assert.rejects(f.repos.affiliates.renameChannel('aff-1', 'ch-b', '@Blog'), NameTaken);
    assert.deepEqual((await f.repos.affiliates.channelsOf('aff-1')).map((c) => c.name), ['@one', '@blog']);
    // A removed channel's name, another affiliate's, and the channel's own are free.
    assert.equal(await f.repos.affiliates.saveChannel({ id: 'ch-e', affiliate_id: 'aff-1', kind_id: 'site', name: 'Group chat', created_at: at('08-02') }), true);
    assert.equal(await f.repos.affiliates.saveChannel({ id: 'ch-y', affiliate_id: 'aff-2', kind_id: 'site', name: '@blog', created_at: at('08-02') }), true);
    assert.equal(await f.repos.affiliates.renameChannel('aff-1', 'ch-c', '@BLOG'), true);
  });
});

test('migration 0030: channels in use sharing a name keep the oldest one\'s; the later ones get their id appended', async () => {
  const target = await freshDatabase();
  const database = openDatabase(target.url);
  try {
    await migrateTo(database, '0029-channel-management');
    const { db } = database;
    await db.insertInto('affiliates').values([{ id: 'aff-1', name: 'One', created_at: at('01-01') }, { id: 'aff-2', name: 'Two', created_at: at('01-01') }]).execute();
    await db.insertInto('channel_kinds').values({ id: 'site', name: 'Site' }).execute();
    const channel = (id: string, affiliate: string, name: string, created: string, removed: string | null = null) => ({ id, affiliate_id: affiliate, kind_id: 'site', name, created_at: at(created), removed_at: removed });
    await db
      .insertInto('affiliate_channels')
      .values([
        channel('ch-1', 'aff-1', 'Blog', '01-02'),
        channel('ch-3', 'aff-1', 'BLOG', '01-03'),
        channel('ch-2', 'aff-1', 'blog', '01-03'),
        channel('ch-4', 'aff-1', 'Blog', '01-01', at('01-05')),
        channel('ch-5', 'aff-2', 'Blog', '01-04'),
        channel('ch-6', 'aff-1', 'Other', '01-04'),
      ])
      .execute();
    await migrateToLatest(database);
    const names = await db.selectFrom('affiliate_channels').select(['id', 'name']).orderBy('id').execute();
    assert.deepEqual(
      names.map((c) => [c.id, c.name]),
      [
        ['ch-1', 'Blog'],
        ['ch-2', 'blog (ch-2)'],
        ['ch-3', 'BLOG (ch-3)'],
        ['ch-4', 'Blog'],
        ['ch-5', 'Blog'],
        ['ch-6', 'Other'],
      ],
    );
    await assert.rejects(db.insertInto('affiliate_channels').values(channel('ch-7', 'aff-1', 'OTHER', '02-01')).execute());
  } finally {
    await database.close();
    await target.drop();
  }
});
