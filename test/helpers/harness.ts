// Starts the real service on a fresh database for one test file and talks to it over HTTP
// (injected through the service's request listener: the full pipeline without a socket).
import type { InjectOptions, Response as LightMyRequestResponse } from 'light-my-request';
import { loadConfig, type Config } from '../../src/config.js';
import { createService, type Service, type ServiceOptions } from '../../src/server.js';
import { buildWorld, type World } from './world.js';
import { freshDatabase, redisEnv, TEST_PASSWORDS } from './databases.js';
import { injector } from './inject.js';

export const PUBLIC_URL = 'http://go.test';
/**
 * The payee key of services on PostgreSQL (which never make one); SQLite makes its key file beside
 * the test's database. A test passes PAYEE_ENCRYPTION_KEY: '' to start without one.
 */
export const TEST_PAYEE_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * The fraud rules, off: tests report conversions a moment after their clicks, dozens a day on one
 * brand, which the rules' defaults hold for review. The tests of the rules turn each one on.
 */
export const FRAUD_RULES_OFF: Record<string, string> = {
  FRAUD_MIN_CLICK_TO_ORDER_SECONDS: '0',
  FRAUD_MAX_CONVERSION_RATE_BP: '0',
  FRAUD_MAX_CONVERSIONS_PER_CLICK: '0',
  FRAUD_MAX_DATACENTER_SHARE_BP: '0',
};

export interface Harness {
  service: Service;
  world: World;
  config: Config;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** GET with an API key. */
  get(path: string, key?: string): Promise<LightMyRequestResponse>;
  post(path: string, body: unknown, key?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * `clock`: what time the service thinks it is (tests move it by hours or days); `resolveHost`:
 * where webhook destinations' host names point.
 */
export async function startHarness(env: Record<string, string> = {}, options: Pick<ServiceOptions, 'clock' | 'resolveHost'> = {}): Promise<Harness> {
  const database = await freshDatabase({ migrated: true });
  // Tests send invalid keys by the hundred from one address; the throttle's own tests set a limit.
  // Scheduled tasks (retention) and mail run when a test asks: a test moving its clock by days must
  // not race an automatic prune, and no test writes mail into the working tree's data/outbox.
  const payeeKey = database.dialect === 'postgres' ? { PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY } : {};
  const config = loadConfig({ DATABASE_URL: database.url, PUBLIC_URL: PUBLIC_URL, CLICK_FLUSH_MS: '50', FAILED_KEY_LIMIT: '1000000', SCHEDULE_POLL_MS: '0', MAIL_POLL_MS: '0', PAYOUT_MINIMUM: '', ...TEST_PASSWORDS, ...FRAUD_RULES_OFF, ...payeeKey, ...redisEnv(), ...env });
  const service = await createService(config, options);
  const world = await buildWorld(service.database);
  const request = injector(service);
  return {
    service,
    world,
    config,
    request,
    get: (path, key) => request({ method: 'GET', url: path, headers: key ? { 'x-api-key': key } : {} }),
    post: (path, body, key) => request({ method: 'POST', url: path, payload: body as object, headers: key ? { 'x-api-key': key } : {} }),
    async close() {
      await service.close();
      await database.drop();
    },
  };
}
