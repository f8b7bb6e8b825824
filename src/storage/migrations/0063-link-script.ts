// Links made automatically on an affiliate's own site (GET /links.js, POST /links/auto).
// - affiliate_channels.site: the channel's address (its site, or its profile on a network), the
//   promotional space brands see. A site channel's script is allowed only on sites of its domain.
//   The channel made from a sign-up takes the address the person gave.
// - link_keys: a site channel's public link key, for the link script only. It sits in the
//   affiliate's pages, so it is kept as it is, to be shown again in the snippet. A channel has at
//   most one active key; replacing it marks the old one revoked and names its successor.
// - link_script_sites: the sites (origins) the channel's script is allowed on; they belong to the
//   channel, not to a key, so replacing the key keeps them.
// - auto_links: which of the affiliate's short links the script made, and from which page first:
//   the links themselves are ordinary Custom links of the channel (short_links).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect);
  await db.schema.alterTable('affiliate_channels').addColumn('site', TEXT).execute();
  await sql`update affiliate_channels set site = (
      select a.website from applications a
      where a.kind = 'affiliate' and a.affiliate_id = affiliate_channels.affiliate_id and a.decided_at = affiliate_channels.created_at
    )
    where site is null`.execute(db);

  await db.schema
    .createTable('link_keys')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('affiliate_id', TEXT, (c) => c.notNull().references('affiliates.id').onDelete('cascade'))
    .addColumn('channel_id', TEXT, (c) => c.notNull().references('affiliate_channels.id').onDelete('cascade'))
    .addColumn('key', TEXT, (c) => c.notNull().unique())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('revoked_at', TEXT)
    .addColumn('replaced_by', TEXT)
    .execute();
  await db.schema.createIndex('link_keys_active_channel_idx').on('link_keys').column('channel_id').unique().where(sql.ref('revoked_at'), 'is', null).execute();

  await db.schema
    .createTable('link_script_sites')
    .addColumn('channel_id', TEXT, (c) => c.notNull().references('affiliate_channels.id').onDelete('cascade'))
    .addColumn('origin', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('link_script_sites_pk', ['channel_id', 'origin'])
    .execute();

  await db.schema
    .createTable('auto_links')
    .addColumn('link_id', TEXT, (c) => c.primaryKey().references('short_links.id').onDelete('cascade'))
    .addColumn('affiliate_id', TEXT, (c) => c.notNull())
    .addColumn('channel_id', TEXT, (c) => c.notNull())
    .addColumn('page_url', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auto_links_channel_idx').on('auto_links').columns(['channel_id', 'created_at']).execute();
}
