import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

describe('GET /affiliate/brands', () => {
  test('lists public brands and the private brands the caller is approved for, by name', async () => {
    const res = await h.get('/affiliate/brands', h.world.keys.aff1);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(
      body.data.map((b: { name: string }) => b.name),
      ['Acme', 'Globex', 'Hooli', 'Umbrella'],
    );
    assert.deepEqual(body.pagination, { total: 4, page: 1, limit: 20, totalPages: 1 });
  });
});
