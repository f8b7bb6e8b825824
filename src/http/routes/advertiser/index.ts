import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { createConversionRoute } from './conversion-create.js';
import { updateConversionRoute } from './conversion-update.js';
import { listConversionsRoute } from './conversions-list.js';
import { getConversionRoute } from './conversion-get.js';
import { webhookRoutes } from '../webhooks/index.js';
import { accountRoutes } from '../account/index.js';
import { analyticsRoutes } from '../analytics/index.js';
import { listAffiliatesRoute } from './affiliates-list.js';
import { approveAffiliateRoute, revokeAffiliateRoute } from './affiliate-approval.js';
import { putProductRoute } from './product-put.js';
import { patchProductRoute } from './product-patch.js';
import { deleteProductRoute } from './product-delete.js';
import { putCampaignRoute } from './campaign-put.js';
import { patchCampaignRoute } from './campaign-patch.js';
import { deleteCampaignRoute } from './campaign-delete.js';
import { bulkProductsRoute } from './products-bulk.js';
import { listBrandProductsRoute } from './products-list.js';
import { listBrandCampaignsRoute } from './campaigns-list.js';
import { getBrandProfileRoute, patchBrandProfileRoute } from './brand-profile.js';
import { getBrandLaunchRoute, launchBrandRoute } from './brand-launch.js';
import { answerClaimRoute, listBrandClaimsRoute } from './claims.js';
import { deleteCouponRoute, listCouponsRoute, putCouponRoute } from './coupons.js';
import { getStatementRoute, listStatementsRoute, statementCsvRoute, statementPdfRoute } from './statements.js';

/** Endpoints for brands (advertisers), authenticated with brand keys. */
export const advertiserRoutes: Array<(app: App, services: ServingServices) => void> = [createConversionRoute, updateConversionRoute, listConversionsRoute, getConversionRoute, listAffiliatesRoute, approveAffiliateRoute, revokeAffiliateRoute, putProductRoute, patchProductRoute, deleteProductRoute, listBrandProductsRoute, listBrandCampaignsRoute, putCampaignRoute, patchCampaignRoute, deleteCampaignRoute, listCouponsRoute, putCouponRoute, deleteCouponRoute, bulkProductsRoute, getBrandProfileRoute, patchBrandProfileRoute, getBrandLaunchRoute, launchBrandRoute, listBrandClaimsRoute, answerClaimRoute, listStatementsRoute, getStatementRoute, statementCsvRoute, statementPdfRoute, ...webhookRoutes('brand'), ...accountRoutes('brand'), ...analyticsRoutes('brand')];
