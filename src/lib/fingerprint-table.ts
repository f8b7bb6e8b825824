// A bounded table of small numeric records keyed by strings, kept in typed arrays allocated once.
// The click windows hold hundreds of thousands of (link, visitor) pairs: as Map entries with
// string keys they cost about 240 bytes each and kept the heap (and RSS) climbing for as long as
// they filled; here an entry costs 8 bytes of fingerprint and 8 bytes per value, whatever the key,
// and the memory is the same from the first click on.

/** Two 32-bit hashes of a string (FNV-1a and a multiplicative mix of it), used together as a 64-bit fingerprint. */
function fingerprint(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // 0/0 marks an empty slot.
  return [a >>> 0, (b >>> 0) || 1];
}

/**
 * A generation is at most this full. Linear probing stays short at 0.6 (about 1.8 slots read to
 * find a key, 3.6 to miss one), and the slot count is not rounded up to a power of two: rounded,
 * 100,000 entries took 262,144 slots (38 % full), 1.6 times the memory for the same entries.
 */
const MAX_LOAD = 0.6;

/** One generation: open addressing with linear probing, at most MAX_LOAD full. */
class Generation {
  readonly high: Uint32Array;
  readonly low: Uint32Array;
  readonly values: Float64Array;
  size = 0;

  constructor(
    slots: number,
    private readonly width: number,
  ) {
    this.high = new Uint32Array(slots);
    this.low = new Uint32Array(slots);
    this.values = new Float64Array(slots * width);
  }

  /** The slot holding this fingerprint, or the empty slot where it would go (as -1 - slot). */
  probe(high: number, low: number): number {
    const slots = this.high.length;
    // The fingerprint's low half scaled onto the slots (exact: both factors are below 2^32).
    for (let slot = Math.floor((low * slots) / 2 ** 32); ; slot = slot + 1 === slots ? 0 : slot + 1) {
      const h = this.high[slot]!;
      const l = this.low[slot]!;
      if (h === high && l === low) return slot;
      if (h === 0 && l === 0) return -1 - slot;
    }
  }

  claim(emptySlot: number, high: number, low: number): number {
    this.high[emptySlot] = high;
    this.low[emptySlot] = low;
    this.size++;
    return emptySlot * this.width;
  }

  clear(): void {
    this.high.fill(0);
    this.low.fill(0);
    this.values.fill(0);
    this.size = 0;
  }
}

/**
 * Holds at most `maxEntries` records of `width` numbers each, in two generations like RecentMap:
 * new records go to the current one, a record read from the previous one moves to the current
 * one, and when the current one is full the previous one is forgotten whole. Keys are kept as
 * 64-bit fingerprints: two keys share a record only with a chance of about n²/2⁶⁵ (n = entries),
 * which callers must be able to afford (the click windows' keys are salted hashes, so nobody can
 * aim for a collision). Memory: 2 generations × maxEntries/2/MAX_LOAD slots × (8 + 8 × width) bytes.
 */
export class FingerprintTable {
  private current: Generation;
  private previous: Generation;
  private readonly generationSize: number;

  constructor(
    maxEntries: number,
    private readonly width = 1,
  ) {
    this.generationSize = Math.max(1, Math.floor(maxEntries / 2));
    const slots = Math.ceil(this.generationSize / MAX_LOAD);
    this.current = new Generation(slots, width);
    this.previous = new Generation(slots, width);
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return 2 * (this.current.high.byteLength + this.current.low.byteLength + this.current.values.byteLength);
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** The record's values (a copy), or undefined when the key has none. */
  get(key: string): number[] | undefined {
    const [high, low] = fingerprint(key);
    const slot = this.current.probe(high, low);
    if (slot >= 0) return this.read(this.current, slot);
    const older = this.previous.probe(high, low);
    if (older < 0) return undefined;
    const values = this.read(this.previous, older);
    this.write(high, low, values);
    return values;
  }

  /** Sets the key's record (values past those given are 0). */
  set(key: string, values: readonly number[]): void {
    const [high, low] = fingerprint(key);
    this.write(high, low, values);
  }

  private read(generation: Generation, slot: number): number[] {
    const at = slot * this.width;
    return Array.from(generation.values.subarray(at, at + this.width));
  }

  private write(high: number, low: number, values: readonly number[]): void {
    let slot = this.current.probe(high, low);
    if (slot < 0 && this.current.size >= this.generationSize) {
      const emptied = this.previous;
      emptied.clear();
      this.previous = this.current;
      this.current = emptied;
      slot = this.current.probe(high, low);
    }
    const at = slot >= 0 ? slot * this.width : this.current.claim(-1 - slot, high, low);
    for (let i = 0; i < this.width; i++) this.current.values[at + i] = values[i] ?? 0;
  }
}
