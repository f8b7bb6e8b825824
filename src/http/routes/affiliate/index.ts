import { getOrderCommissionRoute } from './order-commission.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { listBrandsRoute } from './brands-list.js';
import { getBrandRoute } from './brand-get.js';
import { getBrandCommissionRulesRoute } from './brand-commission-rules.js';
import { getBrandProductEarningsRoute } from './brand-product-earnings.js';
import { listProductsRoute } from './products-list.js';
import { productFeedCsvRoute, productFeedXmlRoute } from './product-feeds.js';
import { listCampaignsRoute } from './campaigns-list.js';
import { listAffiliateCouponsRoute } from './coupons-list.js';
import { createShortUrlRoute } from './shortener-create.js';
import { listShortUrlsRoute } from './shortener-list.js';
import { listOrdersRoute } from './orders-list.js';
import { getOrderRoute } from './order-get.js';
import { exportOrdersRoute } from './orders-export.js';
import { getBalanceRoute } from './balance-get.js';
import { listPayoutsRoute } from './payouts-list.js';
import { getPayoutRoute } from './payout-get.js';
import { getPayeeRoute } from './payee-get.js';
import { putPayeeRoute } from './payee-put.js';
import { listChannelsRoute } from './channels-list.js';
import { createChannelRoute } from './channel-create.js';
import { updateChannelRoute } from './channel-update.js';
import { deleteChannelRoute } from './channel-delete.js';
import { getLinkScriptRoute, putLinkScriptSitesRoute, replaceLinkKeyRoute } from './link-script.js';
import { webhookRoutes } from '../webhooks/index.js';
import { accountRoutes } from '../account/index.js';
import { requestApprovalRoute } from './approval-request.js';
import { createClaimRoute, listClaimsRoute } from './claims.js';
import { affiliateStatementCsvRoute, affiliateStatementPdfRoute, getAffiliateStatementRoute } from './statements.js';
import { analyticsRoutes } from '../analytics/index.js';
import { postbackRoutes } from './postbacks.js';

/** Every affiliate endpoint; each module owns its path, schema, scope and handler. */
export const affiliateRoutes: Array<(app: App, services: ServingServices) => void> = [
  listBrandsRoute,
  getBrandRoute,
  getBrandCommissionRulesRoute,
  getBrandProductEarningsRoute,
  listProductsRoute,
  productFeedCsvRoute,
  productFeedXmlRoute,
  listCampaignsRoute,
  listAffiliateCouponsRoute,
  createShortUrlRoute,
  listShortUrlsRoute,
  listOrdersRoute,
  getOrderRoute,
  getOrderCommissionRoute,
  exportOrdersRoute,
  getBalanceRoute,
  listPayoutsRoute,
  getPayoutRoute,
  getPayeeRoute,
  putPayeeRoute,
  listChannelsRoute,
  createChannelRoute,
  updateChannelRoute,
  deleteChannelRoute,
  getLinkScriptRoute,
  putLinkScriptSitesRoute,
  replaceLinkKeyRoute,
  requestApprovalRoute,
  createClaimRoute,
  listClaimsRoute,
  getAffiliateStatementRoute,
  affiliateStatementCsvRoute,
  affiliateStatementPdfRoute,
  ...webhookRoutes('affiliate'),
  ...postbackRoutes,
  ...accountRoutes('affiliate'),
  ...analyticsRoutes('affiliate'),
];
