// Messages to every instance through Redis pub/sub, as JSON on one channel of the deployment.
import type { RedisConnection } from './redis.js';

export interface MessageChannel<T> {
  publish(message: T): Promise<void>;
  /** Calls `handler` with every message; malformed ones are dropped. */
  subscribe(handler: (message: T) => void): Promise<void>;
}

export function redisChannel<T>(redis: RedisConnection, name: string): MessageChannel<T> {
  const channel = `${redis.prefix}${name}`;
  return {
    async publish(message) {
      await redis.client.publish(channel, JSON.stringify(message));
    },
    async subscribe(handler) {
      const subscriber = redis.subscriber();
      subscriber.on('message', (from: string, text: string) => {
        if (from !== channel) return;
        try {
          handler(JSON.parse(text) as T);
        } catch {
          // A malformed message is dropped; caches expire or poll on their own anyway.
        }
      });
      await subscriber.subscribe(channel);
    },
  };
}
