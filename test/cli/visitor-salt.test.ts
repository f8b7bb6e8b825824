// The visitor hash is salted per installation: a random salt made at the first start and kept in
// the database (so every instance and every restart hash alike), replaced by
// `affnet visitor-salt rotate`, and overridden by VISITOR_SALT when it is set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createService } from '../../src/server.js';
import { injector } from '../helpers/inject.js';
import { runCli } from '../helpers/cli.js';
import { BRANDS } from '../helpers/world.js';
import { newKey } from '../helpers/api.js';
import { createLink, clickAs, BROWSER_UA } from '../helpers/tracking.js';
import { pollUntil } from '../helpers/wait.js';
import { visitorHash } from '../../src/domain/links/click-filter.js';

const ADDRESS = '203.0.113.77';
let h: Harness;
let code: string;

before(async () => {
  h = await startHarness();
  const key = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  code = (await createLink(h, key, BRANDS.acme)).code;
});
after(async () => {
  await h.close();
});

const storedSalt = async () => (await h.service.database.db.selectFrom('settings').select('value').where('name', '=', 'visitor_salt').executeTakeFirst())?.value;

/** The visitor hash the click with this id was stored with. */
async function hashOf(clickId: string): Promise<string | undefined> {
  const row = await pollUntil(
    () => h.service.database.db.selectFrom('clicks').select('visitor_hash').where('id', '=', clickId).executeTakeFirst(),
    (r) => r !== undefined,
    { timeoutMs: 10_000 },
  );
  return row?.visitor_hash;
}

test('a random salt is made at the first start, kept, and hashes every click; not the old constant', async () => {
  const salt = await storedSalt();
  assert.ok(salt && salt.length >= 40, `a long random salt is stored: ${salt}`);
  const clickId = await clickAs(h, code, { ip: ADDRESS, userAgent: BROWSER_UA });
  const hash = await hashOf(clickId);
  assert.equal(hash, visitorHash(salt, ADDRESS, BROWSER_UA));
  assert.notEqual(hash, visitorHash('affnet-visitor', ADDRESS, BROWSER_UA));
});

test('another instance on the same database hashes alike; after a rotation, a restarted one hashes anew', async () => {
  const before = await storedSalt();
  const other = await createService(h.config);
  try {
    const clickId = new URL(String((await injector(other)({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA }, remoteAddress: ADDRESS })).headers.location)).searchParams.get('clickId')!;
    await other.services.tracking.flushClicks();
    assert.equal(await hashOf(clickId), visitorHash(before!, ADDRESS, BROWSER_UA));
  } finally {
    await other.close();
  }

  const rotated = await runCli(['visitor-salt', 'rotate'], { DATABASE_URL: h.config.databaseUrl });
  assert.equal(rotated.code, 0, rotated.stderr);
  assert.match(rotated.stdout, /Visitor salt replaced/);
  const after = await storedSalt();
  assert.ok(after && after !== before, 'the salt changed');

  const restarted = await createService(h.config);
  try {
    const res = await injector(restarted)({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA }, remoteAddress: ADDRESS });
    const clickId = new URL(String(res.headers.location)).searchParams.get('clickId')!;
    await restarted.services.tracking.flushClicks();
    assert.equal(await hashOf(clickId), visitorHash(after, ADDRESS, BROWSER_UA));
  } finally {
    await restarted.close();
  }
});

test('VISITOR_SALT, when set, is used instead, and no salt is made', async () => {
  const own = await startHarness({ VISITOR_SALT: 'operator-chosen-secret' });
  try {
    const key = (await newKey(own, 'aff-1', { rateLimit: 100_000 })).key;
    const link = (await createLink(own, key, BRANDS.acme)).code;
    const clickId = await clickAs(own, link, { ip: ADDRESS, userAgent: BROWSER_UA });
    const row = await pollUntil(
      () => own.service.database.db.selectFrom('clicks').select('visitor_hash').where('id', '=', clickId).executeTakeFirst(),
      (r) => r !== undefined,
      { timeoutMs: 10_000 },
    );
    assert.equal(row?.visitor_hash, visitorHash('operator-chosen-secret', ADDRESS, BROWSER_UA));
    assert.equal(await own.service.database.db.selectFrom('settings').selectAll().where('name', '=', 'visitor_salt').executeTakeFirst(), undefined, 'no salt is made');
  } finally {
    await own.close();
  }
});
