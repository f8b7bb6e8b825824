// Commission in integer cents, never floating point.
// cps: value × rate, the rate in basis points; the result is rounded half up to the cent
// (e.g. 7.5 % of 1,999 cents = 149.925 → 150). cpa: the brand's fixed amount per order.
// This is the default rule alone (rules version 0), as explainCommission computes it without
// rules; the demo data uses it for the orders it writes.
import type { BrandRow } from '../../storage/tables.js';

export function commissionFor(brand: Pick<BrandRow, 'commission_transfer' | 'commission_value'>, orderValueCents: number): number {
  if (brand.commission_transfer === 'cpa') return brand.commission_value;
  // BigInt keeps value × basis points exact beyond 2^53.
  const product = BigInt(orderValueCents) * BigInt(brand.commission_value);
  return Number((product + 5_000n) / 10_000n);
}
