// Short links: creation (idempotent per channel and request), the lists that show them, the
// redirect lookup and the changes the redirect cache polls for.
import { sql } from 'kysely';
import type { Database } from '../database.js';
import { compiledPage, rowsOf, type Page, type PageWindow } from './pages.js';
import { CompiledShapes } from './compiled-shapes.js';
import type { NewWebhookEvent, ShortLinkRow } from '../tables.js';
import { writeOutbox } from './webhooks.js';

/** A link to create: every column but its state (active, count) and times, which the insert sets. */
export type NewLink = Omit<ShortLinkRow, 'active' | 'click_count' | 'created_at' | 'updated_at'>;

/** What a brand or campaign shows of one of the affiliate's links: its short URL, per channel. */
export type ResourceLink = Pick<ShortLinkRow, 'id' | 'organization_id' | 'feature_id' | 'channel_id' | 'code' | 'active' | 'created_at'>;

/** Oldest first, then by id: the order a resource's links are shown in. */
const oldestFirst = (a: ResourceLink, b: ResourceLink): number =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** What the redirect needs to know about a code. */
export interface RedirectTarget {
  linkId: string;
  destination: string;
  active: boolean;
  affiliateId: string;
  channelId: string;
  brandId: string;
  mdasc: string | null;
  /** Query parameter that carries the click id to the brand's site. */
  clickIdParam: string;
  /** A product feed's link only: the brand's site and added domains (JSON), which its deep links must stay on. */
  feed?: { site: string; domains: string };
}

/** A brand's part of a redirect target: the same for every link to it. */
export interface RedirectBrand {
  clickIdParam: string;
  isPublic: boolean;
  site: string;
  domains: string;
}

/** The link type of a product feed's links, whose deep links the redirect checks against the brand's domains. */
export const FEED_LINK_TYPE = 'ProductFeed';

/** The affiliates and brands the network has suspended; a brand with its site and where its Home links go (null: the site's origin). */
export interface SuspendedMembers {
  affiliates: string[];
  brands: Array<{ id: string; site: string; home_url: string | null }>;
}

export interface LinkListFilters {
  linkType: string;
  featureId?: string;
  organizationId?: string;
}

/** A link as the affiliate's list shows it: with the name and kind of its channel. */
export type ListedLink = ShortLinkRow & { channel_name: string; channel_kind: string };

type RedirectRow = Pick<ShortLinkRow, 'id' | 'original_url' | 'active' | 'affiliate_id' | 'channel_id' | 'organization_id' | 'mdasc'> & {
  click_id_param: string;
  is_public: number;
  /** 1/0 on SQLite, true/false on PostgreSQL. */
  approved: number | boolean;
  /** The brand's site and domains, read for a feed link only (null for every other link). */
  feed_site: string | null;
  feed_domains: string | null;
};

/**
 * A link redirects while it is active and its affiliate may promote its brand: the brand is
 * public, or the affiliate is approved for it (a withdrawn approval stops its links). Whether its
 * affiliate or brand is suspended is not read here but from suspendedMembers, once per change:
 * joining the affiliate and reading the brand's last columns made every lookup a quarter slower.
 */
function redirectQuery(database: Database) {
  return database.db
    .selectFrom('short_links as l')
    .innerJoin('brands as b', 'b.id', 'l.organization_id')
    .select(['l.id', 'l.original_url', 'l.active', 'l.affiliate_id', 'l.channel_id', 'l.organization_id', 'l.mdasc', 'b.click_id_param', 'b.is_public'])
    // Only a feed link's lookup carries the brand's domains; every other link reads two nulls.
    .select(sql<string | null>`case when l.link_type = ${sql.lit(FEED_LINK_TYPE)} then b.site end`.as('feed_site'))
    .select(sql<string | null>`case when l.link_type = ${sql.lit(FEED_LINK_TYPE)} then b.domains end`.as('feed_domains'))
    .select((eb) =>
      eb
        .exists(eb.selectFrom('brand_approvals as ap').select(sql`1`.as('one')).whereRef('ap.affiliate_id', '=', 'l.affiliate_id').whereRef('ap.brand_id', '=', 'l.organization_id'))
        .as('approved'),
    )
    .where('l.code', '=', '')
    .compile();
}

