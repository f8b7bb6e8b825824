// Changes that in-process caches must hear about at once: a link (de)activated, a key revoked.
// With Redis, every instance hears them through pub/sub; without it, only this process (other
// processes' caches still see the change within seconds: keys expire, link caches poll for
// changed links).
import type { RedisConnection } from '../storage/redis.js';

export type Invalidation = { kind: 'link'; code: string } | { kind: 'keys' };

export interface InvalidationBus {
  publish(message: Invalidation): Promise<void>;
  subscribe(handler: (message: Invalidation) => void): Promise<void>;
}

export function localBus(): InvalidationBus {
  const handlers: Array<(message: Invalidation) => void> = [];
  return {
    async publish(message) {
      for (const handler of handlers) handler(message);
    },
    async subscribe(handler) {
      handlers.push(handler);
    },
  };
}

export function redisBus(redis: RedisConnection): InvalidationBus {
  const channel = `${redis.prefix}invalidate`;
  return {
    async publish(message) {
      await redis.client.publish(channel, JSON.stringify(message));
    },
    async subscribe(handler) {
      const subscriber = redis.subscriber();
      subscriber.on('message', (from: string, text: string) => {
        if (from !== channel) return;
        try {
          handler(JSON.parse(text) as Invalidation);
        } catch {
          // A malformed message is ignored; caches expire on their own anyway.
        }
      });
      await subscriber.subscribe(channel);
    },
  };
}
