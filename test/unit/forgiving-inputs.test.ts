// The readers of what people type: a site or profile into an https address of its kind, a phone
// number into E.164, a CPF or CNPJ into its digits; each says why when the text cannot be one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileAddressOf, type ProfileKind } from '../../src/lib/profile-addresses.js';
import { phoneNumberOf } from '../../src/lib/phone-numbers.js';
import { cnpjOf, cpfOf } from '../../src/lib/tax-ids.js';

test('a site or profile written any usual way becomes the https address of its kind', () => {
  const cases: Array<[string, ProfileKind | undefined, string, ProfileKind]> = [
    ['@anasouza.cria', 'instagram', 'https://www.instagram.com/anasouza.cria', 'instagram'],
    ['anasouza.cria', 'instagram', 'https://www.instagram.com/anasouza.cria', 'instagram'],
    ['instagram.com/anasouza.cria', undefined, 'https://www.instagram.com/anasouza.cria', 'instagram'],
    ['http://instagram.com/anasouza.cria/', 'instagram', 'https://www.instagram.com/anasouza.cria', 'instagram'],
    ['https://www.instagram.com/anasouza.cria/?igsh=MWx2dGU1#top', undefined, 'https://www.instagram.com/anasouza.cria', 'instagram'],
    ['@ana.souza', 'tiktok', 'https://www.tiktok.com/@ana.souza', 'tiktok'],
    ['https://www.tiktok.com/@ana.souza?lang=pt-BR', undefined, 'https://www.tiktok.com/@ana.souza', 'tiktok'],
    ['@canaldaana', 'youtube', 'https://www.youtube.com/@canaldaana', 'youtube'],
    ['youtube.com/channel/UC1234567890', undefined, 'https://www.youtube.com/channel/UC1234567890', 'youtube'],
    ['youtu.be/dQw4w9WgXcQ', undefined, 'https://youtu.be/dQw4w9WgXcQ', 'youtube'],
    ['@ana_souza', 'x', 'https://x.com/ana_souza', 'x'],
    ['mobile.twitter.com/ana_souza', undefined, 'https://x.com/ana_souza', 'x'],
    ['www.anasouza.com.br', undefined, 'https://www.anasouza.com.br/', 'site'],
    ['www.anasouza.com.br', 'site', 'https://www.anasouza.com.br/', 'site'],
    ['anasouza.com.br/receitas?page=2', undefined, 'https://anasouza.com.br/receitas?page=2', 'site'],
    ['http://blog.anasouza.com.br', undefined, 'http://blog.anasouza.com.br/', 'site'],
    ['  HTTPS://Loja.Example.COM.BR/Produtos  ', 'site', 'https://loja.example.com.br/Produtos', 'site'],
    ['https://café.com.br', undefined, 'https://xn--caf-dma.com.br/', 'site'],
  ];
  for (const [text, kind, url, kindOut] of cases) {
    assert.deepEqual(profileAddressOf(text, kind), { ok: true, url, kind: kindOut }, `${text} (${kind})`);
  }
});

test('what cannot be such an address says why', () => {
  const cases: Array<[string, ProfileKind | undefined, string]> = [
    ['', undefined, 'unreadable'],
    ['   ', 'instagram', 'unreadable'],
    ['minha loja', undefined, 'unreadable'],
    ['anasouza', undefined, 'unreadable'],
    ['ftp://files.example.com', undefined, 'unreadable'],
    ['javascript:alert(1)', undefined, 'unreadable'],
    ['https://192.168.0.10', undefined, 'unreadable'],
    ['localhost:3000', 'site', 'unreadable'],
    ['https://ana:segredo@anasouza.com.br', undefined, 'unreadable'],
    [`https://${'a'.repeat(2050)}.com`, undefined, 'unreadable'],
    ['@anasouza.cria', undefined, 'needs_network'],
    ['@anasouza.cria', 'site', 'needs_network'],
    ['www.anasouza.com.br', 'instagram', 'wrong_network'],
    ['anasouza.com', 'tiktok', 'wrong_network'],
    ['tiktok.com/@ana', 'instagram', 'wrong_network'],
    ['instagram.com/ana', 'site', 'wrong_network'],
    ['@ana.souza', 'x', 'bad_handle'],
    ['@ana!', 'instagram', 'bad_handle'],
    ['@a', 'tiktok', 'bad_handle'],
    ['@', 'instagram', 'bad_handle'],
    ['instagram.com', undefined, 'no_profile'],
    ['https://www.youtube.com/', 'youtube', 'no_profile'],
  ];
  for (const [text, kind, refusal] of cases) {
    assert.deepEqual(profileAddressOf(text, kind), { ok: false, refusal }, `${JSON.stringify(text.slice(0, 40))} (${kind})`);
  }
});

test('a phone number in Brazilian writing becomes E.164; one that cannot be a number says why', async () => {
  for (const text of ['(11) 98765-4321', '+55 11 98765-4321', '11987654321', '11 98765 4321', '011 98765-4321', '55 11 98765 4321', '+5511987654321', '11.98765.4321']) {
    assert.deepEqual(await phoneNumberOf(text), { ok: true, e164: '+5511987654321', country: 'BR' }, text);
  }
  assert.deepEqual(await phoneNumberOf('(21) 3456-7890'), { ok: true, e164: '+552134567890', country: 'BR' }, 'a landline');
  assert.deepEqual(await phoneNumberOf('+1 415 555 0100'), { ok: true, e164: '+14155550100', country: 'US' }, 'a foreign number with its country code');
  for (const [text, refusal] of [
    ['98765-4321', 'not_a_number'],
    ['(11) 98765-43210', 'not_a_number'],
    ['(00) 98765-4321', 'not_a_number'],
    ['(11) 1234-5678', 'not_a_number'],
    ['(11) 98765-4321 ramal 2', 'unreadable'],
    ['onze 98765-4321', 'unreadable'],
    ['', 'unreadable'],
    ['()- ', 'unreadable'],
  ] as const) {
    assert.deepEqual(await phoneNumberOf(text), { ok: false, refusal }, text);
  }
});

test('a CPF or CNPJ with any spaces, dots, slashes and dashes is read, its check digits verified', () => {
  for (const text of ['529.982.247-25', '529 982 247 25', '529982247/25', '529-982-247-25', ' 52998224725 ', '529..982 / 247--25']) assert.equal(cpfOf(text), '52998224725', text);
  for (const text of ['529.982.247-24', '111.111.111-11', '529_982_247_25', '529.982.247-2', '5299822472a']) assert.equal(cpfOf(text), undefined, text);
  for (const text of ['11.222.333/0001-81', '11 222 333 0001 81', '11-222-333-0001-81', '11222333000181']) assert.equal(cnpjOf(text), '11222333000181', text);
  assert.equal(cnpjOf('12 abc 345 01de 35'), '12ABC34501DE35', 'the alphanumeric CNPJ');
  for (const text of ['11.222.333/0001-82', '11_222_333_0001_81', '11.222.333/0001-8', '52998224725']) assert.equal(cnpjOf(text), undefined, text);
});
