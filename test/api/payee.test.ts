// Payee details: where an affiliate is paid. Only its owners, signed in to the portal, read and
// change them (no API key, no member, no brand); every value is checked for its type and every
// refusal names the field; answers are masked and the database holds no detail in clear; a change
// asks for the password again (or the second factor of a person who has one), mails every owner,
// and holds the affiliate's payouts; the payout runs read where to pay with destinationFor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { PASSWORD, signedUp, withSession, type TestSession } from '../helpers/sessions.js';
import { brandKey } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { ManualClock } from '../../src/lib/clock.js';
import { openRepositories } from '../../src/storage/repositories/index.js';
import { PayeeService } from '../../src/domain/payees/payee-service.js';
import { keyRingOf } from '../../src/lib/key-ring.js';
import { renderMail } from '../../src/domain/mail/templates.js';
import type { PayeeView } from '../../src/schemas/payee.js';
import { totpCode } from '../helpers/operators.js';

const HOUR = 3_600_000;
// In the middle of a 30-second step, so a code made "now" stays current while a test runs.
const clock = new ManualClock(Math.floor(Date.now() / 30_000) * 30_000 + 15_000);
let h: Harness;
let owner: TestSession;
let fellowOwner: TestSession;
let member: TestSession;

const CPF = '529.982.247-25';
const CNPJ = '11.222.333/0001-81';
const pixCpf = { legalName: 'Ana Lima', country: 'BR', taxId: CPF, method: { type: 'pix', keyType: 'cpf', key: CPF } };

