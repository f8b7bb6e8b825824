// "Does it exist?" for the two parties every operation names, said in one place each.
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import { notFound } from '../errors.js';

/** Throws brand_not_found unless the brand exists. */
export async function requireBrand(brands: Pick<BrandsRepository, 'exists'>, brandId: string): Promise<void> {
  if (!(await brands.exists(brandId))) throw notFound(`brand "${brandId}" does not exist`, 'brand_not_found');
}

/** Throws affiliate_not_found unless the affiliate exists. */
export async function requireAffiliate(affiliates: Pick<AffiliatesRepository, 'exists'>, affiliateId: string): Promise<void> {
  if (!(await affiliates.exists(affiliateId))) throw notFound(`affiliate "${affiliateId}" does not exist`, 'affiliate_not_found');
}
