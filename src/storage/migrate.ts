// Versioned migrations, applied in name order and recorded in kysely_migration.
// Each migration receives the dialect so the rare dialect-specific statement (full-text search)
// sits beside its portable neighbours.
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database, Dialect } from './database.js';
import { applySqliteSnapshot, isEmptySqlite } from './sqlite-baseline.js';
import { applyPostgresSnapshot, snapshotApplies } from './postgres-baseline.js';
import * as initial from './migrations/0001-initial.js';
import * as tracking from './migrations/0002-tracking.js';
import * as plainLinksIndex from './migrations/0003-plain-links-index.js';
import * as productsInAddedOrder from './migrations/0004-products-in-added-order.js';
import * as clicksAppendOnly from './migrations/0005-clicks-append-only.js';
import * as productsBrandAvailability from './migrations/0006-products-brand-availability-index.js';
import * as productsPriceCovering from './migrations/0007-products-price-covering-index.js';
import * as clickCountProgress from './migrations/0008-click-count-progress.js';
import * as brandsVisibilityIndex from './migrations/0009-brands-visibility-index.js';
import * as campaignsTypeOrderIndex from './migrations/0010-campaigns-type-order-index.js';
import * as changedLinksIndex from './migrations/0011-changed-links-index.js';
import * as searchPrefixIndexes from './migrations/0012-search-prefix-indexes.js';
import * as brandKeyLimits from './migrations/0013-brand-key-limits.js';
import * as postbackTokens from './migrations/0013-postback-tokens.js';
import * as clickVelocityAndCommissionReason from './migrations/0014-click-velocity-and-commission-reason.js';
import * as currenciesPayoutsOrderFacts from './migrations/0015-currencies-payouts-order-facts.js';
import * as orderLinkCode from './migrations/0016-order-link-code.js';
import * as channelsReadScope from './migrations/0017-channels-read-scope.js';
import * as orderCommissionRule from './migrations/0018-order-commission-rule.js';
import * as webhooks from './migrations/0019-webhooks.js';
import * as approvalRequests from './migrations/0020-approval-requests.js';
import * as cataloguePerBrand from './migrations/0021-catalogue-per-brand.js';
import * as campaignsPerBrand from './migrations/0022-campaigns-per-brand.js';
import * as brandProfile from './migrations/0023-brand-profile.js';
import * as analytics from './migrations/0024-analytics.js';
import * as installationSettings from './migrations/0025-installation-settings.js';
import * as partitionedClicks from './migrations/0026-partitioned-clicks.js';
import * as usersAndSessions from './migrations/0027-users-and-sessions.js';
import * as partitionedWebhookOutbox from './migrations/0028-partitioned-webhook-outbox.js';
import * as channelManagement from './migrations/0029-channel-management.js';
import * as channelNameUnique from './migrations/0030-channel-name-unique.js';
import * as dailyRollups from './migrations/0031-daily-rollups.js';
import * as clickFactsRollups from './migrations/0032-click-facts-rollups.js';
import * as unrolledClicks from './migrations/0033-unrolled-clicks.js';
import * as campaignsListCoveringIndex from './migrations/0034-campaigns-list-covering-index.js';
import * as campaignsTypeCoveringIndex from './migrations/0035-campaigns-type-covering-index.js';
import * as scheduledTasks from './migrations/0036-scheduled-tasks.js';
import * as mailMessages from './migrations/0037-mail-messages.js';
import * as userLanguage from './migrations/0038-user-language.js';
import * as applications from './migrations/0039-applications.js';
import * as sessionDevices from './migrations/0040-session-devices.js';
import * as secondFactors from './migrations/0041-second-factors.js';
import * as lockDates from './migrations/0042-lock-dates.js';
import * as claims from './migrations/0043-claims.js';
import * as payeeDetails from './migrations/0044-payee-details.js';
import * as money from './migrations/0045-money.js';
import * as operatorsAndAudit from './migrations/0046-operators-and-audit.js';
import * as fraudHolds from './migrations/0047-fraud-holds.js';
import * as suspensions from './migrations/0048-suspensions.js';
import * as viewAsSessions from './migrations/0049-view-as-sessions.js';
import * as ordersByReportTime from './migrations/0050-orders-by-report-time.js';
import * as couponCodes from './migrations/0051-coupon-codes.js';
import * as productFeeds from './migrations/0052-product-feeds.js';
import * as firstPartyTag from './migrations/0054-first-party-tag.js';
import * as commissionRules from './migrations/0055-commission-rules.js';
import * as affiliateGroups from './migrations/0056-affiliate-groups.js';
import * as termsNotice from './migrations/0057-terms-notice.js';
import * as brandScores from './migrations/0058-brand-scores.js';
import * as sessionFactorMethod from './migrations/0059-session-factor-method.js';
import * as serverReporting from './migrations/0060-server-reporting.js';
import * as reconciliations from './migrations/0061-reconciliations.js';
import * as tagTests from './migrations/0062-tag-tests.js';
import * as linkScript from './migrations/0063-link-script.js';
import * as subIds from './migrations/0064-sub-ids.js';
import * as affiliatePostbacks from './migrations/0065-affiliate-postbacks.js';
import * as webhookAttemptFailures from './migrations/0066-webhook-attempt-failures.js';
import * as linksListedNewestFirst from './migrations/0067-links-listed-newest-first.js';

