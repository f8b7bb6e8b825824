// ClicksRepository against a real database: write stores a batch and adds its counted clicks (only
// those) to their links' click_count; batches add up; a batch larger than one statement is stored
// whole, and a batch that fails, even in a later statement, is stored not at all; find answers a
// click as written.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import type { NewClickRow } from '../../src/storage/tables.js';
import { openFixture, saveAcmeWithAffiliate, writeClicks, type StorageFixture } from './fixture.js';

let f: StorageFixture;

before(async () => {
  f = await openFixture();
  await saveAcmeWithAffiliate(f.database);
  for (const id of ['l-a', 'l-b', 'l-big', 'l-fail']) {
    await f.repos.links.insertOrGet(
      {
        id,
        code: `code-${id}`,
        affiliate_id: 'aff-1',
        channel_id: 'ch-site',
        organization_id: 'b-acme',
        link_type: 'BrandPage',
        feature_id: null,
        request_key: `key-${id}`,
        original_url: 'https://acme.example.com/',
        mdasc: null,
      },
      '2026-01-01T00:00:00.000Z',
    );
  }
});

after(async () => {
  await f?.close();
});

const click = (id: string, linkId: string, counted: boolean, extra: Partial<NewClickRow> = {}): NewClickRow => ({
  id,
  link_id: linkId,
  affiliate_id: 'aff-1',
  channel_id: 'ch-site',
  organization_id: 'b-acme',
  created_at: '2026-01-02T00:00:00.000Z',
  is_bot: 0,
  is_head: 0,
  is_repeat: 0,
  is_suspicious: 0,
  is_suspended: 0,
  counted: counted ? 1 : 0,
  visitor_hash: `visitor-${id}`,
  ...extra,
});

const clickCount = async (linkId: string) =>
  (await f.database.db.selectFrom('short_links').select('click_count').where('id', '=', linkId).executeTakeFirstOrThrow()).click_count;

const storedClicks = async (linkId: string) =>
  Number((await f.database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('link_id', '=', linkId).executeTakeFirstOrThrow()).n);

describe('ClicksRepository.write', () => {
  test("stores every click of a batch and adds only the counted ones to their links' counts", async () => {
    await writeClicks(f, [
      click('a1', 'l-a', true),
      click('a2', 'l-a', true),
      click('a3', 'l-a', false, { is_bot: 1 }),
      click('b1', 'l-b', false, { is_repeat: 1 }),
      click('b2', 'l-b', false, { is_suspicious: 1 }),
      click('b3', 'l-b', true),
    ]);
    assert.equal(await storedClicks('l-a'), 3);
    assert.equal(await storedClicks('l-b'), 3);
    assert.equal(await clickCount('l-a'), 2);
    assert.equal(await clickCount('l-b'), 1);
  });

  test('a later batch adds to the counts already there', async () => {
    await writeClicks(f, [click('a4', 'l-a', true), click('a5', 'l-a', false, { is_head: 1 })]);
    assert.equal(await clickCount('l-a'), 3);
    assert.equal(await clickCount('l-b'), 1);
    assert.equal(await storedClicks('l-a'), 5);
  });

  test('an empty batch writes nothing', async () => {
    await writeClicks(f, []);
    assert.equal(await clickCount('l-a'), 3);
    assert.equal(await storedClicks('l-a'), 5);
  });

  test('a batch larger than one statement is stored whole and counted once per click', async () => {
    const batch = Array.from({ length: 1_201 }, (_, i) => click(`big-${i}`, 'l-big', i % 3 !== 0));
    await writeClicks(f, batch);
    assert.equal(await storedClicks('l-big'), 1_201);
    assert.equal(await clickCount('l-big'), batch.filter((c) => c.counted === 1).length);
  });

  test('a batch that fails is stored not at all, even when its first statement went through', async () => {
    // A click without a visitor hash (NOT NULL) fails the second INSERT statement (rows 500 on), after the first one ran.
    const batch = Array.from({ length: 600 }, (_, i) => click(`fail-${i}`, 'l-fail', true));
    batch[550] = click('fail-550', 'l-fail', true, { visitor_hash: null as unknown as string });
    await assert.rejects(f.repos.clicks.write(batch));
    assert.equal(await storedClicks('l-fail'), 0);
    assert.equal(await clickCount('l-fail'), 0);
    assert.equal(await f.repos.clicks.find('fail-0'), undefined);
  });

  test('a batch written again (its commit went through, its answer was lost) stores and counts each click once, and the new ones', async () => {
    const first = [click('again-1', 'l-b', true), click('again-2', 'l-b', true)];
    await writeClicks(f, first);
    const before = await clickCount('l-b');
    // The retry: the same clicks, with the next ones appended (as the click recorder retries).
    await writeClicks(f, [...first, click('again-3', 'l-b', true), click('a1', 'l-b', true)]);
    assert.equal(await clickCount('l-b'), before + 1, 'only again-3 is new: again-1, again-2 and a1 (an older click) are not counted again');
    assert.equal((await f.repos.clicks.find('again-3'))?.link_id, 'l-b');
    assert.equal((await f.repos.clicks.find('a1'))?.link_id, 'l-a', 'the click already stored under that id is untouched');
  });
});