before(async () => {
  h = await startHarness({ USER_RATE_LIMIT: '100000' }, { clock });
  owner = await signedUp(h, 'ana@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  fellowOwner = await signedUp(h, 'bia@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  await h.request(withSession({ method: 'PATCH', url: '/session', payload: { language: 'pt-BR' } }, fellowOwner));
  member = await signedUp(h, 'caio@aff1.example', { affiliateId: 'aff-1' }, 'member');
});
after(() => h?.close());

const get = (session: TestSession) => h.request(withSession({ method: 'GET', url: '/affiliate/payee' }, session));
const put = (session: TestSession, body: object) => h.request(withSession({ method: 'PUT', url: '/affiliate/payee', payload: body }, session));
/** A PUT by the owner with the password. */
const save = (body: object) => put(owner, { ...body, password: PASSWORD });
const viewOf = (res: { json<T>(): T }) => res.json<{ data: PayeeView }>().data;
const payeeRow = () => h.service.database.db.selectFrom('payee_details').selectAll().where('affiliate_id', '=', 'aff-1').executeTakeFirst();
const payeeMail = () => h.service.database.db.selectFrom('mail_messages').selectAll().where('template', '=', 'payee-changed').orderBy('created_at').execute();

describe('payee details', () => {
  test('none at first; saved with PIX by CPF, answered masked, stored encrypted with the key id inside', async () => {
    const none = assertError(await get(owner), 404, 'payee_not_found');
    assert.match(none.message, /No payee details yet: save them with PUT \/affiliate\/payee/);

    const saved = await save(pixCpf);
    assert.equal(saved.statusCode, 200, saved.body);
    const view = viewOf(saved);
    assert.equal(view.legalName, 'Ana Lima');
    assert.equal(view.taxId, '***.982.247-**');
    assert.deepEqual(view.method, { type: 'pix', keyType: 'cpf', key: '***.982.247-**' });
    assert.equal(view.summary, 'PIX cpf ***.982.247-**');
    assert.equal(view.held, true);
    assert.equal(Date.parse(view.heldUntil) - clock.now(), 48 * HOUR);
    assert.deepEqual(viewOf(await get(owner)), view, 'read back the same, masked');
    assert.ok(!saved.body.includes('52998224725') && !saved.body.includes(CPF), 'the answer never holds the CPF in full');

    const row = (await payeeRow())!;
    assert.match(row.details, /^pk1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(row.details.split('.')[1], row.key_id, 'the key id is inside the ciphertext');
    for (const clear of ['52998224725', 'Ana Lima', 'cpf']) assert.ok(!row.details.includes(clear), `${clear} is not stored in clear`);
  });

  test('every PIX key type and both kinds of bank account are accepted, normalised and masked', async () => {
    const cases: Array<[object, Partial<PayeeView>]> = [
      [{ ...pixCpf, taxId: '12.ABC.345/01DE-35', method: { type: 'pix', keyType: 'cnpj', key: '12abc34501de35' } }, { taxId: '**.ABC.345/****-**', summary: 'PIX cnpj **.ABC.345/****-**' }],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'cnpj', key: CNPJ } }, { summary: 'PIX cnpj **.222.333/****-**' }],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'email', key: 'Ana.Lima@Example.com' } }, { summary: 'PIX email a***@example.com' }],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'phone', key: '+55 (11) 98765-4321' } }, { summary: 'PIX phone +55*******4321' }],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'random', key: '3F2B8C1E-5D4A-4F6B-9C0D-1E2F3A4B5C6D' } }, { summary: 'PIX random ********-****-****-****-********5c6d' }],
      [{ ...pixCpf, method: { type: 'bank', bankCode: '341', branch: '1234', account: '12345-6' } }, { summary: 'Bank 341 branch 1234 account ***45-6' }],
      [{ legalName: 'João Silva', country: 'PT', taxId: '123456789', method: { type: 'bank', iban: 'PT50 0002 0123 1234 5678 9015 4' } }, { taxId: '*****6789', summary: 'IBAN PT** **** **** **** **** *015 4' }],
      [{ legalName: 'Jane Roe', country: 'DE', method: { type: 'bank', iban: 'de89370400440532013000' } }, { summary: 'IBAN DE** **** **** **** **30 00' }],
    ];
    for (const [body, expected] of cases) {
      const res = await save(body);
      assert.equal(res.statusCode, 200, `${JSON.stringify(body)}: ${res.body}`);
      const view = viewOf(res);
      for (const [field, value] of Object.entries(expected)) assert.equal(view[field as keyof PayeeView], value, `${field} of ${JSON.stringify(body)}`);
    }
    const bank = viewOf(await save({ ...pixCpf, method: { type: 'bank', bankCode: '001', branch: '0001-9', account: '000123456-x', accountType: 'savings' } }));
    assert.deepEqual(bank.method, { type: 'bank', bankCode: '001', branch: '0001-9', account: '*******56-X', accountType: 'savings' });
  });

  test('every bad value answers 400 naming the field and what to fix; nothing is saved', async () => {
    await save(pixCpf);
    const before = await payeeRow();
    const refusals: Array<[object, string, RegExp]> = [
      [{ ...pixCpf, taxId: '529.982.247-24' }, 'invalid_tax_id', /^taxId: "529\.982\.247-24" is not a valid CPF or CNPJ/],
      [{ ...pixCpf, taxId: undefined }, 'invalid_tax_id', /^taxId: a payee in Brazil needs a CPF or CNPJ/],
      [{ ...pixCpf, taxId: '11.222.333/0001-82' }, 'invalid_tax_id', /not a valid CPF or CNPJ/],
      [{ ...pixCpf, legalName: ' x ' }, 'invalid_legal_name', /^legalName: /],
      [{ ...pixCpf, country: 'XX' }, 'invalid_country', /country must be an ISO 3166-1 alpha-2 code/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'cpf', key: '111.111.111-11' } }, 'invalid_pix_key', /^method\.key: "111\.111\.111-11" is not a valid CPF/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'cnpj', key: '11.222.333/0001-80' } }, 'invalid_pix_key', /^method\.key: .* is not a valid CNPJ/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'email', key: 'ana@' } }, 'invalid_pix_key', /^method\.key: "ana@" is not an e-mail address/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'phone', key: '98765-4321' } }, 'invalid_pix_key', /^method\.key: "98765-4321" is not a Brazilian number \(check the area code and the digits\)/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'phone', key: '+1 415 555 0100' } }, 'invalid_pix_key', /^method\.key: .* is not a Brazilian number: a PIX key is one/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'random', key: 'not-a-uuid' } }, 'invalid_pix_key', /^method\.key: "not-a-uuid" is not a random PIX key/],
      [{ ...pixCpf, method: { type: 'bank', iban: 'DE89370400440532013001' } }, 'invalid_iban', /^method\.iban: .* is not a valid IBAN/],
      [{ ...pixCpf, method: { type: 'bank', iban: 'DE89370400440532013000', bankCode: '341' } }, 'invalid_bank_account', /give either iban, or bankCode, branch and account, not both \(remove bankCode\)/],
      [{ ...pixCpf, method: { type: 'bank', bankCode: '341' } }, 'invalid_bank_account', /missing: branch, account/],
      [{ ...pixCpf, method: { type: 'bank', bankCode: '3411', branch: '1234', account: '12345-6' } }, 'invalid_bank_account', /^method\.bankCode: "3411" is not a bank code/],
      [{ ...pixCpf, method: { type: 'bank', bankCode: '341', branch: '12a', account: '12345-6' } }, 'invalid_bank_account', /^method\.branch: /],
      [{ ...pixCpf, method: { type: 'bank', bankCode: '341', branch: '1234', account: 'abc' } }, 'invalid_bank_account', /^method\.account: /],
      [{ ...pixCpf, method: { type: 'boleto' } }, 'invalid_body', /^method\.type must be one of pix, bank \(got "boleto"\)/],
      [{ ...pixCpf, method: { keyType: 'cpf', key: CPF } }, 'invalid_body', /^method\.type must be one of pix, bank$/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'iban', key: CPF } }, 'invalid_body', /^method\.keyType must be one of cpf, cnpj, email, phone, random/],
      [{ ...pixCpf, method: { type: 'pix', keyType: 'cpf', key: CPF, iban: 'x' } }, 'invalid_body', /unknown body field "iban" in method/],
    ];
    for (const [body, code, message] of refusals) {
      const res = await save(body);
      const error = assertError(res, 400);
      assert.equal(error.code, code, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(error.message, message, JSON.stringify(body));
    }
    assert.deepEqual(await payeeRow(), before, 'nothing was saved');
  });

  test('only the affiliate’s signed-in owners reach them: no API key, no member, no brand, no one signed out', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const payload = method === 'PUT' ? { ...pixCpf, password: PASSWORD } : undefined;
      const request = (headers: Record<string, string>): InjectOptions => ({ method, url: '/affiliate/payee', headers, ...(payload && { payload }) });
      const byKey = assertError(await h.request(request({ 'x-api-key': h.world.keys.aff1 })), 403, 'forbidden');
      assert.match(byKey.message, /payee details are never read or changed with an API key/);
      assertError(await h.request(request({ 'x-api-key': await brandKey(h, BRANDS.acme) })), 403);
      assertError(await h.request(request({})), 401);
      const byMember = assertError(await h.request(withSession(request({}), member)), 403, 'forbidden');
      assert.match(byMember.message, /Your role does not allow this \(it needs the scope payee:write\): ask an owner/);
      const brandOwner = await signedUp(h, `owner-${method}@acme.example`, { brandId: BRANDS.acme }, 'owner');
      assertError(await h.request(withSession(request({}), brandOwner)), 403);
    }
    const other = await signedUp(h, 'dora@aff2.example', { affiliateId: 'aff-2' }, 'owner');
    assertError(await get(other), 404, 'payee_not_found'); // another affiliate’s owner sees only its own (none)
  });

  test('a change asks for the password again: missing or wrong, 400 and nothing saved', async () => {
    const before = await payeeRow();
    const missing = assertError(await put(owner, pixCpf), 400, 'password_required');
    assert.match(missing.message, /^password: type your password again/);
    const wrong = assertError(await put(owner, { ...pixCpf, method: { type: 'pix', keyType: 'email', key: 'x@example.com' }, password: 'not the password' }), 400, 'invalid_password');
    assert.match(wrong.message, /^password: the password is wrong/);
    assert.deepEqual(await payeeRow(), before);
  });

  test('a person with a second factor confirms with it, not the password; a recent one suffices for 10 minutes', async () => {
    const secret = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, fellowOwner))).json<{ data: { secret: string } }>().data.secret;
    const codeAt = (ms = clock.now()) => totpCode(secret, ms);
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt() } }, fellowOwner))).statusCode, 200);
    clock.advance(11 * 60_000); // the confirmation counted as a second factor: let it age
    await get(fellowOwner); // keep the session alive

    const body = { ...pixCpf, method: { type: 'pix', keyType: 'email', key: 'bia@aff1.example' } };
    const byPassword = assertError(await put(fellowOwner, { ...body, password: PASSWORD }), 400, 'second_factor_needed');
    assert.match(byPassword.message, /^code: you have set up a second factor, so confirm this change with the current code of your authenticator app/);
    assertError(await put(fellowOwner, { ...body, code: '000000' }), 400, 'invalid_code');
    const confirmed = await put(fellowOwner, { ...body, code: codeAt() });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(viewOf(confirmed).summary, 'PIX email b***@aff1.example');

    clock.advance(5 * 60_000);
    const recent = await put(fellowOwner, { ...body, method: { type: 'pix', keyType: 'phone', key: '+5511987654321' } });
    assert.equal(recent.statusCode, 200, `within 10 minutes of the code, no new one is asked: ${recent.body}`);
    clock.advance(6 * 60_000);
    assertError(await put(fellowOwner, body), 400, 'second_factor_needed');
  });

  test('a change mails every owner in their language (not members); the same details again change nothing', async () => {
    const sent = (await payeeMail()).length;
    const res = await save({ ...pixCpf, method: { type: 'pix', keyType: 'random', key: '3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d' } });
    assert.equal(res.statusCode, 200, res.body);
    const mail = (await payeeMail()).slice(sent);
    assert.deepEqual(mail.map((m) => [m.to_address, m.locale]).sort(), [
      ['ana@aff1.example', 'en'],
      ['bia@aff1.example', 'pt-BR'],
    ]);
    const english = renderMail('payee-changed', 'en', { network: 'affnet', ...(JSON.parse(mail.find((m) => m.locale === 'en')!.params ?? '{}') as object) });
    assert.match(english.subject, /^Payout details of .* changed on affnet$/);
    assert.match(english.text, /changed by ana@aff1\.example/);
    assert.match(english.text, /PIX random \*{8}-\*{4}-\*{4}-\*{4}-\*{8}5c6d/);
    assert.match(english.text, /payouts are held until/);
    assert.ok(!english.text.includes('3f2b8c1e'), 'the mail shows the details masked');
    const portuguese = renderMail('payee-changed', 'pt-BR', { network: 'affnet', ...(JSON.parse(mail.find((m) => m.locale === 'pt-BR')!.params ?? '{}') as object) });
    assert.match(portuguese.subject, /^Dados de pagamento de .* alterados na affnet$/);

    const heldUntil = (await payeeRow())!.held_until;
    clock.advance(10 * 60_000);
    const again = await save({ ...pixCpf, method: { type: 'pix', keyType: 'random', key: '3F2B8C1E-5D4A-4F6B-9C0D-1E2F3A4B5C6D' } });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((await payeeMail()).length, sent + 2, 'no mail for the same details');
    assert.equal((await payeeRow())!.held_until, heldUntil, 'and no new hold');
  });
});

