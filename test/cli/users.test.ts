// `affnet users create` and `affnet users reset-link`: an operator makes a portal user and hands
// over the one-time link the command prints; the link signs the user in once their password is set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { freshDatabase, servicesFor, type TestDatabase } from '../helpers/databases.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { totpCode } from '../helpers/operators.js';
import { renderMail, type TemplateName } from '../../src/domain/mail/templates.js';

let testDb: TestDatabase;
let database: Database;
const env = () => ({ DATABASE_URL: testDb.url, REDIS_URL: '', PUBLIC_URL: 'https://go.example.com' });

before(async () => {
  testDb = await freshDatabase({ migrated: true });
  database = openDatabase(testDb.url);
  await buildWorld(database);
});
after(async () => {
  await database.close();
  await testDb.drop();
});

const LINK = /^https:\/\/go\.example\.com\/app\/set-password\?token=([0-9A-Za-z]{40})$/;
const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1)!;

test('users create prints a one-time link; the user sets a password with it and can sign in', async () => {
  const created = await runCli(['users', 'create', '--affiliate', 'aff-1', '--email', 'Owner@Aff.example', '--role', 'owner'], env());
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /Created owner owner@aff\.example \(usr_\w+\) for affiliate aff-1/);
  const token = LINK.exec(lastLine(created.stdout))?.[1];
  assert.ok(token, created.stdout);
  const users = servicesFor(database).users;
  await users.setPassword(token, 'a long enough password');
  assert.ok(await users.signIn('owner@aff.example', 'a long enough password'));

  const reset = await runCli(['users', 'reset-link', '--email', 'owner@aff.example'], env());
  assert.equal(reset.code, 0, reset.stderr);
  const resetToken = LINK.exec(lastLine(reset.stdout))?.[1];
  assert.ok(resetToken);
  await users.setPassword(resetToken, 'a brand new password');
  assert.equal(await users.signIn('owner@aff.example', 'a long enough password'), undefined, 'the old password no longer works');
  assert.ok(await users.signIn('owner@aff.example', 'a brand new password'));
});

test('a brand user; refusals name what to fix', async () => {
  const brand = await runCli(['users', 'create', '--brand', BRANDS.acme, '--email', 'ops@acme.example'], env());
  assert.equal(brand.code, 0, brand.stderr);
  assert.match(brand.stdout, new RegExp(`Created member ops@acme\\.example \\(usr_\\w+\\) for brand ${BRANDS.acme}`));

  const cases: Array<[string[], RegExp]> = [
    [['users', 'create', '--email', 'x@y.example'], /pass --affiliate ID, --brand ID or --operator/],
    [['users', 'create', '--operator', '--affiliate', 'aff-1', '--email', 'x@y.example'], /cannot be used with/],
    [['users', 'create', '--affiliate', 'aff-1', '--email', 'ops@acme.example'], /a user with the e-mail ops@acme\.example exists already/],
    [['users', 'create', '--affiliate', 'aff-404', '--email', 'new@aff.example'], /aff-404/],
    [['users', 'create', '--affiliate', 'aff-1', '--email', 'not-an-address'], /not-an-address is not an e-mail address/],
    [['users', 'create', '--affiliate', 'aff-1', '--email', 'r@aff.example', '--role', 'admin'], /Allowed choices are owner, member/],
    [['users', 'reset-link', '--email', 'nobody@aff.example'], /no user has the e-mail nobody@aff\.example/],
  ];
  for (const [args, message] of cases) {
    const result = await runCli(args, env());
    assert.notEqual(result.code, 0, args.join(' '));
    assert.match(result.stderr, message, args.join(' '));
  }
});

test('an operator: the network’s, not an account’s; the link signs them in, and the console asks a second factor first', async () => {
  const created = await runCli(['users', 'create', '--operator', '--email', 'Ops@Network.example'], env());
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /Created operator ops@network\.example \(usr_\w+\)/);
  const token = LINK.exec(lastLine(created.stdout))?.[1];
  assert.ok(token, created.stdout);
  const { users, secondFactors } = servicesFor(database);
  const signedIn = await users.setPassword(token, 'a long enough password');
  assert.equal(signedIn.user.role, 'operator');
  assert.equal(signedIn.user.affiliateId, undefined);
  assert.equal(signedIn.user.brandId, undefined);
  assert.equal(await secondFactors.enrolmentRequired(signedIn.user), true);
});

