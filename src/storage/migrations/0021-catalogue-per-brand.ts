// Brands manage their own catalogue through the API: a product's id is unique per brand, not
// network-wide (an id another brand uses is simply another product, never a conflict that names
// that brand). On SQLite the table is rebuilt without the network-wide unique id (its rows, their
// seq and so the full-text index stay as they are); on PostgreSQL the constraint is swapped.
// Scopes catalog:read and catalog:write are granted to every brand key that held the whole set.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { grantToFullKeys } from './scope-grants.js';

const BRAND_SET = ['conversions:write', 'conversions:read', 'webhooks:read', 'webhooks:write', 'affiliates:read', 'affiliates:write'];
const COLUMNS = 'seq, id, organization_id, integration, available, name, description, url, images, options, metadata, price_cents, search_text, created_at, updated_at';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table products drop constraint if exists products_id_key`.execute(db);
    await sql`create unique index products_brand_id_unique on products (organization_id, id)`.execute(db);
  } else {
    await sql`create table products_next (
      seq integer primary key,
      id text not null,
      organization_id text not null references brands(id) on delete cascade,
      integration text,
      available integer not null default 1,
      name text not null,
      description text not null,
      url text not null,
      images text not null,
      options text not null,
      metadata text not null,
      price_cents integer,
      search_text text not null,
      created_at text not null,
      updated_at text not null,
      unique (organization_id, id)
    )`.execute(db);
    await sql`insert into products_next (${sql.raw(COLUMNS)}) select ${sql.raw(COLUMNS)} from products`.execute(db);
    // Dropping the table drops its indexes and the triggers that keep the full-text index in step.
    await sql`drop table products`.execute(db);
    await sql`alter table products_next rename to products`.execute(db);
    await sql`create index products_org_seq_idx on products (organization_id, seq)`.execute(db);
    await sql`create index products_available_seq_idx on products (available, seq)`.execute(db);
    await sql`create index products_org_available_seq_idx on products (organization_id, available, seq)`.execute(db);
    await sql`create index products_price_org_idx on products (price_cents, organization_id)`.execute(db);
    await sql`create trigger products_fts_insert after insert on products begin
      insert into products_fts(rowid, search_text) values (new.seq, new.search_text);
    end`.execute(db);
    await sql`create trigger products_fts_delete after delete on products begin
      insert into products_fts(products_fts, rowid, search_text) values ('delete', old.seq, old.search_text);
    end`.execute(db);
    await sql`create trigger products_fts_update after update of search_text on products begin
      insert into products_fts(products_fts, rowid, search_text) values ('delete', old.seq, old.search_text);
      insert into products_fts(rowid, search_text) values (new.seq, new.search_text);
    end`.execute(db);
  }
  await grantToFullKeys(db, { owner: 'brand', fullSet: BRAND_SET, scope: 'catalog:read' });
  await grantToFullKeys(db, { owner: 'brand', fullSet: BRAND_SET, scope: 'catalog:write' });
}