describe('where a payout goes (destinationFor)', () => {
  test('no details; details changed within 48 hours (held); ready after, in full with a masked line', async () => {
    const payees = h.service.services.payees;
    assert.deepEqual(await payees.destinationFor('aff-2', clock.iso()), { ready: false, reason: 'no payee details', waits: { reason: 'no_payee_details' } });
    const saved = viewOf(await save({ ...pixCpf, method: { type: 'pix', keyType: 'cpf', key: '52998224725' } }));
    const changedAt = saved.updatedAt;
    const held = await payees.destinationFor('aff-1', new Date(clock.now() + 47 * HOUR).toISOString());
    assert.deepEqual(held, { ready: false, reason: `payee details changed at ${changedAt}: payouts held until ${saved.heldUntil}`, waits: { reason: 'payee_details_held', since: changedAt, until: saved.heldUntil } });
    const ready = await payees.destinationFor('aff-1', new Date(clock.now() + 48 * HOUR).toISOString());
    assert.deepEqual(ready, {
      ready: true,
      details: { legalName: 'Ana Lima', country: 'BR', taxId: '52998224725', method: { type: 'pix', keyType: 'cpf', key: '52998224725' } },
      masked: 'PIX cpf ***.982.247-**',
      updatedAt: changedAt,
    });
  });

  test('without the key they were written with, details cannot be read: the run is told why, the page gets 503', async () => {
    const noKey = new PayeeService(openRepositories(h.service.database), h.service.services.secondFactors, clock, { keys: keyRingOf({ currentKey: undefined, oldKeys: [], keyFile: null }), holdHours: 48, publicUrl: 'http://go.test' });
    assert.deepEqual(await noKey.destinationFor('aff-1', new Date(clock.now() + 100 * HOUR).toISOString()), { ready: false, reason: 'payee details cannot be read: no encryption key', waits: { reason: 'payee_details_unreadable' } });
    await assert.rejects(noKey.view('aff-1'), (error: Error & { code?: string }) => error.code === 'payee_key_missing');
  });
});

