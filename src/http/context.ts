import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { RedisConnection } from '../storage/redis.js';
import type { ServingServices } from '../services.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';

/** Everything a request handler may need, built once at start-up. */
export interface AppContext {
  config: Config;
  services: ServingServices;
  /** Set when REDIS_URL is: the rate limiter's counters are shared through it. */
  redis: RedisConnection | undefined;
  metrics: ServiceMetrics;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
