// Every setting is checked once, at start: an invalid value stops the service with a message that
// names the variable and the form it expects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.js';

const INVALID: Array<[string, string, RegExp]> = [
  ['PORT', '70000', /PORT must be an integer between 0 and 65535/],
  ['PORT', 'eighty', /PORT must be an integer/],
  ['CLICK_FLUSH_MS', '1.5', /CLICK_FLUSH_MS must be an integer/],
  ['REPEAT_CLICK_WINDOW_SECONDS', '-1', /REPEAT_CLICK_WINDOW_SECONDS must be an integer/],
  ['FAILED_KEY_LIMIT', '0', /FAILED_KEY_LIMIT must be an integer between 1/],
  ['PASSWORD_HASH_COST', '8', /PASSWORD_HASH_COST must be an integer between 10 and 17/],
  ['PASSWORD_HASH_COST', '18', /PASSWORD_HASH_COST must be an integer between 10 and 17/],
  ['HEAP_GROWTH_PERCENT', '-5', /HEAP_GROWTH_PERCENT must be an integer between 0 and 1000/],
  ['YOUNG_GENERATION_MB', 'big', /YOUNG_GENERATION_MB must be an integer between 0 and 1024/],
  ['BACKGROUND_NICE', '20', /BACKGROUND_NICE must be an integer between 0 and 19/],
  ['SHUTDOWN_TIMEOUT_MS', '1e3', /SHUTDOWN_TIMEOUT_MS must be an integer/],
  ['HEADERS_TIMEOUT_MS', '50', /HEADERS_TIMEOUT_MS must be an integer between 100/],
  ['WEBHOOK_ALLOW_LOCAL_TARGETS', 'yes', /WEBHOOK_ALLOW_LOCAL_TARGETS must be true or false/],
  ['WEBHOOK_TIMEOUT_MS', '60000', /WEBHOOK_TIMEOUT_MS must be an integer between 100 and 30000/],
  ['FEED_FETCH_TIMEOUT_MS', '0', /FEED_FETCH_TIMEOUT_MS must be an integer between 100 and 3600000/],
  ['PUBLIC_URL', 'go.example.com', /PUBLIC_URL must be an absolute http\(s\) URL/],
  ['PUBLIC_URL', 'ftp://go.example.com', /PUBLIC_URL must be an absolute http\(s\) URL/],
  ['DATABASE_URL', 'postgress://db/affnet', /DATABASE_URL must be postgres:\/\/user:password@host:5432\/database, sqlite:/],
  ['DATABASE_URL', 'postgres://db:port/affnet', /DATABASE_URL is not a valid URL/],
  ['REDIS_URL', 'localhost:6379', /REDIS_URL must be a URL such as redis:\/\/host:6379/],
  ['LOG_LEVEL', 'verbose', /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
  ['TRUST_PROXY', '10.0.0.0/99', /TRUST_PROXY must be true, false, a number of hops, or comma-separated proxy addresses/],
  ['CORS_ORIGINS', 'https://portal.example.com/app', /CORS_ORIGINS must list origins/],
  ['IP_DATABASE', '/nowhere/countries.mmdb', /IP_DATABASE names \/nowhere\/countries\.mmdb, which does not exist/],
  ['FRAUD_MIN_CLICK_TO_ORDER_SECONDS', '-1', /FRAUD_MIN_CLICK_TO_ORDER_SECONDS must be an integer between 0 and 86400/],
  ['FRAUD_MAX_CONVERSION_RATE_BP', '30%', /FRAUD_MAX_CONVERSION_RATE_BP must be an integer/],
  ['FRAUD_MIN_CLICKS', '0', /FRAUD_MIN_CLICKS must be an integer between 1/],
  ['FRAUD_MAX_CONVERSIONS_PER_CLICK', 'many', /FRAUD_MAX_CONVERSIONS_PER_CLICK must be an integer/],
  ['FRAUD_MAX_DATACENTER_SHARE_BP', '10001', /FRAUD_MAX_DATACENTER_SHARE_BP must be an integer between 0 and 10000/],
  ['ASN_DATABASE', '/nowhere/asn.mmdb', /ASN_DATABASE names \/nowhere\/asn\.mmdb, which does not exist/],
  ['ASN_DATABASE', 'package.json', /ASN_DATABASE .*package\.json is not a readable MMDB file/],
  ['DATACENTER_ASNS_FILE', '/nowhere/dc.txt', /DATACENTER_ASNS_FILE names \/nowhere\/dc\.txt, which does not exist/],
  ['DATACENTER_ASNS_FILE', 'package.json', /package\.json line 1: "\{" is not an autonomous system number/],
];

for (const [variable, value, message] of INVALID) {
  test(`${variable}=${value} is refused, naming the variable and the expected form`, () => {
    assert.throws(() => loadConfig({ [variable]: value }), message);
  });
}

test('every setting but the derived one has its variable, and each variable is named once', () => {
  const variables = Object.values(CONFIG_VARIABLES).filter((v): v is string => v !== null);
  assert.equal(new Set(variables).size, variables.length);
  assert.deepEqual(Object.keys(loadConfig({})).sort(), Object.keys(CONFIG_VARIABLES).sort());
});

test('valid values of each form are accepted', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgresql://affnet:pw@db.internal:5432/affnet',
    REDIS_URL: 'rediss://cache.internal:6380',
    TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
    LOG_LEVEL: 'debug',
    PUBLIC_URL: 'https://go.example.com/',
  });
  assert.equal(config.publicUrl, 'https://go.example.com');
  assert.equal(loadConfig({ DATABASE_URL: './data/other.sqlite' }).databaseUrl, './data/other.sqlite');
});

test('the fraud rules have their defaults, and the data-centre files are optional', () => {
  const config = loadConfig({});
  assert.deepEqual(
    [config.fraudMinClickToOrderSeconds, config.fraudMaxConversionRateBp, config.fraudMinClicks, config.fraudMaxConversionsPerClick, config.fraudMaxDatacenterShareBp, config.asnDatabase, config.datacenterAsnsFile],
    [10, 3000, 20, 3, 2000, null, null],
  );
});

test('without PUBLIC_URL, links lead where the server listens: localhost on every address, the address itself on one', () => {
  const publicUrlOf = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env }).publicUrl;
  assert.equal(publicUrlOf({}), 'http://localhost:3000');
  assert.equal(publicUrlOf({ PORT: '3700' }), 'http://localhost:3700');
  assert.equal(publicUrlOf({ PORT: '3700', HOST: '::' }), 'http://localhost:3700');
  assert.equal(publicUrlOf({ PORT: '3700', HOST: '127.0.0.1' }), 'http://127.0.0.1:3700');
  assert.equal(publicUrlOf({ PORT: '3700', HOST: 'affnet.internal' }), 'http://affnet.internal:3700');
  assert.equal(publicUrlOf({ PORT: '3700', HOST: '::1' }), 'http://[::1]:3700');
  assert.equal(publicUrlOf({ PORT: '3700', HOST: '127.0.0.1', PUBLIC_URL: 'https://go.example.com' }), 'https://go.example.com');
});