type DialectMigration = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

const migrations: Record<string, DialectMigration> = {
  '0001-initial': initial,
  '0002-tracking': tracking,
  '0003-plain-links-index': plainLinksIndex,
  '0004-products-in-added-order': productsInAddedOrder,
  '0005-clicks-append-only': clicksAppendOnly,
  '0006-products-brand-availability-index': productsBrandAvailability,
  '0007-products-price-covering-index': productsPriceCovering,
  '0008-click-count-progress': clickCountProgress,
  '0009-brands-visibility-index': brandsVisibilityIndex,
  '0010-campaigns-type-order-index': campaignsTypeOrderIndex,
  '0011-changed-links-index': changedLinksIndex,
  '0012-search-prefix-indexes': searchPrefixIndexes,
  '0013-brand-key-limits': brandKeyLimits,
  '0013-postback-tokens': postbackTokens,
  '0014-click-velocity-and-commission-reason': clickVelocityAndCommissionReason,
  '0015-currencies-payouts-order-facts': currenciesPayoutsOrderFacts,
  '0016-order-link-code': orderLinkCode,
  '0017-channels-read-scope': channelsReadScope,
  '0018-order-commission-rule': orderCommissionRule,
  '0019-webhooks': webhooks,
  '0020-approval-requests': approvalRequests,
  '0021-catalogue-per-brand': cataloguePerBrand,
  '0022-campaigns-per-brand': campaignsPerBrand,
  '0023-brand-profile': brandProfile,
  '0024-analytics': analytics,
  '0025-installation-settings': installationSettings,
  '0026-partitioned-clicks': partitionedClicks,
  '0027-users-and-sessions': usersAndSessions,
  '0028-partitioned-webhook-outbox': partitionedWebhookOutbox,
  '0029-channel-management': channelManagement,
  '0030-channel-name-unique': channelNameUnique,
  '0031-daily-rollups': dailyRollups,
  '0032-click-facts-rollups': clickFactsRollups,
  '0033-unrolled-clicks': unrolledClicks,
  '0034-campaigns-list-covering-index': campaignsListCoveringIndex,
  '0035-campaigns-type-covering-index': campaignsTypeCoveringIndex,
  '0036-scheduled-tasks': scheduledTasks,
  '0037-mail-messages': mailMessages,
  '0038-user-language': userLanguage,
  '0039-applications': applications,
  '0040-session-devices': sessionDevices,
  '0041-second-factors': secondFactors,
  '0042-lock-dates': lockDates,
  '0043-claims': claims,
  '0044-payee-details': payeeDetails,
  '0045-money': money,
  '0046-operators-and-audit': operatorsAndAudit,
  '0047-fraud-holds': fraudHolds,
  '0048-suspensions': suspensions,
  '0049-view-as-sessions': viewAsSessions,
  '0050-orders-by-report-time': ordersByReportTime,
  '0051-coupon-codes': couponCodes,
  '0052-product-feeds': productFeeds,
  '0054-first-party-tag': firstPartyTag,
  '0055-commission-rules': commissionRules,
  '0056-affiliate-groups': affiliateGroups,
  '0057-terms-notice': termsNotice,
  '0058-brand-scores': brandScores,
  '0059-session-factor-method': sessionFactorMethod,
  '0060-server-reporting': serverReporting,
  '0061-reconciliations': reconciliations,
  '0062-tag-tests': tagTests,
  '0063-link-script': linkScript,
  '0064-sub-ids': subIds,
  '0065-affiliate-postbacks': affiliatePostbacks,
  '0066-webhook-attempt-failures': webhookAttemptFailures,
  '0067-links-listed-newest-first': linksListedNewestFirst,
};

