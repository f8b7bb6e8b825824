// Decides which clicks exceed the velocity limit: more than `limit` clicks from one client address
// on one link within an hour, whatever user agents they claim (rotating user agents would
// otherwise make every click a new visitor). Only clicks that would otherwise count are asked
// about, so bots, HEAD requests and repeats never use up an address's budget.
// In memory for one instance; in counters shared through Redis when instances share the work. If
// Redis is away, the local window decides, so clicks are never held back.
import { VelocityWindow } from './click-filter.js';

/** The velocity window: an address's budget on a link is renewed an hour after its first click. */
export const VELOCITY_WINDOW_MS = 3_600_000;

export interface VelocityCandidate {
  linkId: string;
  /** Salted hash of the client address (addressHash), never the address itself. */
  address: string;
  /** Epoch milliseconds of the click. */
  at: number;
}

export interface VelocityFilter {
  /** For each candidate, in order: true when it is past the limit of its address on its link. */
  exceeded(candidates: VelocityCandidate[]): Promise<boolean[]>;
}

/** `limit` 0 turns the rule off. */
export function memoryVelocityFilter(limit: number, windowMs = VELOCITY_WINDOW_MS): VelocityFilter {
  if (limit === 0) return { exceeded: async (candidates) => candidates.map(() => false) };
  const window = new VelocityWindow(limit, windowMs);
  return { exceeded: async (candidates) => candidates.map((c) => window.exceeded(c.linkId, c.address, c.at)) };
}

/** Counters shared by the instances: adds one to each key's counter (living `windowMs` from its first use); the counts after. */
export type SharedCounters = (keys: string[], windowMs: number) => Promise<number[]>;

/**
 * One shared counter per (link, address) whose life starts with the address's first click on the
 * link, as in memory; this instance's own window while the shared one does not answer.
 */
export function sharedVelocityFilter(counters: SharedCounters, limit: number, onError: (error: unknown) => void, windowMs = VELOCITY_WINDOW_MS): VelocityFilter {
  const fallback = memoryVelocityFilter(limit, windowMs);
  return {
    async exceeded(candidates) {
      if (candidates.length === 0 || limit === 0) return candidates.map(() => false);
      try {
        const counts = await counters(candidates.map((c) => `velocity:${c.linkId}:${c.address}`), windowMs);
        return counts.map((n) => n > limit);
      } catch (error) {
        onError(error);
        return fallback.exceeded(candidates);
      }
    },
  };
}
