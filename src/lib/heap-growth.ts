// How far V8 lets a heap grow past what its last full collection kept. V8 picks the factor itself,
// up to four times the live heap when the process is busy; under redirect load the serving
// thread promotes about 450 bytes a request to its old space, which then held three times its
// live objects in garbage before a full collection ran: most of the service's peak RSS.
// A fixed factor bounds that garbage at a share of the live heap, for a few more full collections
// (each a few milliseconds, mostly on V8's helper threads).
import { setFlagsFromString } from 'node:v8';

/**
 * Lets each heap of this process (the serving thread's and its workers') grow to (1 + percent/100)
 * times the live heap before the next full collection; 0 leaves V8's own choice. Call it before
 * the heaps fill: the flag is read at each collection.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
