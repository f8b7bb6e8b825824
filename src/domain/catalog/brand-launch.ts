// A brand that joined through an application starts out of affiliates' sight, refusing links: its
// owner first sets a commission and adds a product or a campaign, then launches it. Brands made
// otherwise (imports, the demo) are launched from the start. Whether its tracking is installed is
// shown beside the steps but never holds the launch: a brand may launch first and install after.
import type { Clock } from '../../lib/clock.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import { conflict, notFound } from '../errors.js';

export interface LaunchState {
  /** Affiliates see the brand and its links work. */
  launched: boolean;
  /** What launching needs, each done or not; tracking is shown, not needed. */
  steps: { commission: boolean; catalogue: boolean; tracking: boolean };
}

export class BrandLaunch {
  constructor(
    private readonly repositories: { brands: BrandsRepository },
    private readonly clock: Clock,
  ) {}

  async state(brandId: string): Promise<LaunchState> {
    const setup = await this.repositories.brands.setupOf(brandId);
    if (!setup) throw notFound('brand not found', 'brand_not_found');
    const tracking = await this.repositories.brands.trackingSeen(brandId);
    return { launched: setup.setup_pending === 0, steps: { commission: setup.setup_pending === 0 || setup.commission_value > 0, catalogue: setup.setup_pending === 0 || setup.has_catalogue, tracking } };
  }

  /** Launches the brand once its steps are done; launching a launched brand changes nothing. */
  async launch(brandId: string): Promise<LaunchState> {
    const state = await this.state(brandId);
    if (state.launched) return state;
    const missing = [...(state.steps.commission ? [] : ['set a commission (PATCH /advertiser/brand)']), ...(state.steps.catalogue ? [] : ['add a product or a campaign'])];
    if (missing.length > 0) throw conflict('brand_not_ready', `Before affiliates can see your brand: ${missing.join(', and ')}`);
    await this.repositories.brands.launch(brandId, this.clock.iso());
    return this.state(brandId);
  }
}
