// Service configuration, read once from the environment. Every entry point (server, CLI, tests)
// goes through loadConfig so they all agree on defaults.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { bundledIpDatabasePath } from './lib/ip-country.js';
import { DEFAULT_SQLITE_CACHE_MB } from './storage/sqlite-page-cache.js';
import { dialectOf, sqlitePath } from './storage/database.js';
import { DEFAULT_REDIRECT_CACHE_MB } from './domain/links/redirect-cache.js';
import { parseKey } from './lib/key-ring.js';
import { DEFAULT_PASSWORD_HASH_COST, PASSWORD_HASH_COSTS } from './lib/passwords.js';
import { openAsnLookup, readAsnList } from './lib/ip-asn.js';

export interface Config {
  port: number;
  host: string;
  /** `sqlite:<path>`, `sqlite::memory:`, a plain file path, or `postgres://…`. */
  databaseUrl: string;
  /** Base of short links and of every link the CLI prints or the service mails, without a trailing slash; by default where the server listens (HOST, PORT). */
  publicUrl: string;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel of this deployment. */
  redisPrefix: string;
  logLevel: string;
  /** How often buffered clicks are written to the database. */
  clickFlushMs: number;
  /** Clicks waiting in memory for the database (estimated MB) before they are kept in files instead. */
  clickBufferMb: number;
  /**
   * Where clicks wait in files while the database is away (CLICK_SPOOL_DIR): by default
   * click-spool beside the SQLite file, or data/click-spool for PostgreSQL; null for an
   * in-memory database.
   */
  clickSpoolDir: string | null;
  /** A visitor's repeat clicks on the same link within this window do not count. */
  repeatClickWindowMs: number;
  /**
   * More clicks than this from one client address on one link within an hour are flagged
   * suspicious and do not count, whatever user agents they claim; 0 turns the rule off.
   */
  clickVelocityLimit: number;
  /**
   * Salt of the visitor hash (IP + user agent) and address hash, when VISITOR_SALT sets it;
   * otherwise the installation's own random salt, kept in the database.
   */
  visitorSalt: string | undefined;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's trustProxy):
   * false (default: the socket address), true, a hop count, or a comma list of addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /** True when the database is the embedded default, which is seeded with demo data on first start. */
  usesDefaultDatabase: boolean;
  /**
   * Whether webhook endpoints may be http and reach this machine's and its networks' addresses
   * (loopback, private, link-local): for tests and development only.
   */
  webhookAllowLocalTargets: boolean;
  /** How often this instance looks for webhook deliveries that are due; 0 delivers none here. */
  webhookPollMs: number;
  /** A webhook delivery's whole exchange at most (lookup, connection, answer and body), in ms; shorter than the delivery's lease. */
  webhookTimeoutMs: number;
  /** A feed fetch's whole exchange at most (lookup, connection, answer and the reading of the file), in ms; shorter than the run's lease. */
  feedFetchTimeoutMs: number;
  /** The most a product feed may hold, decompressed, in MB (FEED_MAX_MB). */
  feedMaxMb: number;
  /** The most a shop's order export uploaded for a reconciliation may hold, in MB (RECONCILIATION_MAX_MB). */
  reconciliationMaxMb: number;
  /** A feed run holding fewer items than this share of the last complete run's makes nothing unavailable (FEED_MIN_SHARE_PERCENT). */
  feedMinSharePercent: number;
  /** The most a feed's parsing thread may use of memory, in MB (FEED_WORKER_HEAP_MB). */
  feedWorkerHeapMb: number;
  /** The most the parsing thread of a shop's order export may use of memory, in MB (RECONCILIATION_WORKER_HEAP_MB). */
  reconciliationWorkerHeapMb: number;
  /** How often this instance looks for scheduled tasks that are due (retention); 0 runs none here. */
  schedulePollMs: number;
  /** How often orders past their lock date are looked for and approved (a scheduled task, once across instances). */
  lockPollMs: number;
  /** Reports from the shop's pages (the tag's conversions, the pixel) a client address may send a minute. */
  trackLimitPerMinute: number;
  /** Requests of the link script (its domain list, its links) a client address may send a minute. */
  autoLinkLimitPerAddress: number;
  /** Links the link script may ask for with one link key a minute. */
  autoLinkLimitPerKey: number;
  /** The least a payout may be, in cents per currency (PAYOUT_MINIMUM, e.g. BRL:5000); other currencies: 1 cent. */
  payoutMinimums: ReadonlyMap<string, number>;
  /** Whether each month's statements are issued on the 1st by a scheduled task (STATEMENTS_AUTO). */
  statementsAuto: boolean;
  /** The least notice, in days, a brand gives before a change that could lower affiliates' earnings (TERMS_NOTICE_MIN_DAYS). */
  termsNoticeMinDays: number;
  /** Orders a brand needs in the last 90 days before the network scores it (SCORES_MIN_ORDERS). */
  scoresMinOrders: number;
  /** smtp:// or smtps:// with credentials; undefined: mail is written as .eml files to mailOutboxDir. */
  smtpUrl: string | undefined;
  /** The sender of every message (MAIL_FROM). */
  mailFrom: string;
  /** Where messages go without SMTP_URL; null with an in-memory database (nothing is written). */
  mailOutboxDir: string | null;
  /** How often this instance looks for messages to send; 0 sends none here. */
  mailPollMs: number;
  /** The network's name in messages and on pages (NETWORK_NAME). */
  networkName: string;
  /** Affiliates who sign up and confirm their address are approved at once, without an operator. */
  signupAutoApprove: boolean;
  /** The version of the network's terms people accept when they sign up or apply (recorded with them). */
  termsVersion: string;
  /** Where those terms are read; undefined: the sign-up pages name the version alone. */
  termsUrl: string | undefined;
  /**
   * The IP database (MMDB) click countries are found in: the one shipped with the service unless
   * IP_DATABASE names another file; null (IP_DATABASE=off) records every country as ZZ.
   */
  ipDatabase: string | null;
  /** Origins browsers may call the API from (CORS_ORIGINS, comma-separated); none by default. */
  corsOrigins: string[];
  /** How long a client may take to send a request's headers, and the whole request, before 408. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /**
   * Requests with an invalid API key or postback token one client address may send within the
   * window before such requests answer 429 (requests with a valid key are never refused by it).
   */
  failedKeyLimit: number;
  failedKeyWindowMs: number;
  /** How long a stopping server waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number;
  /** The port GET /metrics (Prometheus) is served on; undefined: not served. */
  metricsPort: number | undefined;
  /** Raw clicks older than this many days are deleted (counts, rollups and orders keep their figures); 0 keeps them. */
  clickRetentionDays: number;
  /** Webhook events, deliveries and the delivery log older than this many days are deleted; 0 keeps them. */
  webhookRetentionDays: number;
  /** Messages sent, given up or canceled are deleted after this many days (their addresses with them); 0 keeps them. */
  mailRetentionDays: number;
  /** Sign-ups and applications whose address was never confirmed are deleted after this many days (their links last a day). */
  applicationRetentionDays: number;
  /** A portal session ends after this long without a request. */
  sessionIdleMs: number;
  /** The client address a session was opened from is kept this many days, then blanked. */
  sessionAddressDays: number;
  /** scrypt's cost for passwords set from now on, as a power of two (PASSWORD_HASH_COST). */
  passwordHashCost: number;
  /** Days the client address of an audit entry is kept before it is dropped (AUDIT_ADDRESS_DAYS). */
  auditAddressDays: number;
  /** How long an operator's read-only view as a member lasts (VIEW_AS_MINUTES), whatever its use. */
  viewAsMs: number;
  /** Requests per minute one signed-in user may make (a page makes several). */
  userRateLimit: number;
  /** SQLite: the page cache of each of the service's three connections, in MB. */
  sqliteCacheMb: number;
  /** The budget of the in-process cache of short-link codes (the redirect path), in MB. */
  redirectCacheMb: number;
  /** How far past its live objects each heap may grow before a full collection, in percent; 0: V8's own choice. */
  heapGrowthPercent: number;
  /** The serving thread's young generation (V8's new space), at most, in MB; 0: V8's own limit (32). */
  youngGenerationMb: number;
  /** How much lower (in nice steps) background threads run than the serving thread; 0: the same. */
  backgroundNice: number;
  /** The current key of the payee details (base64 of 32 bytes); undefined: the key file's first key, if any. */
  payeeEncryptionKey: string | undefined;
  /** Earlier keys, still read (rows written before a rotation), never written with. */
  payeeEncryptionOldKeys: string[];
  /**
   * The key file (PAYEE_KEY_FILE): by default payee.key beside the SQLite file, made at the first
   * start when no key is configured; with PostgreSQL none unless set (never made); null: none.
   */
  payeeKeyFile: string | null;
  /** How long an affiliate's payouts are held after its payee details change, in hours. */
  payeeChangeHoldHours: number;
  /** A conversion sooner than this many seconds after its click is held for review; 0: off. */
  fraudMinClickToOrderSeconds: number;
  /** An affiliate's conversions per counted click on one brand within a UTC day above this (basis points) are held; 0: off. */
  fraudMaxConversionRateBp: number;
  /** The counted clicks an affiliate needs that day (on the brand; for the data-centre share, on all) before the rate rules apply. */
  fraudMinClicks: number;
  /** More conversions than this on one click are held; 0: off. */
  fraudMaxConversionsPerClick: number;
  /** A share of an affiliate's counted clicks of the day from data-centre networks above this (basis points) holds its conversions; 0: off. */
  fraudMaxDatacenterShareBp: number;
  /** The ASN database (MMDB with autonomous_system_number) the click writer finds each click's network in; null: none. */
  asnDatabase: string | null;
  /** The list of data-centre networks (one ASN a line); null: none. The data-centre rule needs both files. */
  datacenterAsnsFile: string | null;
}

