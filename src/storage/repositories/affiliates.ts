// Affiliates (their suspension by the network among them) and their channels (with the
// network-wide channel kinds).
import type { Database } from '../database.js';
import { CompiledShapes } from './compiled-shapes.js';
import { rowsOf } from './pages.js';
import { isUniqueViolation, NameTaken } from '../../lib/unique-violation.js';
import { writeEffects, type Effects } from './effects.js';

/** The index keeping the names of an affiliate's channels in use apart, case aside (migration 0030). */
const LIVE_NAME_INDEX = 'affiliate_channels_live_name_idx';

/** Runs a write that may give a channel a name another channel in use has: NameTaken, then. */
async function namingChannel<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, LIVE_NAME_INDEX)) throw new NameTaken('channel', name);
    throw error;
  }
}

export interface AffiliateChannel {
  id: string;
  name: string;
  kindId: string;
  kindName: string;
  /** The channel's address (its site, or its profile on a network), when it was given. */
  site?: string;
}

/** An affiliate's or brand's standing with the network: both null while it is active. */
export interface Suspension {
  suspended_at: string | null;
  suspension_reason: string | null;
}

/** A member's name and standing, for the suspension service. */
export type MemberStanding = Suspension & { id: string; name: string };

export class AffiliatesRepository {
  private readonly shapes = new CompiledShapes();

  constructor(private readonly database: Database) {}

  /** The affiliate's name and standing; undefined when there is no such affiliate. */
  standingOf(affiliateId: string): Promise<MemberStanding | undefined> {
    return this.database.db.selectFrom('affiliates').select(['id', 'name', 'suspended_at', 'suspension_reason']).where('id', '=', affiliateId).executeTakeFirst();
  }

  /** The suspended ones among these affiliates, with their standing. */
  async suspendedAmong(ids: readonly string[]): Promise<Map<string, Suspension>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.db.selectFrom('affiliates').select(['id', 'suspended_at', 'suspension_reason']).where('id', 'in', [...ids]).where('suspended_at', 'is not', null).execute();
    return new Map(rows.map(({ id, ...standing }) => [id, standing]));
  }

  /**
   * Suspends (`next.suspended_at` set) or reactivates (null) the affiliate, with the change's
   * effects in the same transaction; false, and nothing written, when it was not in the opposite
   * standing (another change came first). The new updated_at tells every redirect cache.
   */
  setSuspension(affiliateId: string, next: Suspension, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('affiliates')
        .set({ ...next, updated_at: now })
        .where('id', '=', affiliateId)
        .where('suspended_at', next.suspended_at === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  async exists(affiliateId: string): Promise<boolean> {
    return (await this.database.db.selectFrom('affiliates').select('id').where('id', '=', affiliateId).executeTakeFirst()) !== undefined;
  }

  /** The names of these affiliates, by id. */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.db.selectFrom('affiliates').select(['id', 'name']).where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async nameOf(affiliateId: string): Promise<string | undefined> {
    return (await this.database.db.selectFrom('affiliates').select('name').where('id', '=', affiliateId).executeTakeFirst())?.name;
  }

  /** Whether any affiliate exists at all (an empty database is seeded on its first start). */
  async anyExists(): Promise<boolean> {
    return (await this.database.db.selectFrom('affiliates').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async save(row: { id: string; name: string; created_at: string }): Promise<void> {
    await this.database.db
      .insertInto('affiliates')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: row.name }))
      .execute();
  }

  /**
   * The affiliate's channels in a stable order (creation, then id): those in use, or with
   * `includeRemoved` also the removed ones (their links and orders still name them).
   */
  async channelsOf(affiliateId: string, options: { includeRemoved?: boolean } = {}): Promise<AffiliateChannel[]> {
    const query = this.shapes.compiled(options.includeRemoved ? 'channels, removed too' : 'channels', { affiliateId }, (v) =>
      this.database.db
        .selectFrom('affiliate_channels as c')
        .innerJoin('channel_kinds as k', 'k.id', 'c.kind_id')
        .select(['c.id', 'c.name', 'c.kind_id', 'k.name as kind_name', 'c.site'])
        .where('c.affiliate_id', '=', v.affiliateId)
        .$if(!options.includeRemoved, (q) => q.where('c.removed_at', 'is', null))
        .orderBy('c.created_at')
        .orderBy('c.id'),
    );
    const rows = await rowsOf(this.database, query);
    return rows.map((r) => ({ id: r.id, name: r.name, kindId: r.kind_id, kindName: r.kind_name, ...(r.site !== null && { site: r.site }) }));
  }

  /**
   * Renames a channel in use of the affiliate; false when it has none by that id. NameTaken when
   * another channel in use has that name (case aside): one renamed or added at the same time.
   */
  async renameChannel(affiliateId: string, id: string, name: string): Promise<boolean> {
    const result = await namingChannel(name, () =>
      this.database.db.updateTable('affiliate_channels').set({ name }).where('id', '=', id).where('affiliate_id', '=', affiliateId).where('removed_at', 'is', null).executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }

  /** Gives a channel in use of the affiliate its address (null: none); false when it has none by that id. */
  async setChannelSite(affiliateId: string, id: string, site: string | null): Promise<boolean> {
    const result = await this.database.db.updateTable('affiliate_channels').set({ site }).where('id', '=', id).where('affiliate_id', '=', affiliateId).where('removed_at', 'is', null).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Marks a channel in use of the affiliate removed; false when it has none by that id. */
  async removeChannel(affiliateId: string, id: string, at: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('affiliate_channels')
      .set({ removed_at: at })
      .where('id', '=', id)
      .where('affiliate_id', '=', affiliateId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Adds the channel, or renames an existing one of the same affiliate; false (and nothing
   * written) when the id belongs to another affiliate's channel. NameTaken (nothing written) when
   * another of the affiliate's channels in use has that name, case aside.
   */
  async saveChannel(row: { id: string; affiliate_id: string; kind_id: string; name: string; created_at: string; site?: string }): Promise<boolean> {
    const { db } = this.database;
    await namingChannel(row.name, () =>
      db
        .insertInto('affiliate_channels')
        .values({ ...row, removed_at: null })
        .onConflict((oc) => oc.column('id').doUpdateSet({ name: row.name, kind_id: row.kind_id }).where('affiliate_channels.affiliate_id', '=', row.affiliate_id))
        .execute(),
    );
    const owner = await db.selectFrom('affiliate_channels').select('affiliate_id').where('id', '=', row.id).executeTakeFirst();
    return owner?.affiliate_id === row.affiliate_id;
  }

  async saveChannelKinds(kinds: ReadonlyArray<{ id: string; name: string }>): Promise<void> {
    await this.database.db
      .insertInto('channel_kinds')
      .values(kinds.map((k) => ({ id: k.id, name: k.name })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async channelKindExists(kindId: string): Promise<boolean> {
    return (await this.database.db.selectFrom('channel_kinds').select('id').where('id', '=', kindId).executeTakeFirst()) !== undefined;
  }
}
