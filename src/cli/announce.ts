// Tells running servers about a change made from the command line, so their caches drop it at
// once. Without Redis there is nobody to tell: their caches expire within seconds by themselves.
import type { Config } from '../config.js';
import type { Invalidation, InvalidationPublisher } from '../domain/invalidation.js';
import { openRedis } from '../storage/redis.js';
import { redisChannel } from '../storage/redis-messages.js';
import { INVALIDATION_CHANNEL } from '../domain/invalidation.js';

async function announce(redisUrl: string, prefix: string, message: Invalidation): Promise<void> {
  const redis = openRedis(redisUrl, prefix);
  try {
    await new Promise<void>((resolve, reject) => {
      if (redis.client.status === 'ready') return resolve();
      redis.client.once('ready', () => resolve());
      setTimeout(() => reject(new Error('Redis did not answer; running servers will see the change when their caches expire (a few seconds)')), 3000).unref();
    });
    await redisChannel<Invalidation>(redis, INVALIDATION_CHANNEL).publish(message);
  } catch (error) {
    process.stderr.write(`warning: ${(error as Error).message}\n`);
  } finally {
    await redis.close();
  }
}

/** The CLI's publisher: one short Redis connection per message, or nothing without Redis. */
export function announcer(config: Config): InvalidationPublisher {
  return {
    async publish(message) {
      if (config.redisUrl) await announce(config.redisUrl, config.redisPrefix, message);
    },
  };
}