export const DEFAULT_SQLITE_PATH = './data/affnet.sqlite';

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Digits only: Number() would also read "1e3", "0x10" and " 12 ".
  const value = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function timeouts(env: NodeJS.ProcessEnv): Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'> {
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) throw new Error(`REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must not be shorter than HEADERS_TIMEOUT_MS (${headersTimeoutMs}): the headers are part of the request`);
  return { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000) };
}

function corsOrigins(raw: string | undefined): string[] {
  const origins = (raw ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) throw new Error(`CORS_ORIGINS must list origins such as https://portal.example.com (scheme, host, port; no path), got "${origin}"`);
  }
  return origins;
}

/** An MMDB file with autonomous_system_number records, checked now (opened and looked up once) so a wrong file stops the start. */
function asnDatabase(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const path = resolve(raw);
  if (!existsSync(path)) throw new Error(`ASN_DATABASE names ${path}, which does not exist: give the path of an ASN database in MMDB format (e.g. the iptoasn or ip-location-db ASN mmdb), or leave it unset`);
  try {
    openAsnLookup(path).asnOf('1.1.1.1');
  } catch (error) {
    throw new Error(`ASN_DATABASE ${path} is not a readable MMDB file: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return path;
}

/** The data-centre list, read now so a bad line stops the start. */
function datacenterAsnsFile(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const path = resolve(raw);
  if (!existsSync(path)) throw new Error(`DATACENTER_ASNS_FILE names ${path}, which does not exist: give a file with one autonomous system number a line, or leave it unset`);
  readAsnList(path);
  return path;
}

function ipDatabase(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return bundledIpDatabasePath();
  if (raw === 'off') return null;
  const path = resolve(raw);
  if (!existsSync(path)) throw new Error(`IP_DATABASE names ${path}, which does not exist: give the path of an MMDB file, or off`);
  return path;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  try {
    proxyAddr.compile(raw.split(',').map((part) => part.trim()));
  } catch {
    throw new Error(`TRUST_PROXY must be true, false, a number of hops, or comma-separated proxy addresses or CIDRs such as 10.0.0.0/8, got "${raw}"`);
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'info';
  if (!LOG_LEVELS.includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw;
}

/** A database URL (postgres://, sqlite:) or a plain SQLite file path; another scheme is a typo. */
function databaseUrl(raw: string | undefined): string {
  if (raw === undefined || raw === '') return `sqlite:${resolve(DEFAULT_SQLITE_PATH)}`;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') {
    if (!URL.canParse(raw)) throw new Error(`DATABASE_URL is not a valid URL: use postgres://user:password@host:5432/database`);
    return raw;
  }
  if (scheme !== undefined && scheme !== 'sqlite' && scheme !== 'file') {
    throw new Error(`DATABASE_URL must be postgres://user:password@host:5432/database, sqlite:path/to/file.sqlite or a file path; "${scheme}://" is not one of them`);
  }
  return raw;
}

function redisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\//i.test(raw) || !URL.canParse(raw)) throw new Error('REDIS_URL must be a URL such as redis://host:6379 (or rediss:// for TLS)');
  return raw;
}

