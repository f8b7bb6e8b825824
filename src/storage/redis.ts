// Redis, when REDIS_URL is set: what several instances must share (rate-limit counters, the
// repeat-click window, cache invalidation messages). Commands fail fast while Redis is away
// (no offline queue) so a request never waits on it; the connection heals by itself.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

// Loaded only when REDIS_URL is set: the client takes a sixth of a cold start to load.
const loadRedis = () => (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;

export interface RedisConnection {
  client: Redis;
  /** Every key and channel of this deployment starts with it (REDIS_PREFIX). */
  prefix: string;
  /** A second connection in subscriber mode, created on first use. */
  subscriber(): Redis;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const retryStrategy = (attempt: number) => Math.min(attempt * 100, 1000);

export function openRedis(url: string, prefix: string): RedisConnection {
  const Redis = loadRedis();
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy, connectTimeout: 2000 });
  // Without a listener ioredis would report every failed reconnect as an unhandled error.
  client.on('error', () => {});
  let subscriber: Redis | undefined;
  return {
    client,
    prefix,
    subscriber() {
      if (!subscriber) {
        // The subscriber keeps its offline queue: SUBSCRIBE waits for the connection and is
        // replayed after every reconnect.
        subscriber = new Redis(url, { retryStrategy, connectTimeout: 2000, maxRetriesPerRequest: null });
        subscriber.on('error', () => {});
      }
      return subscriber;
    },
    async ping() {
      await client.ping();
    },
    async close() {
      client.disconnect();
      subscriber?.disconnect();
    },
  };
}
