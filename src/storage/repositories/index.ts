// Every repository over one database, built once by whoever assembles the service (the server,
// a CLI command) and handed to the services that need them.
import type { Database } from '../database.js';
import { AffiliateGroupsRepository } from './affiliate-groups.js';
import { AffiliatesRepository } from './affiliates.js';
import { ApiKeysRepository } from './api-keys.js';
import { ApplicationsRepository } from './applications.js';
import { ApprovalsRepository } from './approvals.js';
import { AuditRepository } from './audit.js';
import { BrandsRepository } from './brands.js';
import { BrandScoresRepository } from './brand-scores.js';
import { CampaignsRepository } from './campaigns.js';
import { ClaimsRepository } from './claims.js';
import { CategoriesRepository } from './categories.js';
import { ClicksRepository } from './clicks.js';
import { FeedsRepository } from './feeds.js';
import { CouponsRepository } from './coupons.js';
import { CommissionRulesRepository } from './commission-rules.js';
import { FiguresRepository } from './figures.js';
import { AffiliateLedger, LedgerRepository } from './ledger.js';
import { AdjustmentsRepository } from './adjustments.js';
import { LinksRepository } from './links.js';
import { LinkKeysRepository } from './link-keys.js';
import { OrdersRepository } from './orders.js';
import { HoldsRepository } from './holds.js';
import { PayoutsRepository } from './payouts.js';
import { PayeesRepository } from './payees.js';
import { PostbackTokensRepository } from './postback-tokens.js';
import { PostbacksRepository } from './postbacks.js';
import { ProductsRepository } from './products.js';
import { ReconciliationsRepository } from './reconciliations.js';
import { RollupsRepository } from './rollups.js';
import { SubIdFiguresRepository } from './sub-id-figures.js';
import { SettingsRepository } from './settings.js';
import { StatementsRepository } from './statements.js';
import { TagInstallRepository } from './tag-install.js';
import { MailRepository } from './mail.js';
import { MembersRepository } from './members.js';
import { ScheduledTasksRepository } from './scheduled-tasks.js';
import { SecondFactorsRepository } from './second-factors.js';
import { UsersRepository } from './users.js';
import { ViewSessionsRepository } from './view-sessions.js';
import { WebhooksRepository } from './webhooks.js';

export function openRepositories(database: Database) {
  return {
    adjustments: new AdjustmentsRepository(database),
    affiliateLedger: new AffiliateLedger(database),
    affiliateGroups: new AffiliateGroupsRepository(database),
    affiliates: new AffiliatesRepository(database),
    apiKeys: new ApiKeysRepository(database),
    applications: new ApplicationsRepository(database),
    approvals: new ApprovalsRepository(database),
    audit: new AuditRepository(database),
    brands: new BrandsRepository(database),
    brandScores: new BrandScoresRepository(database),
    campaigns: new CampaignsRepository(database),
    categories: new CategoriesRepository(database),
    claims: new ClaimsRepository(database),
    clicks: new ClicksRepository(database),
    feeds: new FeedsRepository(database),
    coupons: new CouponsRepository(database),
    commissionRules: new CommissionRulesRepository(database),
    figures: new FiguresRepository(database),
    holds: new HoldsRepository(database),
    ledger: new LedgerRepository(database),
    links: new LinksRepository(database),
    linkKeys: new LinkKeysRepository(database),
    mail: new MailRepository(database),
    members: new MembersRepository(database),
    orders: new OrdersRepository(database),
    payees: new PayeesRepository(database),
    payouts: new PayoutsRepository(database),
    postbackTokens: new PostbackTokensRepository(database),
    postbacks: new PostbacksRepository(database),
    products: new ProductsRepository(database),
    reconciliations: new ReconciliationsRepository(database),
    rollups: new RollupsRepository(database),
    subIdFigures: new SubIdFiguresRepository(database),
    tagInstall: new TagInstallRepository(database),
    settings: new SettingsRepository(database),
    statements: new StatementsRepository(database),
    scheduledTasks: new ScheduledTasksRepository(database),
    secondFactors: new SecondFactorsRepository(database),
    users: new UsersRepository(database),
    viewSessions: new ViewSessionsRepository(database),
    webhooks: new WebhooksRepository(database),
  };
}

export type Repositories = ReturnType<typeof openRepositories>;
