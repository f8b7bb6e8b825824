// Guessing is bounded everywhere: wrong second-factor codes count per account and per client
// address across tickets (10 and 30 in 15 minutes), and a right password resets nothing; wrong
// passwords typed to confirm a change count with sign-in's, under the same growing holds, and the
// person is mailed when the holds begin. With Redis the counts are shared between instances
// (test/scale/two-instances.test.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';
import { cookieOf, deviceOf, PASSWORD, type TestSession, withSession } from '../helpers/sessions.js';
import { operatorSession, totpCode } from '../helpers/operators.js';
import type { InjectOptions } from 'light-my-request';

// In the middle of a 30-second step, so a code made "now" stays current while a test runs.
const clock = new ManualClock(Math.floor(Date.now() / 30_000) * 30_000 + 15_000);
const MINUTE = 60_000;
let h: Harness;

before(async () => {
  h = await startHarness({ USER_RATE_LIMIT: '100000' }, { clock });
});
after(() => h?.close());

let addresses = 0;
const nextAddress = () => `203.0.113.${(addresses++ % 250) + 1}`;
const signIn = (email: string, password = PASSWORD, remoteAddress = nextAddress()) => h.request({ method: 'POST', url: '/session', remoteAddress, payload: { email, password } });
const sessionFrom = (res: { json<T>(): T; headers: Record<string, unknown> }): TestSession => ({ cookie: cookieOf(res)!, csrf: res.json<{ data: { csrfToken: string } }>().data.csrfToken, device: deviceOf(res) ?? '', setCookie: '' });
let people = 0;
const PAYEE = { legalName: 'Ana Lima', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'cpf', key: '529.982.247-25' } };
const wrongCode = (secret: string) => String((Number(totpCode(secret, clock.now())) + 500_000) % 1_000_000).padStart(6, '0');

/** A person (of aff-1 unless told) with an authenticator app, or one being set up (`confirmed` false); their session and the app's secret. */
async function withApp(email: string, options: { affiliateId?: string; role?: 'owner' | 'member'; confirmed?: boolean } = {}): Promise<{ session: TestSession; secret: string }> {
  await h.service.services.users.createWithPassword({ affiliateId: options.affiliateId ?? 'aff-1' }, email, options.role ?? 'member', PASSWORD);
  const session = sessionFrom(await signIn(email));
  const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, session))).json<{ data: { secret: string } }>().data;
  if (options.confirmed === false) return { session, secret };
  assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: totpCode(secret, clock.now()) } }, session))).statusCode, 200);
  clock.advance(30_000);
  return { session, secret };
}

/** Moves time on by `ms`: the service's clock, which judges the counters' windows in memory and in Redis alike. */
function elapse(ms: number): void {
  clock.advance(ms);
}

const ticketOf = async (email: string) => (await signIn(email)).json<{ data: { secondFactor: { ticket: string } } }>().data.secondFactor.ticket;

