// The migration that lets people see their sessions keeps the sessions open before it: each gets an
// id of its own (never derived from its token) and nothing else it cannot know (device, country,
// address, device hash stay empty); the session goes on working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrate.js';
import { freshDatabase, servicesFor } from '../helpers/databases.js';
import { hashKey } from '../../src/domain/access/access-service.js';

test('sessions open before the migration get ids of their own and go on working', async () => {
  const target = await freshDatabase();
  const database = openDatabase(target.url);
  try {
    await migrateTo(database, '0038-user-language');
    const now = new Date().toISOString();
    await database.db.insertInto('users').values({ id: 'usr_1', email: 'ana@example.com', affiliate_id: 'aff-1', brand_id: null, role: 'owner', password_hash: 'scrypt$…', created_at: now, updated_at: now } as never).execute();
    const tokens = ['token-one-token-one-token-one-token-one-tok', 'token-two-token-two-token-two-token-two-tok'];
    for (const token of tokens) {
      await database.db.insertInto('sessions').values({ token_hash: hashKey(token), user_id: 'usr_1', csrf_token: 'c', created_at: now, last_seen_at: now, revoked_at: null }).execute();
    }
    await migrateToLatest(database);
    const rows = await database.db.selectFrom('sessions').select(['id', 'token_hash', 'device', 'country', 'address', 'device_hash']).orderBy('id').execute();
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.match(row.id ?? '', /^ses_[0-9A-Za-z]{16}$/);
      assert.ok(!row.token_hash.includes(row.id!.slice(4)), 'the id is not taken from the token');
      assert.deepEqual([row.device, row.country, row.address, row.device_hash], [null, null, null, null]);
    }
    assert.notEqual(rows[0]!.id, rows[1]!.id);
    const session = await servicesFor(database).users.resolveSession(tokens[0]!);
    assert.ok(session, 'the session still works');
    assert.ok(rows.some((row) => row.id === session.id));
    const listed = await servicesFor(database).users.sessionsOf(session);
    assert.deepEqual(
      listed.map((s) => [s.device, s.country, s.current]).sort(),
      [
        ['Unknown device', 'ZZ', false],
        ['Unknown device', 'ZZ', true],
      ],
    );
  } finally {
    await database.close();
    await target.drop();
  }
});
