// The links shown on a page of brands or campaigns are read through an index that holds the
// resource, on a SQLite database without planner statistics, as a new database is served until
// its tables are first analyzed (a minute after the start, src/storage/sqlite-statistics.ts).
// Ordered by date alone, the planner preferred the affiliate's newest-first index of links by
// type, to skip a sort, and walked every link of the type for each page: 42 ms a page of brands
// at 100k links. The statements are the generated ones (src/storage/queries), planned with
// a page's 20 resources.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';

const GENERATED = new URL('../../src/storage/queries/sqlite/links.sql', import.meta.url);

/** The generated statement named `name`, with its resource list widened to `count` values. */
function statement(name: string, column: string, count: number): { text: string; parameters: unknown[] } {
  const section = readFileSync(GENERATED, 'utf8').split('\n\n-- ').find((part) => part.startsWith(`${name}\n`));
  assert.ok(section, `${name} is among the generated statements`);
  const [, body, parameters] = /^[^\n]*\n([\s\S]*?);\n-- parameters: (.*)$/m.exec(section)!;
  const one = `"${column}" in (?)`;
  assert.ok(body!.includes(one), `${name} asks for ${one}`);
  const values = JSON.parse(parameters!) as unknown[];
  const widened = Array.from({ length: count }, (_, i) => `${column}-${i}`);
  return { text: body!.replace(one, `"${column}" in (${widened.map(() => '?').join(', ')})`), parameters: [...values.slice(0, -1), ...widened] };
}

let dir: string;
let database: Database;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'affnet-plan-'));
  database = openDatabase(`sqlite:${join(dir, 'plan.sqlite')}`);
  await migrateToLatest(database);
});
after(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const [name, column] of [
  ['links.forResources (brands)', 'organization_id'],
  ['links.forResources (campaigns)', 'feature_id'],
] as const) {
  test(`${name}: searched by the index holding ${column}, without statistics`, async () => {
    const { text, parameters } = statement(name, column, 20);
    const plan = (await database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, parameters))).rows.map((row) => row.detail);
    const search = plan.find((step) => step.includes('short_links'));
    assert.match(search ?? '', new RegExp(`^SEARCH short_links USING INDEX \\w+ \\(affiliate_id=\\?.*\\b${column}=\\?`), plan.join('\n'));
    assert.ok(!plan.some((step) => step.includes('short_links_type_newest_idx')), plan.join('\n'));
  });
}
