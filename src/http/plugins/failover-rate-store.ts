// The rate limiter's counters: in Redis, shared by every instance, and in this instance's memory
// while Redis cannot answer, so a key keeps its limit through an outage (each instance then
// enforces it alone) instead of going unlimited. The headers of each answer come from the
// counter that decided it.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { FastifyRateLimitStore as Store, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

type Callback = Parameters<Store['incr']>[1];
type RouteParams = Parameters<Store['child']>[0];
type StoreClass<A extends unknown[]> = new (...args: A) => Store;
/** What the plugin hands a store (its settings, or a route's): the two it passes on to its own stores. */
type StoreParams = { continueExceeding?: boolean; exponentialBackoff?: boolean };

const require = createRequire(import.meta.url);
// The plugin's own stores (it ships them without type declarations).
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass<[boolean | undefined, boolean | undefined, Redis, string]>;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass<[boolean | undefined, boolean | undefined, number]>;

/** Counters this instance keeps while Redis is away (the most recently used keys). */
const LOCAL_KEYS = 100_000;

export function failoverRateStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  return class FailoverRateStore implements Store {
    private readonly shared: Store;
    private readonly local: Store;

    constructor(settings: object, shared?: Store, local?: Store) {
      const params = settings as StoreParams;
      this.shared = shared ?? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace);
      this.local = local ?? new LocalStore(params.continueExceeding, params.exponentialBackoff, LOCAL_KEYS);
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.shared.incr(
        key,
        (error, result) => (error ? this.local.incr(key, callback, timeWindow, max) : callback(null, result)),
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteParams): Store {
      return new FailoverRateStore(routeOptions, this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  };
}
