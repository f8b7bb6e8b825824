import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { decideApplicationRoute, decideApplicationsRoute, getApplicationRoute, listApplicationsRoute } from './applications.js';
import { exportAuditRoute, listAuditRoute } from './audit.js';
import { memberRoutes, setBrandTermsRoute } from './members.js';
import { decideHoldsRoute, listHoldsRoute } from './holds.js';
import { issueStatementsRoute, listStatementsRoute, recordPaymentRoute } from './statements.js';
import { createPayoutRunRoute, exportPayoutRunRoute, getPayoutRunRoute, listPayoutRunsRoute, settlePayoutRunRoute } from './payout-runs.js';
import { createAdjustmentRoute, listAdjustmentsRoute } from './adjustments.js';
import { ledgerCheckRoute, trialBalanceRoute } from './ledger.js';
import { exportFiguresRoute, getFiguresRoute } from './figures.js';

/** Every operator endpoint: a signed-in operator's session only. */
export const operatorRoutes: Array<(app: App, services: ServingServices) => void> = [
  listApplicationsRoute,
  getApplicationRoute,
  decideApplicationRoute,
  decideApplicationsRoute,
  listAuditRoute,
  exportAuditRoute,
  ...memberRoutes('affiliate'),
  ...memberRoutes('brand'),
  setBrandTermsRoute,
  listHoldsRoute,
  decideHoldsRoute,
  listStatementsRoute,
  issueStatementsRoute,
  recordPaymentRoute,
  listPayoutRunsRoute,
  getPayoutRunRoute,
  createPayoutRunRoute,
  exportPayoutRunRoute,
  settlePayoutRunRoute,
  listAdjustmentsRoute,
  createAdjustmentRoute,
  ledgerCheckRoute,
  trialBalanceRoute,
  getFiguresRoute,
  exportFiguresRoute,
];
