// Decides which clicks are repeats of the same visitor on the same link within the window.
// In memory for one instance; in a window shared through Redis when instances share the work. If Redis is
// away, the local window decides, so clicks are never held back or lost.
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

/** A window shared by the instances: for each key, whether it was already seen within `windowMs`. */
export type SharedSeen = (keys: string[], windowMs: number) => Promise<boolean[]>;

/** The shared window when it answers; this instance's own window while it does not. */
export function sharedRepeatFilter(seen: SharedSeen, windowMs: number, onError: (error: unknown) => void): RepeatFilter {
  const fallback = memoryRepeatFilter(windowMs);
  return {
    async repeats(candidates) {
      if (candidates.length === 0 || windowMs === 0) return candidates.map(() => false);
      try {
        return await seen(candidates.map((c) => `seen:${c.linkId}:${c.visitor}`), windowMs);
      } catch (error) {
        onError(error);
        return fallback.repeats(candidates);
      }
    },
  };
}