/** Brings the database to the latest schema; a new database starts from the snapshot of the migrations. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  if (await isUpToDate(database)) return [];
  const fromSnapshot = await startFromSnapshot(database);
  // A snapshot of every migration leaves none to run: the migrator, which first reads the whole catalog, is not needed.
  if (fromSnapshot.length === migrationNames().length) return fromSnapshot;
  return [...fromSnapshot, ...(await replayMigrations(database))];
}

/** Runs a migration: `run` does it; the default runs it and nothing else. */
export type MigrationRun = (name: string, run: () => Promise<void>) => Promise<void>;

/**
 * Runs every migration not yet run, in turn, never the snapshot: what the snapshots are made from.
 * `around` runs each (a recording of what the migrations do, src/storage/postgres-recording.ts).
 */
export function replayMigrations(database: Database, around?: MigrationRun): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateToLatest(), around);
}

/**
 * Whether the database records exactly this version's migrations: the usual start, answered with
 * one read. Kysely's migrator would first list every column of every table twice to see whether
 * its own two tables exist (its introspection: 50-75 ms of a start on PostgreSQL). Anything else
 * (a new database, a migration to run, one recorded that this version does not know) goes to the
 * migrator, which applies or refuses as before.
 */
async function isUpToDate(database: Database): Promise<boolean> {
  const exists =
    database.dialect === 'postgres'
      ? sql<{ found: unknown }>`select to_regclass(${DEFAULT_MIGRATION_TABLE}) is not null as found`
      : sql<{ found: unknown }>`select exists (select 1 from sqlite_master where type = 'table' and name = ${DEFAULT_MIGRATION_TABLE}) as found`;
  if (!(await exists.execute(database.db)).rows[0]?.found) return false;
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(database.db);
  const recorded = new Set(rows.map((row) => row.name));
  const known = migrationNames();
  return recorded.size === known.length && known.every((name) => recorded.has(name));
}

/** The migrations in their order. */
export const migrationNames = (): string[] => Object.keys(migrations);

/**
 * For a database that holds nothing yet: its dialect's snapshot applied, and the migrations it
 * holds. Emptiness is checked again inside the snapshot's transaction; first here, so a database
 * in use does not load the snapshot.
 */
async function startFromSnapshot(database: Database): Promise<string[]> {
  const names = migrationNames();
  if (database.dialect === 'sqlite') {
    if (!(await isEmptySqlite(database.db))) return [];
    const { SQLITE_SNAPSHOT } = await import('./migrations/sqlite-baseline.js');
    const covered = names.slice(0, names.indexOf(SQLITE_SNAPSHOT.through) + 1);
    return covered.length > 0 && (await applySqliteSnapshot(database.db, SQLITE_SNAPSHOT, covered, new Date().toISOString())) ? covered : [];
  }
  if (!(await snapshotApplies(database.db))) return [];
  const { POSTGRES_SNAPSHOT } = await import('./migrations/postgres-baseline.js');
  // The migrations it holds by name: a migration added among them since it was recorded is not in it, and none of it is used.
  const covered = POSTGRES_SNAPSHOT.migrations.map((migration) => migration.name);
  const inOrder = covered.length > 0 && covered.every((name, i) => names[i] === name);
  return inOrder && (await applyPostgresSnapshot(database.db, POSTGRES_SNAPSHOT, Date.now())) ? covered : [];
}

/** Applies the migrations up to and including `name` (a test that starts from an older schema). */
export function migrateTo(database: Database, name: string): Promise<string[]> {
  if (!(name in migrations)) throw new Error(`no migration named ${name}`);
  return migrate(database, (migrator) => migrator.migrateTo(name));
}

async function migrate(database: Database, run: (migrator: Migrator) => Promise<MigrationResultSet>, around?: MigrationRun): Promise<string[]> {
  const bound: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    const up = (db: Kysely<unknown>) => migration.up(db, database.dialect);
    bound[name] = { up: around ? (db) => around(name, () => up(db)) : up };
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => bound },
  });
  const result: MigrationResultSet = await run(migrator);
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${result.error instanceof Error ? result.error.message : JSON.stringify(result.error)}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
