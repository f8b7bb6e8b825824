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

// One counter as a hash {count, ends}. The window's end is the service's clock (passed in), not
// Redis's: the instances agree on it as they agree on time, and a service run on a test clock holds
// and frees as that clock says. Redis's own expiry only clears the key, a minute after the end.
const COUNT_IN_WINDOW = `
local now, window, by = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends'))
if ends == nil or ends <= now then
  if by <= 0 then return {0, 0} end
  ends = now + window
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'ends', ends)
  redis.call('PEXPIRE', KEYS[1], window + 60000)
end
if by == 0 then return {tonumber(redis.call('HGET', KEYS[1], 'count')) or 0, ends - now} end
return {redis.call('HINCRBY', KEYS[1], 'count', by), ends - now}
`;

/**
 * Adds `by` to a counter whose window starts with its first count: the count and the time left, in
 * ms, both at `now`. `by` 0 only reads (a counter that is not there is 0, and stays absent).
 */
export async function countInWindow(redis: RedisConnection, key: string, windowMs: number, by = 1, now = Date.now()): Promise<{ count: number; resetInMs: number }> {
  const [count, resetInMs] = (await redis.client.eval(COUNT_IN_WINDOW, 1, `${redis.prefix}${key}`, now, windowMs, by)) as [number, number];
  return { count, resetInMs };
}
