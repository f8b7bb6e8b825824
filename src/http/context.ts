import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { Database } from '../storage/database.js';
import type { KeyResolver } from '../domain/access/key-cache.js';
import type { ClickRecorder } from '../domain/links/click-recorder.js';
import type { RedirectCache } from '../domain/links/redirect-cache.js';
import type { RedisConnection } from '../storage/redis.js';
import type { InvalidationBus } from '../domain/invalidation.js';

/** Everything a request handler may need, built once at start-up. */
export interface AppContext {
  config: Config;
  database: Database;
  /** Base of short links (config.publicUrl), here so the context serves as the domain's LinkDeps. */
  publicUrl: string;
  /** Set when REDIS_URL is: state shared by every instance. */
  redis: RedisConnection | undefined;
  /** Tells every instance's caches about changes (a revoked key, a deactivated link). */
  bus: InvalidationBus;
  keys: KeyResolver;
  redirects: RedirectCache;
  clicks: ClickRecorder;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
