// Bounded polling for effects that happen shortly after a request (buffered clicks, cache TTLs).
// Never asserts how long something took: it only gives up after `timeoutMs`.
import { sleep } from './api.js';

/**
 * Calls `probe` until `done(value)` holds or `timeoutMs` has passed (10 s by default: background
 * writes take seconds on a loaded two-core machine); returns the last value either way, so the
 * caller asserts on it (and the failure message shows what was seen last).
 */
export async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, options: { timeoutMs?: number; everyMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() >= deadline) return value;
    await sleep(options.everyMs ?? 25);
  }
}
