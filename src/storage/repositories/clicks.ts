import type { Database } from '../database.js';
import type { ClickRow, NewClickRow } from '../tables.js';

// Rows per INSERT statement: 14 columns × 500 stays far below SQLite's bound-parameter limit.
const CHUNK = 500;

/**
 * Appends a batch of clicks and adds the counted ones to their links' totals, in one
 * transaction: the batch is stored whole or not at all.
 */
export async function writeClicks(database: Database, clicks: NewClickRow[]): Promise<void> {
  if (clicks.length === 0) return;
  const counts = new Map<string, number>();
  for (const click of clicks) if (click.counted) counts.set(click.link_id, (counts.get(click.link_id) ?? 0) + 1);
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < clicks.length; i += CHUNK) {
      await trx.insertInto('clicks').values(clicks.slice(i, i + CHUNK)).execute();
    }
    for (const [linkId, n] of counts) {
      await trx
        .updateTable('short_links')
        .set((eb) => ({ click_count: eb('click_count', '+', n) }))
        .where('id', '=', linkId)
        .execute();
    }
  });
}

export async function findClick(database: Database, id: string): Promise<ClickRow | undefined> {
  return database.db.selectFrom('clicks').selectAll().where('id', '=', id).executeTakeFirst();
}