function linkQuery(database: Database) {
  return database.db.selectFrom('short_links').select(['id', 'original_url', 'active', 'affiliate_id', 'channel_id', 'organization_id', 'mdasc', 'link_type']).where('code', '=', '').compile();
}

function brandQuery(database: Database) {
  return database.db.selectFrom('brands').select(['click_id_param', 'is_public', 'site', 'domains']).where('id', '=', '').compile();
}

function approvalQuery(database: Database) {
  return database.db.selectFrom('brand_approvals').select(sql<number>`1`.as('one')).where('affiliate_id', '=', '').where('brand_id', '=', '').compile();
}

type LinkRow = Pick<ShortLinkRow, 'id' | 'original_url' | 'active' | 'affiliate_id' | 'channel_id' | 'organization_id' | 'mdasc' | 'link_type'>;
type BrandRow = { click_id_param: string; is_public: number; site: string; domains: string };

function targetOf(row: RedirectRow): RedirectTarget {
  return {
    linkId: row.id,
    destination: row.original_url,
    active: mayRedirect(row.active === 1, row.is_public === 1, row.approved === true || row.approved === 1),
    affiliateId: row.affiliate_id,
    channelId: row.channel_id,
    brandId: row.organization_id,
    mdasc: row.mdasc,
    clickIdParam: row.click_id_param,
    ...(row.feed_site !== null && { feed: { site: row.feed_site, domains: row.feed_domains ?? '[]' } }),
  };
}

/** A link redirects while it is active and its affiliate may promote its brand: public, or approved for it. */
const mayRedirect = (active: boolean, isPublic: boolean, approved: boolean): boolean => active && (isPublic || approved);

/** More changed links than a cache should delete one by one: it starts afresh instead. */
const MANY_CHANGES = 10_000;

export class LinksRepository {
  /**
   * The redirect lookup, built and compiled once (its code parameter filled in per call): building
   * and compiling a Kysely query costs two to four times the lookup itself, and this one runs on
   * every uncached redirect.
   */
  private redirectLookup: ReturnType<typeof redirectQuery> | undefined;
  /** The redirect lookup's parts (findRedirectTargetNow), likewise. */
  private linkLookup: ReturnType<typeof linkQuery> | undefined;
  private readonly shapes = new CompiledShapes();
  private brandLookup: ReturnType<typeof brandQuery> | undefined;
  private approvalLookup: ReturnType<typeof approvalQuery> | undefined;

  constructor(private readonly database: Database) {}

  /**
   * Inserts the link unless the channel already has one for the same request; either way returns
   * the channel's link for that request. Safe under concurrent identical requests.
   */
  async insertOrGet(link: NewLink, now: string): Promise<ShortLinkRow> {
    await this.database.db
      .insertInto('short_links')
      .values({ ...link, active: 1, click_count: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['channel_id', 'request_key']).doNothing())
      .execute();
    return this.database.db
      .selectFrom('short_links')
      .selectAll()
      .where('channel_id', '=', link.channel_id)
      .where('request_key', '=', link.request_key)
      .executeTakeFirstOrThrow();
  }

  /**
   * The affiliate's plain links (without mdasc) for some brands or features, to show on the
   * resources they belong to. Links with an mdasc are per-use tracking links: an app may make
   * thousands, so they are listed by GET /affiliate/shortener/urls only. Only the columns shown
   * (and the creation time, their order) are read: every list page asks for these, and whole rows
   * cost twice as much to build.
   */
  async forResources(
    affiliateId: string,
    by: { brandIds?: string[]; featureIds?: string[]; linkTypes: string[] },
  ): Promise<ResourceLink[]> {
    if (by.brandIds?.length === 0 || by.featureIds?.length === 0) return [];
    const query = this.shapes.compiled('links of resources', { affiliateId, ...by }, (v) => {
      let q = this.database.db
        .selectFrom('short_links')
        .select(['id', 'organization_id', 'feature_id', 'channel_id', 'code', 'active', 'created_at'])
        .where('affiliate_id', '=', v.affiliateId)
        .where('link_type', 'in', v.linkTypes)
        .where('mdasc', 'is', null);
      if (v.brandIds) q = q.where('organization_id', 'in', v.brandIds);
      // Ordered by the feature, which only the index holding it gives: unordered, a database
      // without statistics (a new one, until its first analysis) walked the affiliate's
      // newest-first index of links by type instead, every link of the type for each page.
      if (v.featureIds) q = q.where('feature_id', 'in', v.featureIds).orderBy('feature_id');
      return q;
    });
    // Each resource's links oldest first, put in order here: a page's few dozen links sort in a
    // few microseconds, where SQLite's sorter cost a third of the statement.
    return (await rowsOf(this.database, query)).sort(oldestFirst);
  }