describe('ClicksRepository.find', () => {
  test('answers a click with every column as written, optional ones null when not given', async () => {
    await writeClicks(f, [
      click('full', 'l-b', true, {
        mdasc: 'camp-x',
        user_agent: 'Mozilla/5.0',
        created_at: '2026-01-03T10:00:00.000Z',
        country: 'DE',
        device: 'mobile',
        browser: 'Safari',
        os: 'iOS',
        referer_host: 'news.example',
        asn: 64500,
      }),
    ]);
    assert.deepEqual(await f.repos.clicks.find('full'), {
      id: 'full',
      link_id: 'l-b',
      affiliate_id: 'aff-1',
      channel_id: 'ch-site',
      organization_id: 'b-acme',
      mdasc: 'camp-x',
      created_at: '2026-01-03T10:00:00.000Z',
      is_bot: 0,
      is_head: 0,
      is_repeat: 0,
      is_suspicious: 0,
      is_suspended: 0,
      counted: 1,
      visitor_hash: 'visitor-full',
      user_agent: 'Mozilla/5.0',
      country: 'DE',
      device: 'mobile',
      browser: 'Safari',
      os: 'iOS',
      referer_host: 'news.example',
      asn: 64500,
      sub_ids: null,
    });
    await writeClicks(f, [click('subbed', 'l-b', true, { sub_ids: '{"sub1":"adset-7","sub2":"creative 3"}' })]);
    assert.equal((await f.repos.clicks.find('subbed'))?.sub_ids, '{"sub1":"adset-7","sub2":"creative 3"}', "a tracker's sub-ids are stored as given");
    const bot = await f.repos.clicks.find('a3');
    assert.equal(bot?.is_bot, 1);
    assert.equal(bot?.counted, 0);
    assert.equal(bot?.mdasc, null);
    assert.equal(bot?.user_agent, null);
    assert.equal(bot?.country, null);
    assert.equal(bot?.asn, null);
    assert.equal(await f.repos.clicks.find('missing'), undefined);
  });
});

describe('ClicksRepository.write: text as given', () => {
  test('quotes, backslashes, commas, braces, NULL as a word and non-ASCII are stored exactly', async () => {
    const agent = 'Mozilla/5.0 "quoted" \\back\\slash, {braced} NULL ção 🙂';
    await writeClicks(f, [click('odd-text', 'l-b', true, { user_agent: agent, referer_host: 'NULL', browser: '' })]);
    const stored = await f.repos.clicks.find('odd-text');
    assert.equal(stored?.user_agent, agent);
    assert.equal(stored?.referer_host, 'NULL', 'the word, not a missing value');
    assert.equal(stored?.browser, '');
    assert.equal(stored?.mdasc, null);
  });
});