describe('second-factor codes', () => {
  test('sixty wrong codes across twelve tickets meet 429 after ten; a right password resets nothing; the window ends it', async () => {
    const { secret } = await withApp('guessed@aff1.example');
    const statuses: number[] = [];
    for (let ticket = 0; ticket < 12; ticket++) {
      const current = await ticketOf('guessed@aff1.example');
      for (let guess = 0; guess < 5; guess++) {
        const res = await h.request({ method: 'POST', url: '/session/second-factor', remoteAddress: nextAddress(), payload: { ticket: current, code: wrongCode(secret) } });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          assert.equal(res.json<{ code: string }>().code, 'too_many_codes');
          assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After says how long');
        }
      }
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401), 'the first ten are checked');
    assert.deepEqual(statuses.slice(10), Array(50).fill(429), 'every later one is refused unread');
    const held = await h.request({ method: 'POST', url: '/session/second-factor', remoteAddress: nextAddress(), payload: { ticket: await ticketOf('guessed@aff1.example'), code: totpCode(secret, clock.now()) } });
    assertError(held, 429, 'too_many_codes');
    elapse(15 * MINUTE);
    const later = await h.request({ method: 'POST', url: '/session/second-factor', remoteAddress: nextAddress(), payload: { ticket: await ticketOf('guessed@aff1.example'), code: totpCode(secret, clock.now()) } });
    assert.equal(later.statusCode, 200, `the window ended: ${later.body}`);
  });

  test('one client address meets 429 after thirty wrong codes, whichever accounts they are for', async () => {
    // One after the other: each enrolment moves the clock past its code.
    const spread: Array<{ secret: string }> = [];
    for (const name of ['a', 'b', 'c', 'd']) spread.push(await withApp(`spread.${name}@aff1.example`));
    const statuses: number[] = [];
    for (const [index, person] of spread.entries()) {
      for (let ticket = 0; ticket < 2; ticket++) {
        const current = await ticketOf(`spread.${'abcd'[index]}@aff1.example`);
        for (let guess = 0; guess < 4; guess++) {
          statuses.push((await h.request({ method: 'POST', url: '/session/second-factor', remoteAddress: '192.0.2.77', payload: { ticket: current, code: wrongCode(person.secret) } })).statusCode);
        }
      }
    }
    assert.deepEqual(statuses.slice(0, 30), Array(30).fill(401));
    assert.deepEqual(statuses.slice(30), [429, 429]);
  });

  test('codes that confirm a change count too', async () => {
    const { session, secret } = await withApp('confirming@aff1.example');
    clock.advance(11 * MINUTE);
    const statuses: number[] = [];
    for (let guess = 0; guess < 12; guess++) {
      statuses.push((await h.request(withSession({ method: 'DELETE', url: '/session/totp', remoteAddress: nextAddress(), payload: { code: wrongCode(secret) } }, session))).statusCode);
    }
    assert.deepEqual(statuses, [...Array<number>(10).fill(400), 429, 429]);
    assertError(await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { code: totpCode(secret, clock.now()) } }, session)), 429, 'too_many_codes');
  });

  test('every route that confirms with a code counts wrong ones: the eleventh is refused unread', async () => {
    const routes: Array<{ name: string; request: (secret: string, session: TestSession | undefined) => InjectOptions; person: () => Promise<{ session?: TestSession; headers?: Record<string, string>; secret: string }> }> = [
      { name: 'POST /session/second-factor/confirm', person: () => withApp(`confirm.${++people}@aff1.example`), request: (secret) => ({ method: 'POST', url: '/session/second-factor/confirm', payload: { code: wrongCode(secret) } }) },
      { name: 'DELETE /session/totp', person: () => withApp(`off.${++people}@aff1.example`), request: (secret) => ({ method: 'DELETE', url: '/session/totp', payload: { code: wrongCode(secret) } }) },
      { name: 'POST /session/recovery-codes', person: () => withApp(`codes.${++people}@aff1.example`), request: (secret) => ({ method: 'POST', url: '/session/recovery-codes', payload: { code: wrongCode(secret) } }) },
      { name: 'POST /session/totp/confirm', person: () => withApp(`enrolling.${++people}@aff1.example`, { confirmed: false }), request: (secret) => ({ method: 'POST', url: '/session/totp/confirm', payload: { code: wrongCode(secret) } }) },
      {
        name: 'PUT /affiliate/payee',
        person: async () => {
          const person = await withApp(`payee.${++people}@aff2.example`, { affiliateId: 'aff-2', role: 'owner' });
          clock.advance(11 * MINUTE); // the enrolment no longer counts as a current factor
          return person;
        },
        request: (secret) => ({ method: 'PUT', url: '/affiliate/payee', payload: { ...PAYEE, code: wrongCode(secret) } }),
      },
      {
        name: 'POST /operator/payout-runs',
        person: async () => {
          const operator = await operatorSession(h, clock.now());
          clock.advance(11 * MINUTE); // the enrolment no longer counts as a current factor
          return { headers: operator.headers, secret: operator.secret };
        }, request: (secret) => ({ method: 'POST', url: '/operator/payout-runs', payload: { code: wrongCode(secret) } }) },
    ];
    for (const route of routes) {
      const { session, headers, secret } = await route.person();
      const statuses: number[] = [];
      for (let guess = 0; guess < 11; guess++) {
        const request = route.request(secret, session);
        const res = await h.request(session ? withSession({ ...request, remoteAddress: nextAddress() }, session) : { ...request, remoteAddress: nextAddress(), headers });
        statuses.push(res.statusCode);
      }
      assert.deepEqual(statuses, [...Array<number>(10).fill(400), 429], route.name);
    }
  });
});

describe('passwords that confirm a change', () => {
  test('thirty wrong passwords through the payee form meet the sign-in holds, and the person is mailed once', async () => {
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-2' }, 'payee.owner@aff2.example', 'owner', PASSWORD);
    const session = sessionFrom(await signIn('payee.owner@aff2.example'));
    const body = { legalName: 'Ana Lima', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'cpf', key: '529.982.247-25' } };
    const statuses: number[] = [];
    for (let guess = 0; guess < 30; guess++) {
      const res = await h.request(withSession({ method: 'PUT', url: '/affiliate/payee', remoteAddress: '192.0.2.88', payload: { ...body, password: `wrong guess ${guess}` } }, session));
      statuses.push(res.statusCode);
      if (res.statusCode === 429) assert.equal(res.json<{ code: string }>().code, 'too_many_sign_ins');
    }
    // Five are free, the sixth is checked and starts a hold of a second: the rest come within it.
    assert.deepEqual(statuses, [...Array<number>(6).fill(400), ...Array<number>(24).fill(429)]);
    // The hold is the account's: a sign-in with the right password waits too, then works.
    assertError(await signIn('payee.owner@aff2.example'), 429, 'too_many_sign_ins');
    elapse(2_000);
    const right = await h.request(withSession({ method: 'PUT', url: '/affiliate/payee', remoteAddress: '192.0.2.88', payload: { ...body, password: PASSWORD } }, session));
    assert.notEqual(right.statusCode, 429, right.body);
    assert.notEqual(right.json<{ code?: string }>().code, 'invalid_password');
    const mail = await h.service.database.db.selectFrom('mail_messages').selectAll().where('template', '=', 'wrong-passwords').where('to_address', '=', 'payee.owner@aff2.example').execute();
    assert.equal(mail.length, 1, 'mailed once, when the holds began');
  });

  test('wrong sign-in passwords mail the person when the holds begin, not before', async () => {
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-2' }, 'targeted@aff2.example', 'member', PASSWORD);
    const mailed = async () => (await h.service.database.db.selectFrom('mail_messages').select('id').where('template', '=', 'wrong-passwords').where('to_address', '=', 'targeted@aff2.example').execute()).length;
    for (let guess = 0; guess < 5; guess++) assertError(await signIn('targeted@aff2.example', `guess ${guess}`), 401, 'invalid_credentials');
    assert.equal(await mailed(), 0, 'five free failures tell nobody');
    assertError(await signIn('targeted@aff2.example', 'guess 5'), 401, 'invalid_credentials');
    assert.equal(await mailed(), 1);
  });
});
