// The people who run the network, and the trail of what anyone did to it.
// - users: a user now belongs to an affiliate, to a brand, or to the network (role `operator`,
//   neither owner set). PostgreSQL checks the pairing; SQLite cannot add a check to a table in
//   place, so there the users service alone keeps it.
// - audit_entries: who (and as whom), when, from which address, what, before → after. Append-only:
//   triggers refuse deletions and every change but one, the address dropped after
//   AUDIT_ADDRESS_DAYS.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  if (dialect === 'postgres') {
    await sql`alter table users add constraint users_one_owner check (
      (role = 'operator' and affiliate_id is null and brand_id is null)
      or (role in ('owner', 'member') and (affiliate_id is null) <> (brand_id is null)))`.execute(db);
  }

  await db.schema
    .createTable('audit_entries')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('created_at', text, (c) => c.notNull())
    /** operator | brand | affiliate | network | cli */
    .addColumn('actor_kind', text, (c) => c.notNull())
    /** The user (usr_…) or key (key_…) that acted; null for the network and commands. */
    .addColumn('actor_id', text)
    /** The member an operator acted as (view as), when one did. */
    .addColumn('acting_as', text)
    /** The client address; set to null after AUDIT_ADDRESS_DAYS, the only change an entry ever sees. */
    .addColumn('address', text)
    /** What was done, e.g. application.approved, affiliate.suspended, payout_run.created. */
    .addColumn('action', text, (c) => c.notNull())
    /** What it was done to: its kind and id. */
    .addColumn('subject_kind', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    /** The member accounts the entry concerns (they read it in their portal). */
    .addColumn('affiliate_id', text)
    .addColumn('brand_id', text)
    /** JSON objects, secrets masked before they are written; null when there was nothing before (or after). */
    .addColumn('before', text)
    .addColumn('after', text)
    .addColumn('reason', text)
    .execute();
  await db.schema.createIndex('audit_entries_time_idx').on('audit_entries').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_entries_affiliate_idx').on('audit_entries').columns(['affiliate_id', 'id']).execute();
  await db.schema.createIndex('audit_entries_brand_idx').on('audit_entries').columns(['brand_id', 'id']).execute();
  await db.schema.createIndex('audit_entries_actor_idx').on('audit_entries').columns(['actor_id', 'id']).execute();

  if (dialect === 'postgres') {
    await sql`create function audit_entries_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or new.address is not null
          or (to_jsonb(new) - 'address') <> (to_jsonb(old) - 'address') then
          raise exception 'audit entries are append-only';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger audit_entries_append_only before update or delete on audit_entries for each row execute function audit_entries_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_entries_no_delete before delete on audit_entries begin select raise(abort, 'audit entries are append-only'); end`.execute(db);
    await sql`create trigger audit_entries_no_change before update on audit_entries
      when new.address is not null
        or new.id is not old.id or new.created_at is not old.created_at or new.actor_kind is not old.actor_kind
        or new.actor_id is not old.actor_id or new.acting_as is not old.acting_as or new.action is not old.action
        or new.subject_kind is not old.subject_kind or new.subject_id is not old.subject_id
        or new.affiliate_id is not old.affiliate_id or new.brand_id is not old.brand_id
        or new.before is not old.before or new.after is not old.after or new.reason is not old.reason
      begin select raise(abort, 'audit entries are append-only'); end`.execute(db);
  }
}
