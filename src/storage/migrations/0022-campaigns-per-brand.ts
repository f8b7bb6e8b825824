// A campaign's id is unique per brand, like a product's: its key becomes (brand, id), and its
// categories name their campaign by both. Rebuilt on SQLite (a primary key cannot be changed in
// place); on PostgreSQL the keys are swapped.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

const COLUMNS = 'id, organization_id, name, name_key, type, offer_type, description, code, url, is_highlight, start_at, end_at, banners, email_marketing, created_at, updated_at';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table campaign_categories add column organization_id text collate "C"`.execute(db);
    await sql`update campaign_categories set organization_id = (select c.organization_id from campaigns c where c.id = campaign_categories.campaign_id)`.execute(db);
    await sql`alter table campaign_categories alter column organization_id set not null`.execute(db);
    await sql`alter table campaign_categories drop constraint campaign_categories_campaign_id_fkey`.execute(db);
    await sql`alter table campaign_categories drop constraint campaign_categories_pk`.execute(db);
    await sql`alter table campaigns drop constraint campaigns_pkey`.execute(db);
    await sql`alter table campaigns add primary key (organization_id, id)`.execute(db);
    await sql`alter table campaign_categories add primary key (organization_id, campaign_id, category_key)`.execute(db);
    await sql`alter table campaign_categories add foreign key (organization_id, campaign_id) references campaigns (organization_id, id) on delete cascade`.execute(db);
  } else {
    await sql`create table campaigns_next (
      id text not null,
      organization_id text not null references brands(id) on delete cascade,
      name text not null,
      name_key text not null,
      type text not null,
      offer_type text,
      description text not null,
      code text,
      url text not null,
      is_highlight integer not null default 0,
      start_at text not null,
      end_at text not null,
      banners text not null,
      email_marketing text,
      created_at text not null,
      updated_at text not null,
      primary key (organization_id, id)
    )`.execute(db);
    await sql`insert into campaigns_next (${sql.raw(COLUMNS)}) select ${sql.raw(COLUMNS)} from campaigns`.execute(db);
    await sql`create table campaign_categories_next (
      organization_id text not null,
      campaign_id text not null,
      category text not null,
      category_key text not null,
      primary key (organization_id, campaign_id, category_key),
      foreign key (organization_id, campaign_id) references campaigns_next (organization_id, id) on delete cascade
    )`.execute(db);
    await sql`insert into campaign_categories_next (organization_id, campaign_id, category, category_key)
      select c.organization_id, cc.campaign_id, cc.category, cc.category_key from campaign_categories cc join campaigns c on c.id = cc.campaign_id`.execute(db);
    await sql`drop table campaign_categories`.execute(db);
    await sql`drop table campaigns`.execute(db);
    await sql`alter table campaigns_next rename to campaigns`.execute(db);
    await sql`alter table campaign_categories_next rename to campaign_categories`.execute(db);
    await sql`create index campaigns_order_idx on campaigns (created_at, id)`.execute(db);
    await sql`create index campaigns_org_idx on campaigns (organization_id, created_at, id)`.execute(db);
    await sql`create index campaigns_period_idx on campaigns (end_at, start_at)`.execute(db);
    await sql`create index campaigns_type_order_idx on campaigns (type, created_at, id)`.execute(db);
  }
  await sql`drop index if exists campaign_categories_key_idx`.execute(db);
  await sql`create index campaign_categories_key_idx on campaign_categories (category_key, organization_id, campaign_id)`.execute(db);
}