/** CLICK_SPOOL_DIR, or its default for the database at `url` (DATABASE_URL as read). */
function clickSpoolDir(env: NodeJS.ProcessEnv, url: string): string | null {
  return dirBesideDatabase(env.CLICK_SPOOL_DIR, url, 'click-spool');
}

/** A directory set by its variable, or by default `name` beside the SQLite file (data/`name` with PostgreSQL). */
function dirBesideDatabase(raw: string | undefined, url: string, name: string): string | null {
  if (raw && raw !== '') return resolve(raw);
  if (dialectOf(url) === 'postgres') return resolve('data', name);
  const path = sqlitePath(url);
  return path === ':memory:' ? null : join(dirname(resolve(path)), name);
}

/** A payee key variable, checked now (32 bytes in base64) so a typo stops the start, not the first payout. */
function payeeKey(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  parseKey(raw, 'PAYEE_ENCRYPTION_KEY');
  return raw.trim();
}

function payeeOldKeys(raw: string | undefined): string[] {
  const keys = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  keys.forEach((key, i) => parseKey(key, `key ${i + 1} of PAYEE_ENCRYPTION_OLD_KEYS`));
  return keys;
}

/** PAYEE_KEY_FILE, or payee.key beside the SQLite file (none by default with PostgreSQL or in memory). */
function payeeKeyFile(raw: string | undefined, url: string): string | null {
  if (raw && raw !== '') return resolve(raw);
  if (dialectOf(url) === 'postgres') return null;
  const path = sqlitePath(url);
  return path === ':memory:' ? null : join(dirname(resolve(path)), 'payee.key');
}

function smtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^smtps?:\/\//i.test(raw) || !URL.canParse(raw)) throw new Error('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587 (or smtps:// for TLS from the start, port 465)');
  return raw;
}

/** MAIL_FROM, or no-reply at PUBLIC_URL's host under the network's name. */
function termsVersion(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return '1';
  if (!/^[\w.-]{1,40}$/.test(raw.trim())) throw new Error(`TERMS_VERSION must be 1-40 letters, digits, dots, dashes or underscores (e.g. 2026-11), got "${raw}"`);
  return raw.trim();
}

function payoutMinimums(raw: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of (raw ?? 'BRL:5000').split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([A-Z]{3}):(\d{1,12})$/.exec(part);
    if (!match) throw new Error(`PAYOUT_MINIMUM must be CURRENCY:CENTS pairs separated by commas (e.g. BRL:5000,EUR:2500), got "${raw}"`);
    out.set(match[1]!, Number(match[2]));
  }
  return out;
}

function termsUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) throw new Error(`TERMS_URL must be an absolute http(s) URL, got "${raw}"`);
  return raw;
}

function mailFrom(raw: string | undefined, publicUrl: string, networkName: string): string {
  if (raw === undefined || raw === '') return `${networkName} <no-reply@${new URL(publicUrl).hostname}>`;
  const address = /<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address.trim())) throw new Error(`MAIL_FROM must be an address such as "Affnet <no-reply@example.com>" or no-reply@example.com, got "${raw}"`);
  return raw;
}

