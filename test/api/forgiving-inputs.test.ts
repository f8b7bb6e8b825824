// Fields are taken as Brazilians write them: a site or profile as @handle (with its network),
// instagram.com/handle, www.site.com.br or a full URL, stored as an https address; a phone number
// as (11) 98765-4321, 11987654321 or +55 11 98765-4321, stored in E.164; a CPF or CNPJ with any
// spaces, dots, slashes and dashes; an order line without its category. Each is refused, with a
// stable code and what to fix, only when it cannot be what it is asked for.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';
import { cookieOf, PASSWORD, signedUp, tokenOf, withSession, type TestSession } from '../helpers/sessions.js';
import { pageLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { freshClick, report, type Conversion } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';
import type { PayeeView } from '../../src/schemas/payee.js';

let mailbox: Mailbox;
let h: Harness;
let owner: TestSession;
let client = 0;

before(async () => {
  mailbox = await startMailbox();
  h = await startHarness({ SMTP_URL: mailbox.url, USER_RATE_LIMIT: '100000' });
  owner = await signedUp(h, 'ana@aff1.example', { affiliateId: 'aff-1' }, 'owner');
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});
beforeEach(() => {
  mailbox.received.length = 0;
});

const applications = () => h.service.services.applications;
const sendMail = () => h.service.services.jobs.runOnce('mail');
const arrivedTo = (address: string): ParsedMail[] => mailbox.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address);
/** Each request from a client address of its own: sign-ups are limited per client address. */
const post = (url: string, payload: object) => h.request({ method: 'POST', url, payload, remoteAddress: `198.51.100.${++client % 250}` });

let people = 0;
const affiliate = (website: string, channelKind?: string) => ({
  name: 'Ana Souza',
  email: `ana${++people}@blog.example`,
  password: PASSWORD,
  country: 'BR',
  language: 'pt-BR',
  website,
  ...(channelKind && { channelKind }),
  acceptTerms: true,
});
const storedWebsite = async (email: string) => (await applications().list({ status: 'unverified' })).find((a) => a.email === email)?.website;

describe('a site or profile on sign-up', () => {
  test('every way of writing it is accepted and stored as the https address of its kind', async () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['@anasouza.cria', 'instagram', 'https://www.instagram.com/anasouza.cria'],
      ['anasouza.cria', 'instagram', 'https://www.instagram.com/anasouza.cria'],
      ['instagram.com/anasouza.cria', undefined, 'https://www.instagram.com/anasouza.cria'],
      ['https://www.instagram.com/anasouza.cria/?igsh=MWx2dGU1', 'instagram', 'https://www.instagram.com/anasouza.cria'],
      ['@ana.souza', 'tiktok', 'https://www.tiktok.com/@ana.souza'],
      ['tiktok.com/@ana.souza', undefined, 'https://www.tiktok.com/@ana.souza'],
      ['@canaldaana', 'youtube', 'https://www.youtube.com/@canaldaana'],
      ['m.youtube.com/@canaldaana', 'youtube', 'https://www.youtube.com/@canaldaana'],
      ['@ana_souza', 'x', 'https://x.com/ana_souza'],
      ['twitter.com/ana_souza', undefined, 'https://x.com/ana_souza'],
      ['www.anasouza.com.br', undefined, 'https://www.anasouza.com.br/'],
      ['www.anasouza.com.br', 'site', 'https://www.anasouza.com.br/'],
      ['  https://blog.anasouza.com.br/receitas  ', undefined, 'https://blog.anasouza.com.br/receitas'],
    ];
    for (const [website, kind, stored] of cases) {
      const body = affiliate(website, kind);
      const res = await post('/signup', body);
      assert.equal(res.statusCode, 202, `${website} (${kind}): ${res.body}`);
      assert.equal(await storedWebsite(body.email), stored, `${website} (${kind})`);
    }
  });

  test('what cannot be an address of the kind is refused with a stable code saying what to fix', async () => {
    const cases: Array<[string, string | undefined, string, RegExp]> = [
      ['@anasouza.cria', undefined, 'website_network_needed', /is a handle: say which network it is on \(channelKind/],
      ['@anasouza.cria', 'site', 'website_network_needed', /is a handle/],
      ['www.anasouza.com.br', 'instagram', 'website_network_mismatch', /is not on the network chosen as channelKind/],
      ['instagram.com/anasouza.cria', 'tiktok', 'website_network_mismatch', /not on the network chosen/],
      ['@ana.souza', 'x', 'invalid_profile_handle', /has characters the network's handles do not allow/],
      ['@ana souza', 'instagram', 'invalid_website', /is not the address of a site or profile/],
      ['instagram.com', undefined, 'website_profile_missing', /add your profile/],
      ['ftp://files.example.com', undefined, 'invalid_website', /is not the address of a site or profile/],
      ['minha loja', undefined, 'invalid_website', /not the address/],
      ['localhost:3000', undefined, 'invalid_website', /not the address/],
      ['https://192.168.0.10/', undefined, 'invalid_website', /not the address/],
      ['https://ana:segredo@anasouza.com.br', undefined, 'invalid_website', /not the address/],
    ];
    for (const [website, kind, code, message] of cases) {
      const body = affiliate(website, kind);
      const error = assertError(await post('/signup', body), 400, code);
      assert.match(error.message, message, `${website} (${kind})`);
      assert.equal(await storedWebsite(body.email), undefined, 'no application made');
    }
    assertError(await post('/signup', affiliate('@anasouza.cria', 'whatsapp')), 400, 'invalid_body');
  });

  test('@anasouza.cria on Instagram, once approved, is the affiliate’s first channel, an Instagram one; an X profile an X one', async () => {
    for (const [website, kind, channel] of [
      ['@anasouza.cria', 'instagram', ['instagram', 'instagram.com/anasouza.cria']],
      ['@ana_souza', 'x', ['x', 'x.com/ana_souza']],
    ] as const) {
      const body = affiliate(website, kind);
      assert.equal((await post('/signup', body)).statusCode, 202);
      await sendMail();
      const link = pageLink(arrivedTo(body.email)[0]!, 'verify');
      assert.equal((await post('/signup/verify', { token: tokenOf(link) })).statusCode, 200);
      const id = (await applications().list({ status: 'pending' })).find((a) => a.email === body.email)!.id;
      await applications().approve(id, CLI);
      const session = await h.request({ method: 'POST', url: '/session', payload: { email: body.email, password: PASSWORD } });
      assert.equal(session.statusCode, 200, session.body);
      const channels = await h.request(withSession({ method: 'GET', url: '/affiliate/channels' }, { cookie: cookieOf(session)! }));
      assert.deepEqual(
        channels.json<{ data: Array<{ availableChannel: { id: string }; name: string }> }>().data.map((c) => [c.availableChannel.id, c.name]),
        [channel],
      );
    }
  });
});

