// A bounded map for the in-process caches on the redirect path. Evicting a Map's oldest key one at
// a time (map.keys().next()) makes V8 walk over the holes that earlier deletions left at the
// front of its table: 69 µs per eviction at 50,000 entries against 2 µs for a plain set
// (measured), paid on every cache miss once the map is full.

/**
 * Holds at most `capacity` entries (or, given `weigh`, entries weighing at most `capacity` in all,
 * bytes say, give or take two entries) in two generations. New entries go to the current one; an
 * entry read from the previous one moves to the current one; when the current generation is full,
 * the previous one is dropped whole. Every operation takes constant time, and what is forgotten is
 * what was least recently used. Values must not be undefined (it means "absent").
 */
export class RecentMap<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private currentWeight = 0;
  private previousWeight = 0;
  private readonly generationWeight: number;

  constructor(
    capacity: number,
    private readonly weigh: (key: K, value: V) => number = () => 1,
  ) {
    this.generationWeight = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older); // moves it: set drops the previous generation's copy
    return older;
  }

  set(key: K, value: V): void {
    const replaced = this.current.get(key);
    if (replaced !== undefined) this.currentWeight -= this.weigh(key, replaced);
    else {
      this.dropPrevious(key);
      if (this.currentWeight >= this.generationWeight) this.rotate();
    }
    this.current.set(key, value);
    this.currentWeight += this.weigh(key, value);
  }

  /** The current generation becomes the previous one; the previous one is forgotten. */
  private rotate(): void {
    this.previous = this.current;
    this.previousWeight = this.currentWeight;
    this.current = new Map();
    this.currentWeight = 0;
  }

  delete(key: K): void {
    const value = this.current.get(key);
    if (value !== undefined) {
      this.current.delete(key);
      this.currentWeight -= this.weigh(key, value);
    }
    this.dropPrevious(key);
  }

  private dropPrevious(key: K): void {
    const older = this.previous.get(key);
    if (older !== undefined) {
      this.previous.delete(key);
      this.previousWeight -= this.weigh(key, older);
    }
  }

  clear(): void {
    this.current = new Map();
    this.previous = new Map();
    this.currentWeight = 0;
    this.previousWeight = 0;
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** The entries' weight in all (their count without `weigh`). */
  get weight(): number {
    return this.currentWeight + this.previousWeight;
  }
}
