// Changes that in-process caches must hear about at once: a link (de)activated, a key revoked, an
// affiliate or brand suspended or reactivated.
// With Redis, every instance hears them through pub/sub (a channel of src/storage/redis-messages.ts);
// without it, only this process (other processes' caches still see the change within seconds:
// keys expire, link caches poll for changed links).

/** The name of the channel invalidations travel on between instances. */
export const INVALIDATION_CHANNEL = 'invalidate';

/**
 * A link changed; every link of a brand changed (an approval withdrawn); keys changed; an
 * affiliate or a brand was suspended or reactivated (its links and its keys and sessions changed at once).
 */
export type Invalidation = { kind: 'link'; code: string } | { kind: 'brand'; id: string } | { kind: 'keys' } | { kind: 'suspension'; affiliateId?: string; brandId?: string };

/** What a service that changes keys or links needs: a way to tell every instance's caches. */
export interface InvalidationPublisher {
  publish(message: Invalidation): Promise<void>;
}

export interface InvalidationBus extends InvalidationPublisher {
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
