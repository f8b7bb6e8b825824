// Which clicks count: people, not machines. Every click is stored with these flags; only a click
// with none of them adds to a link's count.
import { hash } from 'node:crypto';
import { isbot } from 'isbot';
import { FingerprintTable } from '../../lib/fingerprint-table.js';

export interface ClickFlags {
  isBot: boolean;
  isHead: boolean;
  isRepeat: boolean;
  isSuspicious: boolean;
}

/**
 * SHA-256 in hex, truncated to 128 bits: plenty to tell visitors apart. One-shot `hash` rather than
 * a Hash object: every click takes two, and the object costs about as much as the digest.
 */
const sha256Hex128 = (text: string): string => hash('sha256', text, 'hex').slice(0, 32);

/** Hash of IP and user agent, salted, so repeat visits can be recognised without keeping the IP. */
export function visitorHash(salt: string, ip: string, userAgent: string): string {
  return sha256Hex128(`${salt}\u0000${ip}\u0000${userAgent}`);
}

/**
 * Hash of the client address alone, salted: what the velocity limit counts clicks per, whatever
 * user agent each click claims. Never the same as a visitor hash of that address.
 */
export function addressHash(salt: string, ip: string): string {
  return sha256Hex128(`${salt}\u0000address\u0000${ip}`);
}

/** Crawlers and link-preview fetchers (a maintained list), and requests with no user agent. */
export function isBotAgent(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

/**
 * Remembers when each visitor first clicked each link, to flag repeats within the window.
 * Bounded: past maxEntries the pairs seen least recently are forgotten first.
 */
export class RepeatWindow {
  private readonly firstSeen: FingerprintTable;

  constructor(
    private readonly windowMs: number,
    maxEntries = 200_000,
  ) {
    this.firstSeen = new FingerprintTable(maxEntries, 1);
  }

  /** True when this visitor already clicked this link within the window. Records the click. */
  seen(linkId: string, visitor: string, now: number): boolean {
    const key = `${linkId}:${visitor}`;
    const first = this.firstSeen.get(key)?.[0];
    if (first !== undefined && now - first < this.windowMs) return true;
    this.firstSeen.set(key, [now]);
    return false;
  }
}

/**
 * Counts the clicks of each client address on each link in windows of `windowMs` that start at
 * the address's first click on the link, to flag clicks past `limit` in a window. Bounded like
 * RepeatWindow: past maxEntries the pairs seen least recently are forgotten first.
 */
export class VelocityWindow {
  /** Per (link, address): the window's start and its clicks so far. */
  private readonly windows: FingerprintTable;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    maxEntries = 200_000,
  ) {
    this.windows = new FingerprintTable(maxEntries, 2);
  }

  /** Records a click of this address on this link; true when it is past the limit of its window. */
  exceeded(linkId: string, address: string, now: number): boolean {
    const key = `${linkId}:${address}`;
    const window = this.windows.get(key);
    const [start, clicks] = window !== undefined && now - window[0]! < this.windowMs ? window : [now, 0];
    this.windows.set(key, [start!, clicks! + 1]);
    return clicks! + 1 > this.limit;
  }
}
