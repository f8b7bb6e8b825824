// Decides which clicks exceed the velocity limit: more than `limit` clicks from one client address
// on one link within an hour, whatever user agents they claim (rotating user agents would
// otherwise make every click a new visitor). Only clicks that would otherwise count are asked
// about, so bots, HEAD requests and repeats never use up an address's budget.
// In memory for one instance; in Redis (INCR + PEXPIRE NX per address and link) when instances
// share the work. If Redis is away, the local window decides, so clicks are never held back.
import type { RedisConnection } from '../../storage/redis.js';
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

/**
 * One counter per (link, address) whose expiry is set by the click that creates it (PEXPIRE NX,
 * Redis 7 or newer), so the window starts at the address's first click on the link, as in memory.
 * One pipeline per click batch.
 */
export function redisVelocityFilter(redis: RedisConnection, limit: number, onError: (error: unknown) => void, windowMs = VELOCITY_WINDOW_MS): VelocityFilter {
  const fallback = memoryVelocityFilter(limit, windowMs);
  return {
    async exceeded(candidates) {
      if (candidates.length === 0 || limit === 0) return candidates.map(() => false);
      try {
        const pipeline = redis.client.pipeline();
        for (const c of candidates) {
          const key = `${redis.prefix}velocity:${c.linkId}:${c.address}`;
          pipeline.incr(key);
          pipeline.pexpire(key, windowMs, 'NX');
        }
        const results = (await pipeline.exec()) ?? [];
        for (const [error] of results) if (error) throw error;
        return candidates.map((_, i) => Number(results[2 * i]![1]) > limit);
      } catch (error) {
        onError(error);
        return fallback.exceeded(candidates);
      }
    },
  };
}
