// A shop owner with no developer runs its programme alone, in Brazilian Portuguese, with nothing but
// pages and the mail that arrives: it applies, confirms its address, is approved, sets its password,
// sets its commission, adds a product typing its price the Brazilian way (an unreadable price is
// refused on the page, in Portuguese), launches and gives an affiliate of the network a personal
// coupon code before it made any link. The affiliate finds the product at R$ 129,90
// and its code. No page on the way names a route or a JSON field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { pageLink, setPasswordLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { runCli } from '../helpers/cli.js';
import { followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'uma senha longa o bastante';
const OWNER = 'lia@lojadalia.example';
const PRODUCT = 'Vestido midi de linho natural';
const CODE = 'MARIA10';
let mailbox: Mailbox;

const portal = portalUnderTest({
  prepare: async (database) => {
    mailbox = await startMailbox();
    // An affiliate of the network that has never made a link to the new brand.
    await servicesFor(database).users.createWithPassword({ affiliateId: 'aff-2' }, 'maria@criadora.example', 'owner', PASSWORD);
  },
  env: () => ({ SMTP_URL: mailbox.url, MAIL_POLL_MS: '200' }),
  alsoClose: async () => {
    await mailbox?.stop();
  },
});

async function newPage(): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => assert.fail(`uncaught error on ${page.url()}: ${error.message}`));
  return page;
}

async function mailTo(address: string, subject: RegExp): Promise<ParsedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = mailbox.received.find((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address && subject.test(mail.subject ?? ''));
    if (found) return found;
    assert.ok(Date.now() < deadline, `no mail "${subject.source}" reached ${address}`);
    await sleep(100);
  }
}

const open = (page: Page, link: string) => page.goto(new URL(link).pathname + new URL(link).search);
const nav = (page: Page, name: string) => followMenu(page, name);