test('users remove-second-factors: a person who lost their factors signs in with the password again, is mailed, and the trail keeps the reason', async () => {
  const services = servicesFor(database);
  await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'lost.phone@aff.example', 'member', 'a long enough password');
  const session = (await services.users.signIn('lost.phone@aff.example', 'a long enough password'))!;
  const who = { userId: session.user.id, email: session.user.email, sessionToken: session.sessionToken };
  const { secret } = await services.secondFactors.startTotp(who);
  await services.secondFactors.confirmTotp(who, totpCode(secret));
  assert.ok('secondFactor' in (await services.secondFactors.signIn('lost.phone@aff.example', 'a long enough password'))!, 'the app is asked for');

  const refused = await runCli(['users', 'remove-second-factors', '--email', 'lost.phone@aff.example', '--reason', '  '], env());
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /give a reason/);
  const removed = await runCli(['users', 'remove-second-factors', '--email', 'Lost.Phone@aff.example', '--reason', 'lost phone; called back on the number on file'], env());
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /Removed the second factors of lost\.phone@aff\.example/);

  const signedIn = await services.secondFactors.signIn('lost.phone@aff.example', 'a long enough password');
  assert.ok(signedIn && 'sessionToken' in signedIn, 'the password alone signs in again');
  assert.equal(await services.users.resolveSession(session.sessionToken), undefined, 'their sessions ended');
  const mail = await database.db.selectFrom('mail_messages').select('template').where('to_address', '=', 'lost.phone@aff.example').where('template', '=', 'second-factors-removed').execute();
  assert.equal(mail.length, 1);
  const audit = await database.db.selectFrom('audit_entries').selectAll().where('action', '=', 'user.second_factors_removed').execute();
  assert.deepEqual(audit.map((entry) => [entry.actor_kind, entry.subject_id, entry.reason]), [['cli', session.user.id, 'lost phone; called back on the number on file']]);
});

test('without PUBLIC_URL the printed link leads where the server listens (PORT, HOST), as affnet config says; the operator is mailed as an operator', async () => {
  const local = { DATABASE_URL: testDb.url, REDIS_URL: '', PUBLIC_URL: '', PORT: '3700', HOST: '' };
  const created = await runCli(['users', 'create', '--operator', '--email', 'port.ops@network.example'], local);
  assert.equal(created.code, 0, created.stderr);
  assert.match(lastLine(created.stdout), /^http:\/\/localhost:3700\/app\/set-password\?token=[0-9A-Za-z]{40}$/);
  const config = await runCli(['config'], local);
  assert.equal(config.code, 0, config.stderr);
  assert.match(config.stdout, /^PUBLIC_URL=http:\/\/localhost:3700$/m);

  const oneAddress = { ...local, PORT: '3701', HOST: '127.0.0.1' };
  const reset = await runCli(['users', 'reset-link', '--email', 'port.ops@network.example'], oneAddress);
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(lastLine(reset.stdout), /^http:\/\/127\.0\.0\.1:3701\/app\/set-password\?token=/);
  assert.match((await runCli(['config'], oneAddress)).stdout, /^PUBLIC_URL=http:\/\/127\.0\.0\.1:3701$/m);
  assert.match((await runCli(['config'], { ...local, PUBLIC_URL: 'https://go.example.com/' })).stdout, /^PUBLIC_URL=https:\/\/go\.example\.com$/m, 'PUBLIC_URL when set');

  const [mail] = await database.db.selectFrom('mail_messages').select(['template', 'locale', 'params']).where('to_address', '=', 'port.ops@network.example').where('template', 'like', '%invitation').execute();
  assert.ok(mail, 'the operator is mailed an invitation');
  const rendered = renderMail(mail.template as TemplateName, mail.locale, { ...(JSON.parse(mail.params ?? '{}') as object), network: 'Rede Exemplo', link: 'https://go.example.com/app/set-password?token=x' });
  assert.equal(rendered.subject, 'You have been made an operator of Rede Exemplo');
  assert.doesNotMatch(rendered.text, /invited to a team|added you to its team/);
  assert.equal(renderMail(mail.template as TemplateName, 'pt-BR', { network: 'Rede Exemplo' }).subject, 'Você agora é operador da Rede Exemplo');
});
