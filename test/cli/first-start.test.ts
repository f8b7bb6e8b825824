// The first start on the embedded database, as a new user meets it: demo data, an API key, and the
// demo users' password printed once; both users sign in with it and see their side. A second start
// prints neither again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../helpers/processes.js';

test('the first start prints a demo key and the demo users’ password; both users sign in and see their side', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'affnet-first-start-'));
  const env = { DATABASE_URL: '', REDIS_URL: '', PUBLIC_URL: 'http://127.0.0.1' };
  try {
    const first = await startServerProcess(env, { cwd: dir });
    let output: string;
    try {
      output = first.output();
      const key = /Demo API key for aff-demo-1 \(shown once\):\n(\S+)/.exec(output)?.[1];
      assert.ok(key, output);
      assert.equal((await fetch(`${first.url}/affiliate/brands`, { headers: { 'x-api-key': key } })).status, 200);
      assert.match(output, /Portal: http:\/\/127\.0\.0\.1\/app\nSign in as demo@aff-demo-1\.example or demo@brand\.example with the password \(shown once\):\n/);
      const password = /with the password \(shown once\):\n(\S+)/.exec(output)![1]!;

      const signIn = async (email: string) => {
        const res = await fetch(`${first.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
        assert.equal(res.status, 200, await res.clone().text());
        return res.headers.get('set-cookie')!.split(';')[0]!;
      };
      const affiliate = await signIn('demo@aff-demo-1.example');
      const orders = await fetch(`${first.url}/affiliate/orders`, { headers: { cookie: affiliate } });
      assert.equal(orders.status, 200);
      assert.ok(((await orders.json()) as unknown[]).length > 0, 'the demo affiliate has orders');
      const brand = await signIn('demo@brand.example');
      const conversions = await fetch(`${first.url}/advertiser/conversions`, { headers: { cookie: brand } });
      assert.equal(conversions.status, 200);
      assert.ok(((await conversions.json()) as { data: unknown[] }).data.length > 0, 'the demo brand has conversions');
    } finally {
      assert.equal(await first.stop(), 0);
    }

    const second = await startServerProcess(env, { cwd: dir });
    try {
      assert.doesNotMatch(second.output(), /shown once/);
    } finally {
      await second.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
