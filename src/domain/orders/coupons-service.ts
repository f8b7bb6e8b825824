// Coupon codes brands give affiliates: a conversion reported with one goes to its affiliate (see
// attribution.ts). A code is unique per brand without case; it may be the code of one of the
// brand's PersonalCoupon campaigns, never a GenericCoupon's (a public code belongs to no one
// affiliate). The affiliate must be in the brand's programme: any affiliate for a public brand,
// an approved one for a private brand.
import type { AffiliateCoupon, BrandCoupon, CouponInput } from '../../schemas/coupon.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { CampaignsRepository } from '../../storage/repositories/campaigns.js';
import type { CouponOwner, CouponsRepository } from '../../storage/repositories/coupons.js';
import type { CouponRow } from '../../storage/tables.js';
import { invalid, notFound, unacceptable } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { COUPON_CODE_RULE, couponKeyOf, isCouponCode } from './coupon-codes.js';

export interface CouponRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  campaigns: CampaignsRepository;
  coupons: CouponsRepository;
}

function brandCouponOf(row: CouponRow, names: ReadonlyMap<string, string>): BrandCoupon {
  const name = names.get(row.affiliate_id);
  return {
    code: row.code,
    affiliateId: row.affiliate_id,
    ...(name !== undefined && { affiliateName: name }),
    ...(row.campaign_id !== null && { campaignId: row.campaign_id }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const notYourCode = (code: string) => notFound(`coupon "${code}" is not among your coupon codes`, 'coupon_not_found');

export class CouponsService {
  constructor(
    private readonly repositories: CouponRepositories,
    private readonly clock: Clock,
  ) {}

  /** The brand gives `code` to an affiliate (or gives it to another): created (true) or replaced (false). */
  async give(brandId: string, code: string, input: CouponInput): Promise<{ created: boolean; coupon: BrandCoupon }> {
    const { brands, affiliates, coupons } = this.repositories;
    if (!isCouponCode(code)) throw invalid('invalid_coupon_code', `coupon code "${code}" is not valid: use ${COUPON_CODE_RULE}`);
    const key = couponKeyOf(code);
    const brand = await brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    if (!(await affiliates.exists(input.affiliateId))) throw unacceptable('affiliate_not_found', `affiliateId "${input.affiliateId}" is no affiliate of the network`);
    if (brand.is_public !== 1 && !(await brands.isApproved(input.affiliateId, brandId))) {
      throw unacceptable('affiliate_not_approved', `affiliate "${input.affiliateId}" is not approved for your brand (private brands give codes to the affiliates they approved): approve it first (POST /advertiser/affiliates/{id}/approval)`);
    }
    const campaignId = await this.campaignOf(brandId, code, key, input.campaignId);
    const now = this.clock.iso();
    const created = await coupons.put({ organization_id: brandId, code_key: key, code, affiliate_id: input.affiliateId, campaign_id: campaignId, created_at: now, updated_at: now });
    const row = (await coupons.find(brandId, key))!;
    return { created, coupon: brandCouponOf(row, await affiliates.namesOf([row.affiliate_id])) };
  }

  /** The PersonalCoupon campaign the code belongs to (the one named, or the one with that code), if any; a GenericCoupon's code is refused. */
  private async campaignOf(brandId: string, code: string, key: string, campaignId: string | undefined): Promise<string | null> {
    const { campaigns } = this.repositories;
    const generic = (await campaigns.withCode(brandId, key)).filter((c) => c.type === 'GenericCoupon');
    if (generic.length > 0) {
      throw invalid('public_coupon_code', `coupon "${code}" is the code of your GenericCoupon campaign "${generic[0]!.id}", a public code any customer may use: it cannot belong to one affiliate; choose another code, or make the campaign a PersonalCoupon`);
    }
    if (campaignId === undefined) {
      const personal = (await campaigns.withCode(brandId, key)).find((c) => c.type === 'PersonalCoupon');
      return personal?.id ?? null;
    }
    const campaign = await campaigns.find(brandId, campaignId);
    if (!campaign) throw unacceptable('campaign_not_found', `campaignId "${campaignId}" is not one of your campaigns`);
    if (campaign.type !== 'PersonalCoupon') throw invalid('not_personal_coupon', `campaign "${campaignId}" is a ${campaign.type}: only a PersonalCoupon campaign's code can be given to one affiliate`);
    if (couponKeyOf(campaign.code ?? '') !== key) {
      throw invalid('coupon_code_mismatch', `campaign "${campaignId}" has code "${campaign.code ?? ''}", not "${code}": use its code in the path, or leave campaignId out`);
    }
    return campaign.id;
  }

  /** The brand's codes, by code, optionally one affiliate's. */
  async listOfBrand(brandId: string, filters: { affiliateId?: string | undefined }, page: PageRequest): Promise<Paged<BrandCoupon>> {
    const owner: CouponOwner = filters.affiliateId === undefined ? { brandId } : { brandId, affiliateId: filters.affiliateId };
    const { rows, total } = await this.repositories.coupons.list(owner, offsetOf(page));
    const names = await this.repositories.affiliates.namesOf([...new Set(rows.map((r) => r.affiliate_id))]);
    return { items: rows.map((row) => brandCouponOf(row, names)), total };
  }

  /** The brand takes a code back: orders already placed with it stay its affiliate's. */
  async remove(brandId: string, code: string): Promise<void> {
    if (!(await this.repositories.coupons.remove(brandId, couponKeyOf(code)))) throw notYourCode(code);
  }

  /** The codes brands gave the affiliate, by brand then code: its own only. */
  async listOfAffiliate(affiliateId: string, page: PageRequest): Promise<Paged<AffiliateCoupon>> {
    const { rows, total } = await this.repositories.coupons.list({ affiliateId }, offsetOf(page));
    const brands = await Promise.all([...new Set(rows.map((r) => r.organization_id))].map((id) => this.repositories.brands.standingOf(id)));
    const names = new Map(brands.filter((b) => b !== undefined).map((b) => [b.id, b.name]));
    return {
      items: rows.map((row) => {
        const brandName = names.get(row.organization_id);
        return {
          code: row.code,
          organizationId: row.organization_id,
          ...(brandName !== undefined && { brandName }),
          ...(row.campaign_id !== null && { campaignId: row.campaign_id }),
          createdAt: row.created_at,
        };
      }),
      total,
    };
  }
}