describe("a brand's site and CNPJ on its application", () => {
  const brand = (website: string, taxId: string) => ({
    company: 'Loja Azul',
    name: 'Bruno Reis',
    email: `bruno${++people}@lojaazul.example`,
    country: 'BR',
    language: 'pt-BR',
    website,
    taxId,
    currency: 'BRL',
    expectedMonthlyOrders: 300,
    acceptTerms: true,
  });

  test('www.lojaazul.com.br and a CNPJ punctuated any way are accepted and stored plain', async () => {
    for (const taxId of ['11.222.333/0001-81', '11 222 333 0001 81', '11222333000181', '11-222-333/0001.81', '12 abc 345 01de 35']) {
      const body = brand('www.lojaazul.com.br', taxId);
      const res = await post('/brand-applications', body);
      assert.equal(res.statusCode, 202, `${taxId}: ${res.body}`);
      const stored = (await applications().list({ status: 'unverified' })).find((a) => a.email === body.email)!;
      assert.equal(stored.website, 'https://www.lojaazul.com.br/');
      assert.equal(stored.taxId, taxId.startsWith('12') ? '12ABC34501DE35' : '11222333000181', taxId);
    }
  });

  test('a CNPJ whose check digits are wrong, or with letters where punctuation goes, is refused', async () => {
    for (const taxId of ['11.222.333/0001-82', '11_222_333_0001_81', '11.222.333/0001-8']) {
      assertError(await post('/brand-applications', brand('www.lojaazul.com.br', taxId)), 400, 'invalid_tax_id');
    }
    assertError(await post('/brand-applications', brand('loja azul', '11222333000181')), 400, 'invalid_website');
  });
});

