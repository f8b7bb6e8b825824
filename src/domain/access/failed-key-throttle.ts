// Guessing keys: every request that presents an API key or postback token that resolves to nothing
// counts against its client address, in a fixed window that starts with the first failure; past
// the limit, such requests answer 429 until the window ends. A working key is never refused by
// this rule, so people behind one shared address keep working while someone there guesses, and a
// request without any key does not count (it guesses nothing). The count is shared through Redis
// when it is configured, so spreading guesses over instances gains nothing; while Redis is away
// each instance counts alone.
import { RecentMap } from '../../lib/recent-map.js';

export interface WindowCount {
  /** Failures counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetInMs: number;
}

/**
 * Adds `by` (one unless told) to `key`'s counter, whose window of `windowMs` starts with its first
 * count. `by` 0 only reads: a counter that is not there answers count 0 and is not started (nor
 * is it by a negative `by`, which takes counts back).
 */
export type WindowCounter = (key: string, windowMs: number, by?: number) => Promise<WindowCount>;

export interface FailedKeyThrottle {
  /** Counts a failed attempt from `address`: the milliseconds it must wait when past the limit, else 0. */
  failed(address: string): Promise<number>;
}

/** Addresses whose counts one instance keeps at most (the most recently seen). */
const LOCAL_ADDRESSES = 100_000;

export function memoryWindowCounter(now: () => number = Date.now): WindowCounter {
  const windows = new RecentMap<string, { count: number; endsAt: number }>(LOCAL_ADDRESSES);
  return async (key, windowMs, by = 1) => {
    const at = now();
    let window = windows.get(key);
    if (!window || window.endsAt <= at) {
      if (by <= 0) return { count: 0, resetInMs: 0 };
      windows.set(key, (window = { count: 0, endsAt: at + windowMs }));
    }
    window.count += by;
    return { count: window.count, resetInMs: window.endsAt - at };
  };
}

/** `name` keeps each rule's counters apart (invalid keys, sign-ins per account, per address). */
export function failedKeyThrottle(limit: number, windowMs: number, counter: WindowCounter, name = 'failed-key'): FailedKeyThrottle {
  return {
    async failed(address) {
      const { count, resetInMs } = await counter(`${name}:${address}`, windowMs);
      return count > limit ? Math.max(1, resetInMs) : 0;
    },
  };
}

/** The shared counter while it answers; this instance's own while it does not. */
export function failoverWindowCounter(shared: WindowCounter, onError: (error: unknown) => void, now: () => number = Date.now): WindowCounter {
  const local = memoryWindowCounter(now);
  return (key, windowMs, by) =>
    shared(key, windowMs, by).catch((error: unknown) => {
      onError(error);
      return local(key, windowMs, by);
    });
}
