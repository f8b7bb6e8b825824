// PostbackTokensRepository against a real database: replace makes the new token the brand's only
// active one (the previous one revoked at the new one's creation time and pointing to it), answers
// the replaced prefix, leaves other brands alone, and still leaves exactly one active token when
// rotations run at the same time; findActive resolves active tokens only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hashKey } from '../../src/domain/access/access-service.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

const token = (id: string, brandId: string, createdAt: string) => ({
  id,
  brand_id: brandId,
  token_hash: hashKey(`secret-${id}`),
  token_prefix: `afp_${id}`,
  created_at: createdAt,
});

const at = (day: string) => `2026-${day}T00:00:00.000Z`;

before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  for (const id of ['b-acme', 'b-globex', 'b-race']) await services.imports.upsertBrand(brandInput({ id, name: id, slug: id, site: `https://${id}.example.com` }));
});

after(async () => {
  await f?.close();
});

const activeOf = (brandId: string) => f.database.db.selectFrom('postback_tokens').selectAll().where('brand_id', '=', brandId).where('revoked_at', 'is', null).execute();

describe('PostbackTokensRepository', () => {
  test("a brand's first token replaces nothing and is found active", async () => {
    assert.deepEqual(await f.repos.postbackTokens.replace(token('t1', 'b-acme', at('01-01'))), { replaced: null });
    assert.deepEqual(await f.repos.postbackTokens.findActive(hashKey('secret-t1')), { ...token('t1', 'b-acme', at('01-01')), revoked_at: null, replaced_by: null, suspended_at: null });
    assert.deepEqual(await f.repos.postbackTokens.replace(token('g1', 'b-globex', at('01-01'))), { replaced: null });
  });

  test('a new token revokes the active one, which names its replacement; the other brand keeps its own', async () => {
    assert.deepEqual(await f.repos.postbackTokens.replace(token('t2', 'b-acme', at('02-01'))), { replaced: 'afp_t1' });
    assert.equal(await f.repos.postbackTokens.findActive(hashKey('secret-t1')), undefined);
    assert.equal((await f.repos.postbackTokens.findActive(hashKey('secret-t2')))?.id, 't2');
    const old = await f.database.db.selectFrom('postback_tokens').selectAll().where('id', '=', 't1').executeTakeFirstOrThrow();
    assert.deepEqual([old.revoked_at, old.replaced_by], [at('02-01'), 't2']);
    assert.deepEqual((await activeOf('b-acme')).map((t) => t.id), ['t2']);
    assert.deepEqual((await activeOf('b-globex')).map((t) => t.id), ['g1']);
  });

  test('each rotation leaves exactly one active token, and a revoked one stays revoked at its first time', async () => {
    assert.deepEqual(await f.repos.postbackTokens.replace(token('t3', 'b-acme', at('03-01'))), { replaced: 'afp_t2' });
    const rows = await f.database.db.selectFrom('postback_tokens').select(['id', 'revoked_at', 'replaced_by']).where('brand_id', '=', 'b-acme').orderBy('id').execute();
    assert.deepEqual(rows, [
      { id: 't1', revoked_at: at('02-01'), replaced_by: 't2' },
      { id: 't2', revoked_at: at('03-01'), replaced_by: 't3' },
      { id: 't3', revoked_at: null, replaced_by: null },
    ]);
  });

  test('rotations at the same time all succeed and still leave exactly one active token', async () => {
    // Repeated: on PostgreSQL the two transactions only sometimes overlap enough to collide.
    let previous = 'none';
    for (let round = 0; round < 10; round++) {
      const ids = [`r${round}a`, `r${round}b`];
      const outcomes = await Promise.all(ids.map((id) => f.repos.postbackTokens.replace(token(id, 'b-race', `2026-02-01T00:00:${String(round).padStart(2, '0')}.000Z`))));
      const active = await activeOf('b-race');
      assert.equal(active.length, 1, `round ${round}`);
      const winner = active[0]!.id;
      assert.ok(ids.includes(winner), `round ${round}`);
      // The first to commit replaced the previous round's token, the other replaced the first.
      const loser = ids.find((id) => id !== winner)!;
      assert.deepEqual(outcomes.map((o) => o.replaced).sort(), [previous === 'none' ? null : `afp_${previous}`, `afp_${loser}`].sort(), `round ${round}`);
      previous = winner;
    }
    const all = await f.database.db.selectFrom('postback_tokens').select('id').where('brand_id', '=', 'b-race').execute();
    assert.equal(all.length, 20);
  });

  test('findActive answers nothing for an unknown hash', async () => {
    assert.equal(await f.repos.postbackTokens.findActive(hashKey('never-issued')), undefined);
  });
});
