// Decides which clicks are repeats of the same visitor on the same link within the window.
// In memory for one instance; in Redis (SET NX PX) when instances share the work. If Redis is
// away, the local window decides, so clicks are never held back or lost.
import type { RedisConnection } from '../../storage/redis.js';
import { RepeatWindow } from './click-filter.js';

export interface RepeatCandidate {
  linkId: string;
  visitor: string;
  /** Epoch milliseconds of the click. */
  at: number;
}

export interface RepeatFilter {
  /** For each candidate, in order: true when it repeats an earlier click within the window. */
  repeats(candidates: RepeatCandidate[]): Promise<boolean[]>;
}

export function memoryRepeatFilter(windowMs: number): RepeatFilter {
  const window = new RepeatWindow(windowMs);
  return { repeats: async (candidates) => candidates.map((c) => window.seen(c.linkId, c.visitor, c.at)) };
}

export function redisRepeatFilter(redis: RedisConnection, windowMs: number, onError: (error: unknown) => void): RepeatFilter {
  const fallback = memoryRepeatFilter(windowMs);
  return {
    async repeats(candidates) {
      if (candidates.length === 0 || windowMs === 0) return candidates.map(() => false);
      try {
        const pipeline = redis.client.pipeline();
        for (const c of candidates) pipeline.set(`${redis.prefix}seen:${c.linkId}:${c.visitor}`, '1', 'PX', windowMs, 'NX');
        const results = (await pipeline.exec()) ?? [];
        return results.map(([error, reply]) => {
          if (error) throw error;
          return reply !== 'OK';
        });
      } catch (error) {
        onError(error);
        return fallback.repeats(candidates);
      }
    },
  };
}
