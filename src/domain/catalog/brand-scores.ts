// The network's scores of each brand (network.rating), computed hourly from the last 90 days of
// orders and the daily click rollups. The formulas are in docs/decisions.md ("Programme scores");
// every score is an exact fraction rounded half up to tenths, in integers, so money never meets a
// float. A brand with fewer orders than the minimum gets no scores (the API leaves them out).
import type { Repositories } from '../../storage/repositories/index.js';
import type { BrandClickFacts, BrandOrderFacts, BrandScoreColumns } from '../../storage/repositories/brand-scores.js';
import type { Clock } from '../../lib/clock.js';

const DAY_MS = 86_400_000;
export const SCORE_WINDOW_DAYS = 90;
/** The days to decision at which the validation score is half of 5. */
const VALIDATION_HALF_DAYS = 30;

/** Which rating a bit of brands.ratings_absent stands for. */
export const RATING_BITS = { approval: 1, commission: 2, conversion: 4, popularity: 8, validation: 16 } as const;
export type RatingName = keyof typeof RATING_BITS;
const ALL_ABSENT = Object.values(RATING_BITS).reduce((a, b) => a | b, 0);

/** num / den rounded half up, for non-negative integers (BigInt: sums of cents times 100 stay exact). */
export function halfUp(num: number | bigint, den: number | bigint): number {
  const n = BigInt(num);
  const d = BigInt(den);
  return Number((2n * n + d) / (2n * d));
}

/** The first moment of the window ending at `now`: 00:00 UTC of the 90th day back, today included. */
export function windowStart(now: number): string {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return new Date(today - (SCORE_WINDOW_DAYS - 1) * DAY_MS).toISOString();
}

export interface ScoresSummary {
  scored: number;
  withoutScores: number;
}

export class BrandScores {
  constructor(
    private readonly repositories: Pick<Repositories, 'brandScores'>,
    private readonly clock: Clock,
    private readonly minOrders: number,
  ) {}

  async run(): Promise<ScoresSummary> {
    const repo = this.repositories.brandScores;
    const now = this.clock.iso();
    const since = windowStart(this.clock.now());
    const [brands, orderFacts, decisions, clickFacts] = await Promise.all([repo.brands(), repo.orderFacts(since), repo.decisionTimes(since), repo.clickFacts(since)]);
    const orders = new Map(orderFacts.map((f) => [f.brandId, f]));
    const clicks = new Map(clickFacts.map((f) => [f.brandId, f]));
    const waits = new Map<string, number[]>();
    for (const d of decisions) {
      const seconds = Math.max(0, Math.floor((Date.parse(d.decidedAt) - Date.parse(d.reportedAt)) / 1000));
      const list = waits.get(d.brandId) ?? [];
      list.push(seconds);
      waits.set(d.brandId, list);
    }
    const enough = (f: BrandOrderFacts | undefined): f is BrandOrderFacts => f !== undefined && f.orders >= this.minOrders;
    // Peers for the commission score: brands with enough data, by currency.
    const averages = new Map<string, number[]>();
    for (const f of orderFacts.filter(enough)) {
      const list = averages.get(f.currency) ?? [];
      list.push(averageCommission(f));
      averages.set(f.currency, list);
    }
    for (const list of averages.values()) list.sort((a, b) => a - b);
    const busiest = Math.max(0, ...clickFacts.map((f) => f.affiliates));
    let scored = 0;
    for (const brand of brands) {
      const facts = orders.get(brand.id);
      const columns = enough(facts)
        ? scoresOf(facts, clicks.get(brand.id), waits.get(brand.id) ?? [], averages.get(facts.currency)!, busiest, now)
        : unscored(now);
      if (enough(facts)) scored++;
      await repo.save(brand.id, columns);
    }
    return { scored, withoutScores: brands.length - scored };
  }
}

/** The average commission of a paying order, in cents rounded half up; 0 without one. */
function averageCommission(f: BrandOrderFacts): number {
  return f.paying === 0 ? 0 : halfUp(f.commission, f.paying);
}

/** The median of sorted integers as a fraction [numerator, denominator] (the mean of the middle two when even). */
function median(sorted: readonly number[]): [number, number] {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? [sorted[mid]!, 1] : [sorted[mid - 1]! + sorted[mid]!, 2];
}

function scoresOf(
  f: BrandOrderFacts,
  clicks: BrandClickFacts | undefined,
  waits: number[],
  peerAverages: readonly number[],
  busiest: number,
  now: string,
): BrandScoreColumns {
  const tenths: Partial<Record<RatingName, number>> = {};
  const decided = f.approved + f.canceled;
  if (decided > 0) tenths.approval = halfUp(50 * f.approved, decided);
  // 2.5 × (average / median), capped at 5: the median brand scores 2.5, twice the median or more 5.
  const [medNum, medDen] = median(peerAverages);
  if (medNum > 0) tenths.commission = Math.min(50, halfUp(25n * BigInt(averageCommission(f)) * BigInt(medDen), medNum));
  const counted = clicks?.counted ?? 0;
  // One point per click-attributed order per 100 counted clicks, capped at 5 (5 % and more).
  if (counted > 0) tenths.conversion = Math.min(50, halfUp(1000 * f.clickOrders, counted));
  // 5 × affiliates / the busiest brand's affiliates.
  tenths.popularity = busiest === 0 ? 0 : halfUp(50 * (clicks?.affiliates ?? 0), busiest);
  let medianSeconds: number | null = null;
  if (waits.length > 0) {
    const [num, den] = median([...waits].sort((a, b) => a - b));
    medianSeconds = halfUp(num, den);
    // 5 × 30 / (30 + days): 5 when decided at once, 2.5 at 30 days, 1 at 120.
    const half = VALIDATION_HALF_DAYS * 86_400;
    tenths.validation = halfUp(50 * half, half + medianSeconds);
  }
  let absent = 0;
  for (const [name, bit] of Object.entries(RATING_BITS)) if (tenths[name as RatingName] === undefined) absent |= bit;
  return {
    rating_approval: (tenths.approval ?? 0) / 10,
    rating_commission: (tenths.commission ?? 0) / 10,
    rating_conversion: (tenths.conversion ?? 0) / 10,
    rating_popularity: (tenths.popularity ?? 0) / 10,
    rating_validation: (tenths.validation ?? 0) / 10,
    ratings_absent: absent,
    epc_cents: counted > 0 ? halfUp(100n * BigInt(f.commission), counted) : null,
    median_decision_seconds: medianSeconds,
    scores_computed_at: now,
  };
}

function unscored(now: string): BrandScoreColumns {
  return {
    rating_approval: 0,
    rating_commission: 0,
    rating_conversion: 0,
    rating_popularity: 0,
    rating_validation: 0,
    ratings_absent: ALL_ABSENT,
    epc_cents: null,
    median_decision_seconds: null,
    scores_computed_at: now,
  };
}
