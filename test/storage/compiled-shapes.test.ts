// Queries compiled once per shape (src/storage/repositories/compiled-shapes.ts), on a real
// database: each call answers with its own values, a filter given or a list of another length is
// another shape, and a query that would keep the first call's value in its text is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { CompiledShapes, type QueryValues } from '../../src/storage/repositories/compiled-shapes.js';
import { rowsOf } from '../../src/storage/repositories/pages.js';
import { openFixture, saveBrand, type StorageFixture } from './fixture.js';

let f: StorageFixture;
before(async () => {
  f = await openFixture();
  for (const [id, isPublic] of [['b-1', true], ['b-2', true], ['b-3', false], ['b-4', true]] as const) await saveBrand(f.database, id, isPublic);
});
after(() => f.close());

interface BrandValues extends QueryValues {
  ids?: string[];
  isPublic?: number;
  limit: number;
}

function brandIds(shapes: CompiledShapes, values: BrandValues): Promise<string[]> {
  const query = shapes.compiled('brands', values, (v) => {
    let q = f.database.db.selectFrom('brands').select('id');
    if (v.ids) q = q.where('id', 'in', v.ids);
    if (v.isPublic !== undefined) q = q.where('is_public', '=', v.isPublic);
    return q.orderBy('id').limit(v.limit);
  });
  return rowsOf(f.database, query).then((rows) => rows.map((row) => row.id));
}

test('calls of one shape answer with their own values', async () => {
  const shapes = new CompiledShapes();
  assert.deepEqual(await brandIds(shapes, { ids: ['b-1', 'b-3'], limit: 10 }), ['b-1', 'b-3']);
  assert.deepEqual(await brandIds(shapes, { ids: ['b-2', 'b-4'], limit: 10 }), ['b-2', 'b-4']);
  assert.deepEqual(await brandIds(shapes, { ids: ['b-2', 'b-4'], limit: 1 }), ['b-2']);
});

test('a filter given, or a list of another length, is a shape of its own', async () => {
  const shapes = new CompiledShapes();
  assert.deepEqual(await brandIds(shapes, { limit: 10 }), ['b-1', 'b-2', 'b-3', 'b-4']);
  assert.deepEqual(await brandIds(shapes, { isPublic: 0, limit: 10 }), ['b-3']);
  assert.deepEqual(await brandIds(shapes, { ids: ['b-4'], limit: 10 }), ['b-4']);
  assert.deepEqual(await brandIds(shapes, { ids: ['b-1', 'b-2', 'b-3'], isPublic: 1, limit: 10 }), ['b-1', 'b-2']);
  assert.deepEqual(await brandIds(shapes, { isPublic: undefined, limit: 10 }), ['b-1', 'b-2', 'b-3', 'b-4'], 'a value given as undefined is a filter not given');
});

test('a query that writes a value into its text, or drops it, is refused', () => {
  const shapes = new CompiledShapes();
  assert.throws(
    () => shapes.compiled('inlined', { id: 'b-1' }, (v) => f.database.db.selectFrom('brands').select('id').where('id', '=', sql.lit(v.id))),
    /query inlined: values not passed as parameters: id/,
  );
  assert.throws(
    () => shapes.compiled('dropped', { id: 'b-1', name: 'x' }, (v) => f.database.db.selectFrom('brands').select('id').where('id', '=', v.id)),
    /query dropped: values not passed as parameters: name/,
  );
});
