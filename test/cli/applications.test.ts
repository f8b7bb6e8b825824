// `affnet applications list | approve | decline`: the operator decides on sign-ups and brand
// applications from a shell; the person is mailed (queued with the decision) either way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { freshDatabase, servicesFor, type TestDatabase } from '../helpers/databases.js';
import { buildWorld } from '../helpers/world.js';
import { openDatabase, type Database } from '../../src/storage/database.js';

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

/** An affiliate's sign-up whose address is confirmed: pending, as the operator finds it. */
async function pendingSignUp(name: string, email: string): Promise<string> {
  const { applications } = servicesFor(database);
  await applications.signUp({ name, email, password: 'a long enough password', country: 'PT', language: 'en', website: `https://${email.split('@')[1]}`, acceptTerms: true }, '192.0.2.7');
  const [application] = (await applications.list({ status: 'unverified' })).filter((a) => a.email === email);
  const link = await applications.issueVerifyLink(application!.id);
  return (await applications.verify(new URL(link!).searchParams.get('token')!)).id;
}
const mailTo = (address: string) => database.db.selectFrom('mail_messages').select(['template', 'params']).where('to_address', '=', address).orderBy('created_at').execute();

test('list shows pending applications; approve makes the affiliate and its owner; decline mails the reason', async () => {
  const first = await pendingSignUp('Rui Costa', 'rui@rui.example');
  const second = await pendingSignUp('Spam Bot', 'bot@bot.example');

  const listed = await runCli(['applications', 'list'], env());
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trim().split('\n');
  assert.deepEqual(
    lines.map((line) => line.split('\t').slice(0, 3)),
    [
      [first, 'affiliate', 'pending'],
      [second, 'affiliate', 'pending'],
    ],
  );
  assert.match(lines[0]!, /\tRui Costa\trui@rui\.example\tPT\thttps:\/\/rui\.example\//);

  const approved = await runCli(['applications', 'approve', first], env());
  assert.equal(approved.code, 0, approved.stderr);
  assert.match(approved.stdout, /Approved apl_\w+: affiliate rui-costa exists with rui@rui\.example as its owner/);
  assert.ok(await servicesFor(database).users.signIn('rui@rui.example', 'a long enough password'), 'the owner signs in with the password chosen at sign-up');
  assert.deepEqual((await mailTo('rui@rui.example')).map((m) => m.template), ['verify-address', 'application-received', 'application-approved']);

  const noReason = await runCli(['applications', 'decline', second], env());
  assert.notEqual(noReason.code, 0);
  assert.match(noReason.stderr, /--reason/);
  const declined = await runCli(['applications', 'decline', second, '--reason', 'No content on the site yet'], env());
  assert.equal(declined.code, 0, declined.stderr);
  assert.match((await mailTo('bot@bot.example')).at(-1)!.params ?? '', /No content on the site yet/);

  const again = await runCli(['applications', 'approve', second], env());
  assert.notEqual(again.code, 0);
  assert.match(again.stderr, /was decided already/);
  const unknown = await runCli(['applications', 'approve', 'apl_nope'], env());
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /no application apl_nope/);

  const decided = await runCli(['applications', 'list', '--status', 'approved'], env());
  assert.match(decided.stdout, new RegExp(`^${first}\taffiliate\tapproved`));
  const none = await runCli(['applications', 'list', '--kind', 'brand'], env());
  assert.equal(none.stdout.trim(), 'No pending applications.');
});
