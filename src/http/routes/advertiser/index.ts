import type { App, AppContext } from '../../context.js';
import { createConversionRoute } from './conversion-create.js';
import { updateConversionRoute } from './conversion-update.js';

/** Endpoints for brands (advertisers), authenticated with brand keys. */
export const advertiserRoutes: Array<(app: App, ctx: AppContext) => void> = [createConversionRoute, updateConversionRoute];
