// The link script of an affiliate's site channels: each channel's public link key (replaced,
// found by its value), the sites it is allowed on, and the links it made.
import type { Database } from '../database.js';
import type { AutoLinkRow, LinkKeyRow, ShortLinkRow } from '../tables.js';
import { retriedOnUniqueRace } from '../../lib/unique-violation.js';

/** What an active link key resolves to: its channel, and what the script's rules read of it. */
export interface LinkKeyOwner {
  affiliate_id: string;
  channel_id: string;
  channel_kind: string;
  /** The channel's address; null when it has none. */
  channel_site: string | null;
  /** When the network suspended the affiliate; null while it is active. */
  suspended_at: string | null;
}

/** A link the script made, with the short link's own columns. */
export type MadeLink = Pick<ShortLinkRow, 'code' | 'original_url' | 'organization_id' | 'click_count' | 'active'> & Pick<AutoLinkRow, 'page_url' | 'created_at'>;

export class LinkKeysRepository {
  constructor(private readonly database: Database) {}

  /** Makes `key` the channel's only active link key, revoking the one it had, in one transaction. */
  async replaceKey(key: Omit<LinkKeyRow, 'revoked_at' | 'replaced_by'>): Promise<void> {
    await retriedOnUniqueRace(() =>
      this.database.db.transaction().execute(async (trx) => {
        await trx.updateTable('link_keys').set({ revoked_at: key.created_at, replaced_by: key.id }).where('channel_id', '=', key.channel_id).where('revoked_at', 'is', null).execute();
        await trx.insertInto('link_keys').values({ ...key, revoked_at: null, replaced_by: null }).execute();
      }),
    );
  }

  /** The channel's active link key, if it has one. */
  async activeKeyOf(channelId: string): Promise<string | undefined> {
    const row = await this.database.db.selectFrom('link_keys').select('key').where('channel_id', '=', channelId).where('revoked_at', 'is', null).executeTakeFirst();
    return row?.key;
  }

  /** The channel in use an active link key belongs to (a removed channel's key works no more). */
  ownerOf(key: string): Promise<LinkKeyOwner | undefined> {
    return this.database.db
      .selectFrom('link_keys as k')
      .innerJoin('affiliate_channels as c', 'c.id', 'k.channel_id')
      .innerJoin('affiliates as a', 'a.id', 'k.affiliate_id')
      .select(['k.affiliate_id', 'k.channel_id', 'c.kind_id as channel_kind', 'c.site as channel_site', 'a.suspended_at'])
      .where('k.key', '=', key)
      .where('k.revoked_at', 'is', null)
      .where('c.removed_at', 'is', null)
      .executeTakeFirst();
  }

  /** The sites the channel's script is allowed on, in the order they were added. */
  async sitesOf(channelId: string): Promise<string[]> {
    const rows = await this.database.db.selectFrom('link_script_sites').select('origin').where('channel_id', '=', channelId).orderBy('created_at').orderBy('origin').execute();
    return rows.map((r) => r.origin);
  }

  /** Makes `origins` the channel's sites: the ones it keeps keep their place, new ones come last. */
  async setSites(channelId: string, origins: readonly string[], now: string): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      let gone = trx.deleteFrom('link_script_sites').where('channel_id', '=', channelId);
      if (origins.length > 0) gone = gone.where('origin', 'not in', [...origins]);
      await gone.execute();
      if (origins.length === 0) return;
      await trx
        .insertInto('link_script_sites')
        .values(origins.map((origin) => ({ channel_id: channelId, origin, created_at: now })))
        .onConflict((oc) => oc.columns(['channel_id', 'origin']).doNothing())
        .execute();
    });
  }

  /** Notes that the script made (or first asked for) the link, from `page_url`; a link noted already keeps its first note. */
  async noteMade(row: AutoLinkRow): Promise<void> {
    await this.database.db.insertInto('auto_links').values(row).onConflict((oc) => oc.column('link_id').doNothing()).execute();
  }

  /** The links the channel's script made, newest first. */
  latestMade(channelId: string, limit: number): Promise<MadeLink[]> {
    return this.database.db
      .selectFrom('auto_links as m')
      .innerJoin('short_links as l', 'l.id', 'm.link_id')
      .select(['l.code', 'l.original_url', 'l.organization_id', 'l.click_count', 'l.active', 'm.page_url', 'm.created_at'])
      .where('m.channel_id', '=', channelId)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.link_id', 'desc')
      .limit(limit)
      .execute();
  }
}