/**
 * Where the server listening on HOST and PORT is reached from this machine: PUBLIC_URL's default,
 * so that every link the CLI prints or the service mails leads to the running server. Listening on
 * every address (0.0.0.0, ::) it is localhost; on one address, that address.
 */
export function listeningUrl(host: string, port: number): string {
  const everywhere = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = everywhere ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST && env.HOST !== '' ? env.HOST : '0.0.0.0';
  const publicUrl = (env.PUBLIC_URL && env.PUBLIC_URL !== '' ? env.PUBLIC_URL : listeningUrl(host, port)).replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(publicUrl) || !URL.canParse(publicUrl)) {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL such as https://go.example.com, got "${publicUrl}"`);
  }
  const database = databaseUrl(env.DATABASE_URL);
  const networkName = env.NETWORK_NAME && env.NETWORK_NAME.trim() !== '' ? env.NETWORK_NAME.trim() : 'affnet';
  return {
    port,
    host,
    databaseUrl: database,
    publicUrl,
    redisUrl: redisUrl(env.REDIS_URL),
    redisPrefix: env.REDIS_PREFIX && env.REDIS_PREFIX !== '' ? env.REDIS_PREFIX : 'affnet:',
    logLevel: logLevel(env.LOG_LEVEL),
    clickFlushMs: integer(env, 'CLICK_FLUSH_MS', 50, 10, 60_000),
    clickBufferMb: integer(env, 'CLICK_BUFFER_MB', 4, 1, 65_536),
    clickSpoolDir: clickSpoolDir(env, database),
    repeatClickWindowMs: integer(env, 'REPEAT_CLICK_WINDOW_SECONDS', 3600, 0, 30 * 86_400) * 1000,
    clickVelocityLimit: integer(env, 'CLICK_VELOCITY_LIMIT', 5, 0, 1_000_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    visitorSalt: env.VISITOR_SALT && env.VISITOR_SALT !== '' ? env.VISITOR_SALT : undefined,
    usesDefaultDatabase: !env.DATABASE_URL,
    webhookAllowLocalTargets: boolean(env, 'WEBHOOK_ALLOW_LOCAL_TARGETS'),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 0, 3_600_000),
    // At most half the lease a delivery or a run is claimed under (60 s, 2 h): what follows the
    // exchange (recording it, a feed's last steps) ends before another instance may claim it.
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 30_000),
    feedFetchTimeoutMs: integer(env, 'FEED_FETCH_TIMEOUT_MS', 1_800_000, 100, 3_600_000),
    feedMaxMb: integer(env, 'FEED_MAX_MB', 2048, 1, 65_536),
    reconciliationMaxMb: integer(env, 'RECONCILIATION_MAX_MB', 100, 1, 65_536),
    feedMinSharePercent: integer(env, 'FEED_MIN_SHARE_PERCENT', 50, 0, 100),
    feedWorkerHeapMb: integer(env, 'FEED_WORKER_HEAP_MB', 256, 16, 16_384),
    reconciliationWorkerHeapMb: integer(env, 'RECONCILIATION_WORKER_HEAP_MB', 64, 16, 16_384),
    schedulePollMs: integer(env, 'SCHEDULE_POLL_MS', 5000, 0, 3_600_000),
    lockPollMs: integer(env, 'LOCK_POLL_MS', 60_000, 1000, 86_400_000),
    trackLimitPerMinute: integer(env, 'TRACK_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    autoLinkLimitPerAddress: integer(env, 'AUTO_LINK_LIMIT_PER_ADDRESS', 60, 1, 1_000_000),
    autoLinkLimitPerKey: integer(env, 'AUTO_LINK_LIMIT_PER_KEY', 600, 1, 1_000_000),
    payoutMinimums: payoutMinimums(env.PAYOUT_MINIMUM),
    statementsAuto: boolean(env, 'STATEMENTS_AUTO'),
    termsNoticeMinDays: integer(env, 'TERMS_NOTICE_MIN_DAYS', 3, 0, 90),
    scoresMinOrders: integer(env, 'SCORES_MIN_ORDERS', 20, 1, 1_000_000),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, publicUrl, networkName),
    mailOutboxDir: dirBesideDatabase(env.MAIL_OUTBOX_DIR, database, 'outbox'),
    mailPollMs: integer(env, 'MAIL_POLL_MS', 1000, 0, 3_600_000),
    networkName,
    signupAutoApprove: boolean(env, 'SIGNUP_AUTO_APPROVE'),
    termsVersion: termsVersion(env.TERMS_VERSION),
    termsUrl: termsUrl(env.TERMS_URL),
    ipDatabase: ipDatabase(env.IP_DATABASE),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    failedKeyLimit: integer(env, 'FAILED_KEY_LIMIT', 20, 1, 1_000_000_000),
    failedKeyWindowMs: integer(env, 'FAILED_KEY_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 0, 600_000),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 1, 65535) : undefined,
    clickRetentionDays: integer(env, 'CLICK_RETENTION_DAYS', 400, 0, 36_500),
    webhookRetentionDays: integer(env, 'WEBHOOK_RETENTION_DAYS', 30, 0, 36_500),
    mailRetentionDays: integer(env, 'MAIL_RETENTION_DAYS', 30, 0, 36_500),
    applicationRetentionDays: integer(env, 'APPLICATION_RETENTION_DAYS', 7, 1, 36_500),
    sessionIdleMs: integer(env, 'SESSION_IDLE_MINUTES', 60, 1, 60 * 24 * 30) * 60_000,
    sessionAddressDays: integer(env, 'SESSION_ADDRESS_DAYS', 30, 1, 3650),
    passwordHashCost: integer(env, 'PASSWORD_HASH_COST', DEFAULT_PASSWORD_HASH_COST, PASSWORD_HASH_COSTS.min, PASSWORD_HASH_COSTS.max),
    auditAddressDays: integer(env, 'AUDIT_ADDRESS_DAYS', 90, 1, 3650),
    viewAsMs: integer(env, 'VIEW_AS_MINUTES', 30, 1, 480) * 60_000,
    userRateLimit: integer(env, 'USER_RATE_LIMIT', 600, 1, 1_000_000),
    sqliteCacheMb: integer(env, 'SQLITE_CACHE_MB', DEFAULT_SQLITE_CACHE_MB, 1, 65_536),
    redirectCacheMb: integer(env, 'REDIRECT_CACHE_MB', DEFAULT_REDIRECT_CACHE_MB, 1, 65_536),
    heapGrowthPercent: integer(env, 'HEAP_GROWTH_PERCENT', 25, 0, 1000),
    youngGenerationMb: integer(env, 'YOUNG_GENERATION_MB', 8, 0, 1024),
    backgroundNice: integer(env, 'BACKGROUND_NICE', 5, 0, 19),
    payeeEncryptionKey: payeeKey(env.PAYEE_ENCRYPTION_KEY),
    payeeEncryptionOldKeys: payeeOldKeys(env.PAYEE_ENCRYPTION_OLD_KEYS),
    payeeKeyFile: payeeKeyFile(env.PAYEE_KEY_FILE, database),
    payeeChangeHoldHours: integer(env, 'PAYEE_CHANGE_HOLD_HOURS', 48, 0, 24 * 90),
    fraudMinClickToOrderSeconds: integer(env, 'FRAUD_MIN_CLICK_TO_ORDER_SECONDS', 10, 0, 86_400),
    fraudMaxConversionRateBp: integer(env, 'FRAUD_MAX_CONVERSION_RATE_BP', 3000, 0, 1_000_000),
    fraudMinClicks: integer(env, 'FRAUD_MIN_CLICKS', 20, 1, 1_000_000_000),
    fraudMaxConversionsPerClick: integer(env, 'FRAUD_MAX_CONVERSIONS_PER_CLICK', 3, 0, 1_000_000),
    fraudMaxDatacenterShareBp: integer(env, 'FRAUD_MAX_DATACENTER_SHARE_BP', 2000, 0, 10_000),
    asnDatabase: asnDatabase(env.ASN_DATABASE),
    datacenterAsnsFile: datacenterAsnsFile(env.DATACENTER_ASNS_FILE),
    ...timeouts(env),
  };
}