/** No route, no JSON field name and no English refusal on the page the person sees. */
async function speaksToPeople(page: Page, where: string): Promise<void> {
  const text = await page.locator('main').innerText();
  for (const jargon of [/\/advertiser\//, /\/affiliate\//, /\bPUT\b|\bPATCH\b|\bPOST\b/, /\b(organizationId|affiliateId|orderId|isPublic|commission_value)\b/, /Something went wrong/]) {
    assert.doesNotMatch(text, jargon, `${where} shows ${jargon.source}`);
  }
}

test('a shop owner applies, sets its commission, adds a product at 129,90, launches and gives a personal code to an affiliate who made no link; the affiliate finds both', async () => {
  const page = await newPage();
  await page.goto('/app/');
  await page.getByRole('link', { name: 'Cadastre sua marca' }).click();
  await page.getByLabel('Nome da marca').fill('Loja da Lia');
  await page.getByLabel('Site da loja').fill('https://lojadalia.example');
  await page.getByLabel('País onde a empresa está registrada').selectOption('BR');
  await page.getByLabel('Identificação fiscal').fill('11.222.333/0001-81');
  await page.getByLabel('Moeda dos seus preços').selectOption('BRL');
  await page.getByLabel('Pedidos por mês esperados via afiliados').fill('80');
  await page.getByLabel('Nome do contato').fill('Lia Matos');
  await page.getByLabel('E-mail do contato').fill(OWNER);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Enviar pedido' }).click();
  await open(page, pageLink(await mailTo(OWNER, /./), 'verify'));
  await page.getByRole('button', { name: 'Confirmar meu endereço' }).click();
  await page.getByRole('status').filter({ hasText: 'seu endereço está confirmado' }).waitFor();

  // The operator approves the application at a shell.
  const env = { DATABASE_URL: portal.testDb.url, REDIS_URL: '' };
  const listed = await runCli(['applications', 'list'], env);
  const applicationId = listed.stdout.split('\n').find((line) => line.includes(`\t${OWNER}\t`))?.split('\t')[0];
  assert.ok(applicationId, listed.stdout);
  assert.equal((await runCli(['applications', 'approve', applicationId], env)).code, 0);
  await open(page, setPasswordLink(await welcomeMail()));
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Salvar e entrar' }).click();
  await page.getByRole('heading', { name: 'Lance sua marca' }).waitFor();

  // The commission: 10 % of each sale.
  await nav(page, 'Perfil');
  await page.getByRole('radio').first().check();
  await page.getByLabel('Porcentagem', { exact: true }).fill('10');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await page.getByRole('status').filter({ hasText: 'Salvo.' }).waitFor();
  await page.getByText('A rede cobra a comissão mais', { exact: false }).first().waitFor();
  await speaksToPeople(page, 'the profile');

  // A product, its price typed the Brazilian way; an unreadable one is refused on the page first.
  await nav(page, 'Catálogo');
  await page.getByRole('button', { name: 'Novo produto' }).click();
  const form = page.getByRole('form', { name: 'Novo produto' });
  await form.getByLabel('Nome').fill(PRODUCT);
  await form.getByLabel('Endereço da página do produto').fill('https://lojadalia.example/vestidos/midi-linho');
  await form.getByLabel('Preço', { exact: true }).fill('129,9O');
  await form.getByLabel('Endereços das imagens').fill('https://lojadalia.example/img/midi-linho.jpg');
  await form.getByRole('button', { name: 'Salvar produto' }).click();
  await form.getByTestId('price-error').getByText('Preço: digite um valor como 129,90.').waitFor();
  await form.getByLabel('Preço', { exact: true }).fill('129,90');
  await form.getByRole('button', { name: 'Salvar produto' }).click();
  await page.getByRole('status').filter({ hasText: `“${PRODUCT}” foi salvo.` }).waitFor();
  await page.getByText('R$ 129,90').first().waitFor();
  await speaksToPeople(page, 'the catalogue');

  // Launch, and what comes next.
  await nav(page, 'Visão geral');
  await page.getByRole('button', { name: 'Lançar' }).click();
  await page.getByRole('heading', { name: 'Sua marca está no ar' }).waitFor();
  await page.getByRole('heading', { name: 'O que fazer agora' }).waitFor();

  // Launched, the brand is public: the owner gives a personal code to Maria, an affiliate of the
  // network who never made a link to it, found by her id.
  await nav(page, 'Cupons');
  await page.getByLabel('Código', { exact: true }).fill(CODE);
  await page.getByLabel('Encontrar um afiliado').fill('aff-2');
  await page.getByText('Afiliados encontrados para “aff-2”: 1.').waitFor();
  await page.getByLabel('Afiliado', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Dar o cupom' }).click();
  await page.getByRole('status').filter({ hasText: CODE }).waitFor();
  await speaksToPeople(page, 'the coupons page');

  // Maria finds the product at R$ 129,90 and her code.
  const maria = await newPage();
  await maria.goto('/app/');
  await maria.getByLabel('E-mail').fill('maria@criadora.example');
  await maria.getByLabel('Senha').fill(PASSWORD);
  await maria.getByRole('button', { name: 'Entrar' }).click();
  await maria.getByRole('navigation', { name: 'Menu principal' }).waitFor();
  await nav(maria, 'Produtos');
  await maria.getByText(PRODUCT).first().waitFor();
  await maria.getByText('R$ 129,90').first().waitFor();
  // The product names its brand and what one sale of it earns her: 10 % of R$ 129,90.
  const row = maria.locator('tr', { hasText: PRODUCT });
  await row.getByRole('link', { name: 'Loja da Lia' }).waitFor();
  await row.getByTestId('product-earning').getByText(/^R\$\s12,99 \(10\s?%\)$/).waitFor();
  await maria.screenshot({ path: '/tmp/affiliate-products-earnings-1280.png', fullPage: true });
  await nav(maria, 'Meus cupons');
  await maria.getByTestId(`my-coupon-${CODE}`).getByText('Loja da Lia').waitFor();
  await maria.context().close();
  await page.context().close();
});

/** The mail to the owner that carries the link to set a password, once it arrives. */
async function welcomeMail(): Promise<ParsedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = mailbox.received.find((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === OWNER && (mail.text ?? '').includes('set-password'));
    if (found) return found;
    assert.ok(Date.now() < deadline, `no welcome mail reached ${OWNER}`);
    await sleep(100);
  }
}