  list(affiliateId: string, f: LinkListFilters, page: PageWindow): Promise<Page<ListedLink>> {
    const values = { affiliateId, linkType: f.linkType, featureId: f.featureId || undefined, organizationId: f.organizationId || undefined };
    const filtered = (v: typeof values) => {
      let q = this.database.db.selectFrom('short_links as l').where('l.affiliate_id', '=', v.affiliateId).where('l.link_type', '=', v.linkType);
      if (v.featureId !== undefined) q = q.where('l.feature_id', '=', v.featureId);
      if (v.organizationId !== undefined) q = q.where('l.organization_id', '=', v.organizationId);
      return q;
    };
    const rows = this.shapes.compiled('links page', { ...values, limit: page.limit, offset: page.offset }, (v) =>
      filtered(v)
        .innerJoin('affiliate_channels as c', 'c.id', 'l.channel_id')
        .selectAll('l')
        .select(['c.name as channel_name', 'c.kind_id as channel_kind'])
        .orderBy('l.created_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(v.limit)
        .offset(v.offset),
    );
    const count = this.shapes.compiled('links total', values, (v) => filtered(v).select((eb) => eb.fn.countAll<number>().as('n')));
    return compiledPage(this.database, rows, count);
  }

  async findRedirectTarget(code: string): Promise<RedirectTarget | undefined> {
    const compiled = (this.redirectLookup ??= redirectQuery(this.database));
    const [row] = (await this.database.db.executeQuery<RedirectRow>({ ...compiled, parameters: [code] })).rows;
    return row && targetOf(row);
  }

  /**
   * The redirect lookup read at once where the database answers without waiting (SQLite: the
   * serving connection, no turn to wait for, no promise), in parts so the caller can keep the
   * brands' part in memory (`brandOf`, usually redirectBrandNow behind a memory): the link alone
   * costs less than half the joined lookup, and the approval is read only for a private brand.
   * The target, null for no such code, or undefined where a part cannot be read now (PostgreSQL, a
   * transaction open on the connection, a failed read): findRedirectTarget then does it whole.
   */
  findRedirectTargetNow(code: string, brandOf: (brandId: string) => RedirectBrand | null | undefined): RedirectTarget | null | undefined {
    const row = this.readNow<LinkRow>((this.linkLookup ??= linkQuery(this.database)).sql, [code]);
    if (!row) return row;
    const brand = brandOf(row.organization_id);
    if (!brand) return brand;
    const active = row.active === 1;
    const approved = active && !brand.isPublic ? this.isApprovedNow(row.affiliate_id, row.organization_id) : false;
    if (approved === undefined) return undefined;
    return {
      linkId: row.id,
      destination: row.original_url,
      active: mayRedirect(active, brand.isPublic, approved),
      affiliateId: row.affiliate_id,
      channelId: row.channel_id,
      brandId: row.organization_id,
      mdasc: row.mdasc,
      clickIdParam: brand.clickIdParam,
      ...(row.link_type === FEED_LINK_TYPE && { feed: { site: brand.site, domains: brand.domains } }),
    };
  }

  /** A brand's part of the redirect lookup read at once (see findRedirectTargetNow): null for no such brand. */
  redirectBrandNow(brandId: string): RedirectBrand | null | undefined {
    const row = this.readNow<BrandRow>((this.brandLookup ??= brandQuery(this.database)).sql, [brandId]);
    if (row === undefined) return undefined;
    return row && { clickIdParam: row.click_id_param, isPublic: row.is_public === 1, site: row.site, domains: row.domains };
  }

  /** Whether the affiliate is approved for the brand, read at once (see findRedirectTargetNow). */
  private isApprovedNow(affiliateId: string, brandId: string): boolean | undefined {
    const row = this.readNow<{ one: number }>((this.approvalLookup ??= approvalQuery(this.database)).sql, [affiliateId, brandId]);
    return row === undefined ? undefined : row !== null;
  }

  /** The first row of a read on the serving connection now, null for none, undefined where it cannot be read now. */
  private readNow<Row>(sqlText: string, parameters: readonly unknown[]): Row | null | undefined {
    if (!this.database.readHere) return undefined;
    try {
      const read = this.database.readHere(sqlText, parameters);
      return read && ((read.rows[0] as Row | undefined) ?? null);
    } catch {
      return undefined; // the whole lookup runs again asynchronously, and reports what failed
    }
  }

  /** The suspended affiliates and brands: usually none, each read from a partial index of its own (migration 0048). */
  async suspendedMembers(): Promise<SuspendedMembers> {
    const { db } = this.database;
    const [affiliates, brands] = await Promise.all([
      db.selectFrom('affiliates').select('id').where('suspended_at', 'is not', null).execute(),
      db.selectFrom('brands').select(['id', 'site', 'home_url']).where('suspended_at', 'is not', null).execute(),
    ]);
    return { affiliates: affiliates.map((a) => a.id), brands };
  }

  /**
   * What changed at or after `since` (an ISO time): the codes of links added or changed, or
   * 'everything' when a brand changed (a brand's click-id parameter is part of every redirect to
   * it), an affiliate was suspended or reactivated, or too many links changed to list.
   */
  async changesSince(since: string): Promise<string[] | 'everything'> {
    const { db } = this.database;
    const [links, brand, affiliate] = await Promise.all([
      db.selectFrom('short_links').select('code').where('updated_at', '>=', since).limit(MANY_CHANGES + 1).execute(),
      db.selectFrom('brands').select('id').where('updated_at', '>=', since).limit(1).executeTakeFirst(),
      db.selectFrom('affiliates').select('id').where('updated_at', '>=', since).limit(1).executeTakeFirst(),
    ]);
    if (brand || affiliate || links.length > MANY_CHANGES) return 'everything';
    return links.map((l) => l.code);
  }

  /**
   * Activates or deactivates a link by code, with the webhook events of the change in the same
   * transaction; the link as it was, or undefined when no such code exists.
   */
  setActive(code: string, active: boolean, now: string, eventsFor: (link: ShortLinkRow) => NewWebhookEvent[] = () => []): Promise<ShortLinkRow | undefined> {
    return this.database.db.transaction().execute(async (trx) => {
      const link = await trx.selectFrom('short_links').selectAll().where('code', '=', code).executeTakeFirst();
      if (!link) return undefined;
      await trx.updateTable('short_links').set({ active: active ? 1 : 0, updated_at: now }).where('id', '=', link.id).execute();
      if ((link.active === 1) !== active) await writeOutbox(trx, eventsFor(link), now);
      return link;
    });
  }

  /** The code of a link, by its id. */
  async codeOf(linkId: string): Promise<string | undefined> {
    return (await this.database.db.selectFrom('short_links').select('code').where('id', '=', linkId).executeTakeFirst())?.code;
  }

  /** The link with this code, whoever owns it (callers check ownership). */
  findByCode(code: string): Promise<Pick<ShortLinkRow, 'id' | 'code' | 'affiliate_id' | 'organization_id' | 'channel_id'> | undefined> {
    return this.database.db.selectFrom('short_links').select(['id', 'code', 'affiliate_id', 'organization_id', 'channel_id']).where('code', '=', code).executeTakeFirst();
  }

  /** The codes of these links, by id. */
  async codesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.db.selectFrom('short_links').select(['id', 'code']).where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, r.code]));
  }
}