/**
 * The variable each setting comes from (null: derived, not set directly). Typed over every key of
 * Config, so a setting added without its variable does not compile.
 */
export const CONFIG_VARIABLES: Record<keyof Config, string | null> = {
  port: 'PORT',
  host: 'HOST',
  databaseUrl: 'DATABASE_URL',
  publicUrl: 'PUBLIC_URL',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'REDIS_PREFIX',
  logLevel: 'LOG_LEVEL',
  clickFlushMs: 'CLICK_FLUSH_MS',
  clickBufferMb: 'CLICK_BUFFER_MB',
  clickSpoolDir: 'CLICK_SPOOL_DIR',
  repeatClickWindowMs: 'REPEAT_CLICK_WINDOW_SECONDS',
  clickVelocityLimit: 'CLICK_VELOCITY_LIMIT',
  visitorSalt: 'VISITOR_SALT',
  trustProxy: 'TRUST_PROXY',
  usesDefaultDatabase: null,
  webhookAllowLocalTargets: 'WEBHOOK_ALLOW_LOCAL_TARGETS',
  webhookPollMs: 'WEBHOOK_POLL_MS',
  webhookTimeoutMs: 'WEBHOOK_TIMEOUT_MS',
  feedFetchTimeoutMs: 'FEED_FETCH_TIMEOUT_MS',
  feedMaxMb: 'FEED_MAX_MB',
  reconciliationMaxMb: 'RECONCILIATION_MAX_MB',
  feedMinSharePercent: 'FEED_MIN_SHARE_PERCENT',
  feedWorkerHeapMb: 'FEED_WORKER_HEAP_MB',
  reconciliationWorkerHeapMb: 'RECONCILIATION_WORKER_HEAP_MB',
  schedulePollMs: 'SCHEDULE_POLL_MS',
  lockPollMs: 'LOCK_POLL_MS',
  trackLimitPerMinute: 'TRACK_LIMIT_PER_MINUTE',
  autoLinkLimitPerAddress: 'AUTO_LINK_LIMIT_PER_ADDRESS',
  autoLinkLimitPerKey: 'AUTO_LINK_LIMIT_PER_KEY',
  payoutMinimums: 'PAYOUT_MINIMUM',
  statementsAuto: 'STATEMENTS_AUTO',
  termsNoticeMinDays: 'TERMS_NOTICE_MIN_DAYS',
  scoresMinOrders: 'SCORES_MIN_ORDERS',
  smtpUrl: 'SMTP_URL',
  mailFrom: 'MAIL_FROM',
  mailOutboxDir: 'MAIL_OUTBOX_DIR',
  mailPollMs: 'MAIL_POLL_MS',
  networkName: 'NETWORK_NAME',
  signupAutoApprove: 'SIGNUP_AUTO_APPROVE',
  termsVersion: 'TERMS_VERSION',
  termsUrl: 'TERMS_URL',
  ipDatabase: 'IP_DATABASE',
  corsOrigins: 'CORS_ORIGINS',
  headersTimeoutMs: 'HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'KEEP_ALIVE_TIMEOUT_MS',
  failedKeyLimit: 'FAILED_KEY_LIMIT',
  failedKeyWindowMs: 'FAILED_KEY_WINDOW_SECONDS',
  shutdownTimeoutMs: 'SHUTDOWN_TIMEOUT_MS',
  metricsPort: 'METRICS_PORT',
  clickRetentionDays: 'CLICK_RETENTION_DAYS',
  webhookRetentionDays: 'WEBHOOK_RETENTION_DAYS',
  mailRetentionDays: 'MAIL_RETENTION_DAYS',
  applicationRetentionDays: 'APPLICATION_RETENTION_DAYS',
  sessionIdleMs: 'SESSION_IDLE_MINUTES',
  sessionAddressDays: 'SESSION_ADDRESS_DAYS',
  passwordHashCost: 'PASSWORD_HASH_COST',
  auditAddressDays: 'AUDIT_ADDRESS_DAYS',
  viewAsMs: 'VIEW_AS_MINUTES',
  userRateLimit: 'USER_RATE_LIMIT',
  sqliteCacheMb: 'SQLITE_CACHE_MB',
  redirectCacheMb: 'REDIRECT_CACHE_MB',
  heapGrowthPercent: 'HEAP_GROWTH_PERCENT',
  youngGenerationMb: 'YOUNG_GENERATION_MB',
  backgroundNice: 'BACKGROUND_NICE',
  payeeEncryptionKey: 'PAYEE_ENCRYPTION_KEY',
  payeeEncryptionOldKeys: 'PAYEE_ENCRYPTION_OLD_KEYS',
  payeeKeyFile: 'PAYEE_KEY_FILE',
  payeeChangeHoldHours: 'PAYEE_CHANGE_HOLD_HOURS',
  fraudMinClickToOrderSeconds: 'FRAUD_MIN_CLICK_TO_ORDER_SECONDS',
  fraudMaxConversionRateBp: 'FRAUD_MAX_CONVERSION_RATE_BP',
  fraudMinClicks: 'FRAUD_MIN_CLICKS',
  fraudMaxConversionsPerClick: 'FRAUD_MAX_CONVERSIONS_PER_CLICK',
  fraudMaxDatacenterShareBp: 'FRAUD_MAX_DATACENTER_SHARE_BP',
  asnDatabase: 'ASN_DATABASE',
  datacenterAsnsFile: 'DATACENTER_ASNS_FILE',
};

