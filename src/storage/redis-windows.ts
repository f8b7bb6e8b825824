// Windows shared by every instance through Redis, for click decisions: "seen once" marks (SET NX PX:
// the first to set a key within the window wins) and counters that expire with their first use
// (INCR + PEXPIRE NX, Redis 7 or newer). One pipeline per batch; an error rejects the whole batch,
// and the caller decides what to do without Redis.
import type { RedisConnection } from './redis.js';

/** For each key, in order: true when it was already set within the window (this call set none of those). */
export async function markSeen(redis: RedisConnection, keys: string[], windowMs: number): Promise<boolean[]> {
  const pipeline = redis.client.pipeline();
  for (const key of keys) pipeline.set(`${redis.prefix}${key}`, '1', 'PX', windowMs, 'NX');
  const results = (await pipeline.exec()) ?? [];
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply !== 'OK';
  });
}

/** Adds one to each key's counter (created with the window as its life); the counts after, in order. */
export async function countUp(redis: RedisConnection, keys: string[], windowMs: number): Promise<number[]> {
  const pipeline = redis.client.pipeline();
  for (const key of keys) {
    pipeline.incr(`${redis.prefix}${key}`);
    pipeline.pexpire(`${redis.prefix}${key}`, windowMs, 'NX');
  }
  const results = (await pipeline.exec()) ?? [];
  for (const [error] of results) if (error) throw error;
  return keys.map((_, i) => Number(results[2 * i]![1]));
}

/**
 * Adds `by` to a counter whose window starts with its first count: the count and the time left, in
 * ms. `by` 0 only reads (a counter that is not there is 0, and stays absent).
 */
export async function countInWindow(redis: RedisConnection, key: string, windowMs: number, by = 1): Promise<{ count: number; resetInMs: number }> {
  const name = `${redis.prefix}${key}`;
  if (by === 0) {
    const read = (await redis.client.pipeline().get(name).pttl(name).exec()) ?? [];
    for (const [error] of read) if (error) throw error;
    const left = Number(read[1]?.[1]);
    return read[0]?.[1] === null || left <= 0 ? { count: 0, resetInMs: 0 } : { count: Number(read[0]?.[1]), resetInMs: left };
  }
  const results = (await redis.client.pipeline().incrby(name, by).pexpire(name, windowMs, 'NX').pttl(name).exec()) ?? [];
  for (const [error] of results) if (error) throw error;
  const ttl = Number(results[2]?.[1]);
  return { count: Number(results[0]?.[1]), resetInMs: ttl > 0 ? ttl : windowMs };
}
