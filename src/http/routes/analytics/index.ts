import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { getAnalyticsRoute } from './analytics-get.js';
import { exportAnalyticsRoute } from './analytics-export.js';
import type { Side } from './query.js';

/** The analytics endpoints of one side, listed in that side's routes. */
export const analyticsRoutes = (side: Side): Array<(app: App, services: ServingServices) => void> => [getAnalyticsRoute(side), exportAnalyticsRoute(side)];
