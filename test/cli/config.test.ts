// `affnet config` shows the configuration in force without its secrets, and a service with an
// invalid variable does not start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';

test('affnet config prints every variable with its value in force, passwords and the salt masked', async () => {
  const result = await runCli(['config'], {
    DATABASE_URL: 'postgres://affnet:db-password-1@db.internal:5432/affnet',
    REDIS_URL: 'redis://:redis-password-2@cache.internal:6379',
    SMTP_URL: 'smtps://mailer:smtp-password-3@mail.internal:465',
    VISITOR_SALT: 'salt-that-stays-secret',
    REPEAT_CLICK_WINDOW_SECONDS: '120',
    PORT: '8080',
  });
  assert.equal(result.code, 0, result.stderr);
  const lines = new Map(result.stdout.trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  assert.equal(lines.get('PORT'), '8080');
  assert.equal(lines.get('REPEAT_CLICK_WINDOW_SECONDS'), '120', 'in the unit of its variable');
  assert.equal(lines.get('FAILED_KEY_LIMIT'), '20', 'defaults are shown');
  assert.equal(lines.get('SESSION_ADDRESS_DAYS'), '30');
  assert.equal(lines.get('DATABASE_URL'), 'postgres://affnet:********@db.internal:5432/affnet');
  assert.equal(lines.get('REDIS_URL'), 'redis://:********@cache.internal:6379');
  assert.equal(lines.get('SMTP_URL'), 'smtps://mailer:********@mail.internal:465');
  assert.equal(lines.get('MAIL_FROM'), 'affnet <no-reply@localhost>', 'the network name at PUBLIC_URL’s host by default');
  assert.equal(lines.get('MAIL_OUTBOX_DIR'), `${process.cwd()}/data/outbox`, 'beside the data with PostgreSQL');
  assert.equal(lines.get('VISITOR_SALT'), '********');
  for (const secret of ['db-password-1', 'redis-password-2', 'smtp-password-3', 'salt-that-stays-secret']) assert.ok(!result.stdout.includes(secret), secret);
});

test('affnet serve with an invalid variable stops at once, naming it', async () => {
  const result = await runCli(['serve'], { CLICK_FLUSH_MS: 'fast', DATABASE_URL: 'sqlite::memory:' });
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /^error: CLICK_FLUSH_MS must be an integer between 10 and 60000, got "fast"$/m);
});

test('affnet serve with a mail server that is not an smtp URL, or a sender that is not an address, stops naming it', async () => {
  const wrongServer = await runCli(['serve'], { SMTP_URL: 'mail.example.com:25', DATABASE_URL: 'sqlite::memory:' });
  assert.match(wrongServer.stderr, /^error: SMTP_URL must be a URL such as smtp:\/\/user:password@mail\.example\.com:587/m);
  const wrongSender = await runCli(['serve'], { MAIL_FROM: 'Affnet <nobody>', DATABASE_URL: 'sqlite::memory:' });
  assert.match(wrongSender.stderr, /^error: MAIL_FROM must be an address such as/m);
});