describe('payee details: a phone PIX key and a CPF as people write them', () => {
  const save = (body: object) => h.request(withSession({ method: 'PUT', url: '/affiliate/payee', payload: { ...body, password: PASSWORD } }, owner));
  const pix = (keyType: string, key: string, taxId = '529.982.247-25') => ({ legalName: 'Ana Souza', country: 'BR', taxId, method: { type: 'pix', keyType, key } });
  const storedKey = async () => {
    // Read as a payout run would, long after the hold a change starts.
    const destination = await h.service.services.payees.destinationFor('aff-1', '2100-01-01T00:00:00.000Z');
    return destination.ready && destination.details.method.type === 'pix' ? destination.details.method.key : undefined;
  };

  test('a phone number in Brazilian writing is stored in E.164', async () => {
    for (const [key, e164] of [
      ['(11) 98765-4321', '+5511987654321'],
      ['+55 11 98765-4321', '+5511987654321'],
      ['11987654321', '+5511987654321'],
      ['11 98765 4321', '+5511987654321'],
      ['011 98765-4321', '+5511987654321'],
      ['(21) 3456-7890', '+552134567890'],
    ]) {
      const res = await save(pix('phone', key!));
      assert.equal(res.statusCode, 200, `${key}: ${res.body}`);
      assert.match((res.json<{ data: PayeeView }>().data.method as { key: string }).key, new RegExp(`^\\+55\\*+${e164!.slice(-4)}$`), 'answered masked');
      assert.equal(await storedKey(), e164, key);
    }
  });

  test('what cannot be a Brazilian phone number is refused as invalid_pix_key, saying how to write one', async () => {
    for (const [key, why] of [
      ['98765-4321', /is not a Brazilian number \(check the area code and the digits\)/],
      ['(11) 98765-43210', /is not a Brazilian number/],
      ['(00) 98765-4321', /is not a Brazilian number/],
      ['(11) 98765-4321 ramal 2', /has characters a phone number does not/],
      ['+1 415 555 0100', /is not a Brazilian number: a PIX key is one/],
    ] as const) {
      const error = assertError(await save(pix('phone', key)), 400, 'invalid_pix_key');
      assert.match(error.message, why, key);
      assert.match(error.message, /e\.g\. \(11\) 98765-4321, 11987654321 or \+55 11 98765-4321/);
    }
  });

  test('a CPF or CNPJ with any spaces, dots, slashes and dashes is accepted, its check digits still verified', async () => {
    for (const cpf of ['529.982.247-25', '529 982 247 25', '529982247/25', '529-982-247-25', '52998224725']) {
      const res = await save(pix('cpf', cpf, cpf));
      assert.equal(res.statusCode, 200, `${cpf}: ${res.body}`);
      assert.equal(await storedKey(), '52998224725', cpf);
    }
    const cnpj = await save(pix('cnpj', '11 222 333 0001 81', '11-222-333-0001-81'));
    assert.equal(cnpj.statusCode, 200, cnpj.body);
    assert.equal(await storedKey(), '11222333000181');
    assertError(await save(pix('cpf', '529 982 247 24')), 400, 'invalid_pix_key');
    assertError(await save(pix('cpf', '52998224725', '529 982 247 24')), 400, 'invalid_tax_id');
    assertError(await save(pix('cpf', '529_982_247_25')), 400, 'invalid_pix_key');
  });
});

describe('order lines without a category', () => {
  let affiliateKey: string;
  let brand: { id: string; key: string };
  before(async () => {
    affiliateKey = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
    brand = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 });
  });

  test('a conversion and its correction may leave out categories: 0 (unknown) is recorded', async () => {
    const res = await report(h, brand.key, { clickId: await freshClick(h, affiliateKey, BRANDS.acme), orderId: 'no-category-1', value: 5000, items: [{ id: 'sku-9', name: 'Caneca', quantity: 2, price: 2500 }] });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json<{ data: Conversion }>().data.items, [{ id: 'sku-9', name: 'Caneca', quantity: 2, price: 2500, categories: 0 }]);

    const corrected = await h.request({ method: 'PATCH', url: '/advertiser/conversions/no-category-1', payload: { value: 2500, items: [{ id: 'sku-9', name: 'Caneca', quantity: 1, price: 2500 }] }, headers: { 'x-api-key': brand.key } });
    assert.equal(corrected.statusCode, 200, corrected.body);
    assert.deepEqual(corrected.json<{ data: Conversion }>().data.items, [{ id: 'sku-9', name: 'Caneca', quantity: 1, price: 2500, categories: 0 }]);

    const given = await report(h, brand.key, { clickId: await freshClick(h, affiliateKey, BRANDS.acme), orderId: 'with-category-1', value: 2500, items: [{ id: 'sku-9', name: 'Caneca', quantity: 1, price: 2500, categories: 7 }] });
    assert.equal(given.json<{ data: Conversion }>().data.items[0]?.categories, 7, 'a category given is kept');
    const negative = await report(h, brand.key, { clickId: await freshClick(h, affiliateKey, BRANDS.acme), orderId: 'bad-category-1', value: 2500, items: [{ id: 'sku-9', name: 'Caneca', quantity: 1, price: 2500, categories: -1 }] });
    assertError(negative, 400, 'invalid_body');
  });
});

describe("a brand's site on its profile", () => {
  test('www.shop.com.br is stored as an https address; what cannot be an address is refused as invalid_url', async () => {
    const brand = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.globex, rateLimit: 100_000 });
    const patch = (site: string) => h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { site }, headers: { 'x-api-key': brand.key } });
    const saved = await patch('www.globex-loja.com.br');
    assert.equal(saved.statusCode, 200, saved.body);
    const profile = await h.get('/advertiser/brand', brand.key);
    assert.equal(profile.json<{ data: { site: string } }>().data.site, 'https://www.globex-loja.com.br/');
    for (const site of ['globex loja', '@globexloja', 'ftp://globex.example.com']) {
      const error = assertError(await patch(site), 400, 'invalid_url');
      assert.match(error.message, /is not your shop's address: write it as www\.yourshop\.com\.br or https:\/\/…/, site);
    }
  });
});
