// How large the serving thread's young generation (V8's new space: two semi-spaces) may grow.
// Under redirect load V8 doubles it up to 32 MB, all of it resident, although nearly everything
// allocated there is garbage within a request. The cap is usually a start flag
// (--max-semi-space-size), which every way of starting the service would have to carry; instead
// the growth factor, which V8 reads each time it grows the new space, is set to 1 once the new
// space has reached the cap, and back to 2 should V8 have shrunk it below (after idling).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const MB = 1024 * 1024;

/** The cap in force, in bytes; 0: none. */
let capBytes = 0;

/** The new space's size now, in bytes (both semi-spaces). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Sets the growth factor for the cap in force. Again after every collection, and after a worker
 * thread starts: V8 puts a factor below 2 back to 2 whenever it sets up a heap, a worker's too.
 */
export function keepYoungGenerationCap(): void {
  if (capBytes > 0) setFlagsFromString(`--semi-space-growth-factor=${youngGenerationBytes() >= capBytes ? 1 : 2}`);
}

/**
 * Keeps this thread's young generation at most `mb` MB (both semi-spaces; V8 grows them in powers
 * of two, so a power of two is met exactly) from now on; 0 leaves V8's own limit. The flag is the
 * process's, but worker threads are started with a limit of their own (resourceLimits), which it
 * does not change. Returns a function that stops watching.
 */
export function capYoungGeneration(mb: number): () => void {
  if (mb <= 0) return () => {};
  capBytes = mb * MB;
  keepYoungGenerationCap();
  // Told after each collection, which is when V8 grows or shrinks the new space.
  const observer = new PerformanceObserver(keepYoungGenerationCap);
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    capBytes = 0;
  };
}