describe('with PostgreSQL and no key configured', { skip: !process.env.TEST_POSTGRES_URL && 'PostgreSQL only (SQLite makes its key file)' }, () => {
  test('payee writes answer 503 in the error shape, saying what the operator must set; nothing is stored', async () => {
    const bare = await startHarness({ PAYEE_ENCRYPTION_KEY: '', USER_RATE_LIMIT: '100000' });
    try {
      assert.equal(bare.service.services.payees.keyStatus().writable, false);
      const session = await signedUp(bare, 'eva@aff1.example', { affiliateId: 'aff-1' }, 'owner');
      const res = await bare.request(withSession({ method: 'PUT', url: '/affiliate/payee', payload: { ...pixCpf, password: PASSWORD } }, session));
      const error = assertError(res, 503, 'payee_key_missing');
      assert.match(error.message, /^Payee details cannot be saved: no encryption key is configured on the server \(the operator sets PAYEE_ENCRYPTION_KEY/);
      assertError(await bare.request(withSession({ method: 'GET', url: '/affiliate/payee' }, session)), 404, 'payee_not_found');
      assert.equal(await bare.service.database.db.selectFrom('payee_details').select('affiliate_id').executeTakeFirst(), undefined);
    } finally {
      await bare.close();
    }
  });
});
