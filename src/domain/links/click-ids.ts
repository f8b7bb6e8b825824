// Click ids: unguessable, and increasing over time so stored clicks are appended, not scattered.
import { randomBytes } from 'node:crypto';
import { clickIdTimePrefix } from '../../lib/click-id-time.js';

let entropy = Buffer.alloc(0);
let entropyOffset = 0;

/**
 * 32 hex characters: the time in milliseconds (12) then 80 random bits (20), from the system
 * CSPRNG in pooled reads. Unguessable, and increasing over time, so stored click ids are appended
 * at the end of their index instead of scattered through it.
 */
export function newClickId(now: number): string {
  if (entropyOffset + 10 > entropy.length) {
    entropy = randomBytes(4096);
    entropyOffset = 0;
  }
  const random = entropy.toString('hex', entropyOffset, entropyOffset + 10);
  entropyOffset += 10;
  return clickIdTimePrefix(now) + random;
}