describe('ClicksRepository.pruneOlderThan', () => {
  const idAt = (iso: string, n: number) => Date.parse(iso).toString(16).padStart(12, '0') + n.toString(16).padStart(20, '0');
  const bound = (iso: string) => Date.parse(iso);
  const prunedLink = 'l-prune';
  const stored = async () => (await f.database.db.selectFrom('clicks').select('id').where('link_id', '=', prunedLink).orderBy('id').execute()).map((r) => r.id);
  /** Marks every stored click as added to its link's count and to the rollups (as the SQLite writer does). */
  const countedUpToNow = async () => {
    if (f.database.dialect !== 'sqlite') return;
    const { rows } = await sql<{ last: number }>`select max(rowid) as last from clicks`.execute(f.database.db);
    await f.database.db.updateTable('click_count_progress').set({ last_counted_rowid: rows[0]!.last }).execute();
    await f.database.db.updateTable('rollup_progress').set({ last_rolled_rowid: rows[0]!.last }).execute();
  };

  before(async () => {
    await f.repos.links.insertOrGet(
      { id: prunedLink, code: 'code-l-prune', affiliate_id: 'aff-1', channel_id: 'ch-site', organization_id: 'b-acme', link_type: 'BrandPage', feature_id: null, request_key: 'key-l-prune', original_url: 'https://acme.example.com/', mdasc: null },
      '2026-01-01T00:00:00.000Z',
    );
  });

  test('deletes the clicks older than the bound, oldest first and at most `limit` at a time, never a newer one', async () => {
    const old = [1, 2, 3].map((n) => idAt('2026-01-01T00:00:00.000Z', n));
    const recent = [4, 5].map((n) => idAt('2026-03-01T00:00:00.000Z', n));
    await writeClicks(f, [...old, ...recent].map((id) => click(id, prunedLink, true)));
    await countedUpToNow();
    assert.equal(await f.repos.clicks.pruneOlderThan(bound('2026-02-01T00:00:00.000Z'), 2), 2);
    assert.deepEqual(await stored(), [old[2], ...recent]);
    assert.equal(await f.repos.clicks.pruneOlderThan(bound('2026-02-01T00:00:00.000Z'), 2), 1);
    assert.equal(await f.repos.clicks.pruneOlderThan(bound('2026-02-01T00:00:00.000Z'), 2), 0);
    assert.deepEqual(await stored(), recent);
    assert.equal(await clickCount(prunedLink), 5, "the link's count keeps the deleted clicks");
  });

  test('on SQLite, clicks not yet counted stay, and so does the newest row, so rowids never go back', async (t) => {
    if (f.database.dialect !== 'sqlite') return t.diagnostic('not applicable: PostgreSQL keeps the clicks not yet counted by id (tested below), without rowids');
    const before = await stored();
    const ids = [1, 2, 3].map((n) => idAt('2026-01-05T00:00:00.000Z', n));
    await writeClicks(f, ids.map((id) => click(id, prunedLink, true)));
    assert.equal(await f.repos.clicks.pruneOlderThan(bound('2026-01-10T00:00:00.000Z'), 100), 0, 'none is counted yet: none goes');
    await countedUpToNow();
    assert.equal(await f.repos.clicks.pruneOlderThan(bound('2026-01-10T00:00:00.000Z'), 100), 2, 'all three are old, but the newest row stays');
    assert.deepEqual(await stored(), [ids[2], ...before]);
    const { rows } = await sql<{ counted: number }>`select last_counted_rowid as counted from click_count_progress`.execute(f.database.db);
    await writeClicks(f, [click(idAt('2026-01-06T00:00:00.000Z', 9), prunedLink, true)]);
    const { rows: next } = await sql<{ rowid: number }>`select rowid from clicks where id = ${idAt('2026-01-06T00:00:00.000Z', 9)}`.execute(f.database.db);
    assert.ok(next[0]!.rowid > rows[0]!.counted, 'a new click gets a rowid past the counted ones, so it will be counted');
  });
});

describe('PostgreSQL: clicks added to their links\' counts and the rollups after they are stored', () => {
  const idAt = (iso: string, n: number) => Date.parse(iso).toString(16).padStart(12, '0') + n.toString(16).padStart(20, '0');
  const linkOf = async (id: string) => {
    await f.repos.links.insertOrGet(
      { id, code: `code-${id}`, affiliate_id: 'aff-1', channel_id: 'ch-site', organization_id: 'b-acme', link_type: 'BrandPage', feature_id: null, request_key: `key-${id}`, original_url: 'https://acme.example.com/', mdasc: null },
      '2026-01-01T00:00:00.000Z',
    );
    return id;
  };

  test('a stored click waits until a step takes it; steps take the oldest first, each click once', async (t) => {
    if (f.database.dialect !== 'postgres') return t.diagnostic('not applicable: SQLite follows rowids (rollup_progress)');
    const link = await linkOf('l-steps');
    const ids = [5, 1, 4, 2, 3].map((n) => idAt('2026-02-01T00:00:00.000Z', n));
    await f.repos.clicks.write(ids.map((id, i) => click(id, link, i !== 0)));
    assert.equal(await storedClicks(link), 5);
    assert.equal(await clickCount(link), 0, 'stored, not counted yet');
    assert.equal(await f.repos.clicks.notYetSummed(), 5);
    assert.equal(await f.repos.clicks.rollUpStored(2), 2);
    assert.equal(await clickCount(link), 2, 'the two oldest (1 and 2, both counted)');
    assert.equal(await f.repos.clicks.rollUpStored(10), 3);
    assert.equal(await clickCount(link), 4, 'the uncounted one (5) adds nothing');
    assert.equal(await f.repos.clicks.rollUpStored(10), 0);
    assert.equal(await f.repos.clicks.notYetSummed(), 0);
  });

  test('steps running at once (several instances) neither miss nor double a click', async (t) => {
    if (f.database.dialect !== 'postgres') return t.diagnostic('not applicable: SQLite has one writer');
    const link = await linkOf('l-concurrent');
    await f.repos.clicks.write(Array.from({ length: 250 }, (_, i) => click(idAt('2026-02-02T00:00:00.000Z', i), link, true)));
    const taken = await Promise.all([1, 2, 3, 4].map(() => f.repos.clicks.rollUpStored(40)));
    let total = taken.reduce((a, b) => a + b, 0);
    while (total < 250) {
      const more = await f.repos.clicks.rollUpStored(1000);
      assert.ok(more > 0, `${250 - total} click(s) were never taken`);
      total += more;
    }
    assert.equal(total, 250);
    assert.equal(await clickCount(link), 250);
  });

  test('retention keeps a month whose clicks are not all added yet, and drops it once they are', async (t) => {
    if (f.database.dialect !== 'postgres') return t.diagnostic('not applicable: SQLite keeps clicks in one table');
    const link = await linkOf('l-retained');
    const ids = [1, 2].map((n) => idAt('2025-03-10T00:00:00.000Z', n));
    await f.repos.clicks.write(ids.map((id) => click(id, link, true)));
    await f.repos.clicks.prepareMonths(Date.parse('2025-03-20T00:00:00.000Z'), 0);
    assert.equal(await f.repos.clicks.dropMonthsEndedBy(Date.parse('2025-04-01T00:00:00.000Z')), 0, 'March waits for its clicks to be counted');
    assert.equal(await storedClicks(link), 2);
    await f.repos.clicks.sumAllStored();
    assert.equal(await f.repos.clicks.dropMonthsEndedBy(Date.parse('2025-04-01T00:00:00.000Z')), 2);
    assert.equal(await clickCount(link), 2, 'counted before they went');
  });
});