/** Settings kept in seconds in their variable and in milliseconds in Config. */
const IN_SECONDS = new Set<keyof Config>(['repeatClickWindowMs', 'failedKeyWindowMs']);
const IN_MINUTES = new Set<keyof Config>(['sessionIdleMs', 'viewAsMs']);

const MASK = '********';

/** Keys masked, each named by its id (what ciphertexts and `affnet payee rotate-key` name it by). */
const maskedKeys = (keys: readonly string[]): string => keys.map((key) => `${MASK} (id ${parseKey(key, 'key').id})`).join(',');

/** A URL with its password masked. */
function withoutPassword(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = MASK;
  return parsed.toString();
}

/**
 * The effective configuration as variable=value lines (what `affnet config` prints): every
 * variable with the value in force, defaults included; passwords, the visitor salt and payee keys masked.
 */
export function describeConfig(config: Config): Array<{ variable: string; value: string }> {
  const lines: Array<{ variable: string; value: string }> = [];
  for (const [key, variable] of Object.entries(CONFIG_VARIABLES) as Array<[keyof Config, string | null]>) {
    if (!variable) continue;
    if (key === 'payoutMinimums') {
      lines.push({ variable, value: [...config.payoutMinimums].map(([currency, cents]) => `${currency}:${cents}`).join(',') });
      continue;
    }
    const raw = config[key];
    let value: string;
    if (key === 'visitorSalt') value = raw === undefined ? '(the installation’s own, kept in the database)' : MASK;
    else if (key === 'payeeEncryptionKey') value = config.payeeEncryptionKey === undefined ? (config.payeeKeyFile ? '(the key file’s first key)' : '(none: payee details cannot be saved)') : maskedKeys([config.payeeEncryptionKey]);
    else if (key === 'payeeEncryptionOldKeys') value = maskedKeys(config.payeeEncryptionOldKeys);
    else if (key === 'payeeKeyFile') value = raw === null ? '(none)' : String(raw);
    else if (key === 'databaseUrl' || key === 'redisUrl' || key === 'smtpUrl') value = raw === undefined ? '' : withoutPassword(String(raw));
    else if (key === 'ipDatabase') value = raw === null ? 'off' : String(raw);
    else if (key === 'asnDatabase' || key === 'datacenterAsnsFile') value = raw === null ? '(none: the data-centre rule is off)' : String(raw);
    else if (Array.isArray(raw)) value = raw.join(',');
    else if (IN_SECONDS.has(key)) value = String(Number(raw) / 1000);
    else if (IN_MINUTES.has(key)) value = String(Number(raw) / 60_000);
    else value = raw === undefined ? '' : String(raw);
    lines.push({ variable, value });
  }
  return lines;
}
