import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { createConversionRoute } from './conversion-create.js';
import { updateConversionRoute } from './conversion-update.js';
import { listConversionsRoute } from './conversions-list.js';
import { getConversionRoute } from './conversion-get.js';

/** Endpoints for brands (advertisers), authenticated with brand keys. */
export const advertiserRoutes: Array<(app: App, services: ServingServices) => void> = [createConversionRoute, updateConversionRoute, listConversionsRoute, getConversionRoute];