describe('PostgreSQL: clicks partitioned by month', () => {
  const idAt = (iso: string, n: number) => Date.parse(iso).toString(16).padStart(12, '0') + n.toString(16).padStart(20, '0');
  const partitionOf = async (id: string) => {
    const { rows } = await sql<{ partition: string }>`select tableoid::regclass::text as partition from clicks where id = ${id}`.execute(f.database.db);
    return rows[0]?.partition;
  };

  test('months get partitions ahead; a month made late takes its clicks from the default partition; a month past retention is dropped whole', async (t) => {
    if (f.database.dialect !== 'postgres') return t.diagnostic('not applicable: SQLite keeps clicks in one table');
    const thisMonth = new Date();
    const expected = [0, 1, 2, 3].map((i) => `clicks_p${new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() + i, 1)).toISOString().slice(0, 7).replace('-', '')}`);
    for (const name of expected) assert.ok(await f.database.db.selectFrom(sql<{ n: number }>`(select to_regclass(${name}) as n)`.as('r')).selectAll().executeTakeFirst(), name);

    const early = [1, 2, 3].map((n) => idAt('2025-07-10T00:00:00.000Z', n));
    await writeClicks(f, early.map((id) => click(id, 'l-a', true)));
    assert.equal(await partitionOf(early[0]!), 'clicks_default', 'no partition for July 2025 yet');
    await f.repos.clicks.prepareMonths(Date.parse('2025-07-20T00:00:00.000Z'), 0);
    for (const id of early) assert.equal(await partitionOf(id), 'clicks_p202507', 'moved into the month made for them');
    const countBefore = await clickCount('l-a');

    assert.equal(await f.repos.clicks.dropMonthsEndedBy(Date.parse('2025-07-31T00:00:00.000Z')), 0, 'July has not ended by the 31st');
    assert.equal(await f.repos.clicks.dropMonthsEndedBy(Date.parse('2025-08-01T00:00:00.000Z')), 3, 'July dropped whole: its three clicks');
    for (const id of early) assert.equal(await f.repos.clicks.find(id), undefined);
    assert.equal(await clickCount('l-a'), countBefore, "the link's count keeps them");
  });

  test('a drop waits at most two seconds behind a long reader of clicks, and happens at the next prune', async (t) => {
    if (f.database.dialect !== 'postgres') return t.diagnostic('not applicable: SQLite keeps clicks in one table');
    const ids = [1, 2].map((n) => idAt('2025-05-10T00:00:00.000Z', n));
    await writeClicks(f, ids.map((id) => click(id, 'l-a', true)));
    await f.repos.clicks.prepareMonths(Date.parse('2025-05-20T00:00:00.000Z'), 0);
    const reader = new pg.Client({ connectionString: f.database.postgresUrl });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from clicks'); // a report (or pg_dump) reading clicks, still open
      const started = performance.now();
      assert.equal(await f.repos.clicks.dropMonthsEndedBy(Date.parse('2025-06-01T00:00:00.000Z')), 0, 'not dropped while the reader holds clicks');
      assert.ok(performance.now() - started < 5_000, 'gave up after the lock timeout');
      await reader.query('commit');
    } finally {
      await reader.end();
    }
    assert.equal(await f.repos.clicks.dropMonthsEndedBy(Date.parse('2025-06-01T00:00:00.000Z')), 2, 'dropped at the next prune');
  });
});
