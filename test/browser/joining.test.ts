// Joining as a person does it, with nothing but pages and the mail that arrives: an affiliate
// signs up from the sign-in page, confirms the address from the mail, is approved by the operator
// at a shell, signs in and makes a first tracked link; a brand applies, is approved, and its owner
// sets a password from the welcome mail and lands on the steps to launch. A creator in Brazil signs
// up with her Instagram handle as she writes it, @anasouza.cria, and finds it as her first channel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { pageLink, setPasswordLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { runCli } from '../helpers/cli.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
let mailbox: Mailbox;

const portal = portalUnderTest({
  prepare: async () => {
    mailbox = await startMailbox();
  },
  env: () => ({ SMTP_URL: mailbox.url, MAIL_POLL_MS: '200' }),
  alsoClose: async () => {
    await mailbox?.stop();
  },
});

async function newPage(): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => assert.fail(`uncaught error on ${page.url()}: ${error.message}`));
  return page;
}

/** The mail to `address` whose subject matches, once it arrives. */
async function mailTo(address: string, subject: RegExp): Promise<ParsedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = mailbox.received.find((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address && subject.test(mail.subject ?? ''));
    if (found) return found;
    assert.ok(Date.now() < deadline, `no mail "${subject.source}" reached ${address}`);
    await sleep(100);
  }
}

/** What the operator does at a shell: the pending application of this address, approved. */
async function approveAtShell(email: string): Promise<void> {
  const env = { DATABASE_URL: portal.testDb.url, REDIS_URL: '' };
  const listed = await runCli(['applications', 'list'], env);
  const id = listed.stdout.split('\n').find((line) => line.includes(`\t${email}\t`))?.split('\t')[0];
  assert.ok(id, `the pending list shows ${email}:\n${listed.stdout}`);
  const approved = await runCli(['applications', 'approve', id], env);
  assert.equal(approved.code, 0, approved.stderr);
}

/** Opens a link from a mail in the browser (the mail names the server's own address). */
const open = (page: Page, link: string) => page.goto(new URL(link).pathname + new URL(link).search);

test('an affiliate signs up from the sign-in page, confirms the address from the mail, is approved, signs in and makes a first tracked link', async () => {
  const page = await newPage();
  await page.goto('/app/');
  await page.getByRole('link', { name: 'New here? Sign up as an affiliate' }).click();
  await page.getByLabel('Your name or your publication’s').fill('Dora Deals');
  await page.getByLabel('E-mail').fill('dora@deals.example');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Your site or main social profile').fill('https://www.instagram.com/dora.deals');
  await page.getByLabel('Country').selectOption('BR');
  await page.getByRole('checkbox').check();
  await assertAccessible(page, 'sign-up');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('status').filter({ hasText: 'Check your inbox at dora@deals.example' }).waitFor();

  await open(page, pageLink(await mailTo('dora@deals.example', /Confirm your address/), 'verify'));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.getByRole('status').filter({ hasText: 'your address is confirmed' }).waitFor();
  await mailTo('dora@deals.example', /We received your application/);

  await approveAtShell('dora@deals.example');
  const welcome = await mailTo('dora@deals.example', /Welcome to/);
  const signInUrl = /https?:\/\/\S+\/app\//.exec(welcome.text ?? '')?.[0];
  assert.ok(signInUrl, welcome.text);
  await open(page, signInUrl);
  await page.getByLabel('E-mail').fill('dora@deals.example');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Brands' }).click();
  await page.getByRole('row', { name: /Acme/ }).getByRole('link', { name: 'Make a link' }).click();
  await page.getByRole('button', { name: 'Make links for my channels' }).click();
  const shortUrl = (await page.getByTestId('short-url').first().textContent())!;
  assert.match(shortUrl, new RegExp(`^${portal.server.url}/\\w+`));
  assert.ok(await page.getByText('instagram.com/dora.deals').first().isVisible(), 'the link is for the channel made from the site given at sign-up');
  const visit = await page.context().request.get(shortUrl, { maxRedirects: 0, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36' } });
  assert.equal(visit.status(), 302, 'the link is tracked and leads to the brand');
  await page.context().close();
});

test("a brand applies, is approved, and its owner's first sign-in is from the welcome mail, to the steps that launch it", async () => {
  const page = await newPage();
  await page.goto('/app/');
  await page.getByRole('link', { name: 'Apply as a brand' }).click();
  await page.getByLabel('Brand name').fill('Casa Verde');
  await page.getByLabel('Shop site').fill('https://casaverde.example');
  await page.getByLabel('Country where the company is registered').selectOption('BR');
  await page.getByLabel('Tax id').fill('11.222.333/0001-81');
  await page.getByLabel('Currency of your prices').selectOption('BRL');
  await page.getByLabel('Orders a month you expect through affiliates').fill('120');
  await page.getByLabel('Contact name').fill('Caio Verde');
  await page.getByLabel('Contact e-mail').fill('caio@casaverde.example');
  await page.getByRole('checkbox').check();
  await assertAccessible(page, 'apply');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('status').filter({ hasText: 'Check your inbox' }).waitFor();

  await open(page, pageLink(await mailTo('caio@casaverde.example', /Confirm your address/), 'verify'));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.getByRole('status').filter({ hasText: 'your address is confirmed' }).waitFor();

  await approveAtShell('caio@casaverde.example');
  await open(page, setPasswordLink(await mailTo('caio@casaverde.example', /Welcome to/)));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await page.getByRole('heading', { name: 'Casa Verde' }).waitFor();
  await page.getByRole('heading', { name: 'Launch your brand' }).waitFor();
  await assertAccessible(page, 'launch checklist');
  assert.equal(await page.getByRole('button', { name: 'Launch' }).isDisabled(), true);
  await page.context().close();
});

/** Screenshots at 1280 and 375 px; at 375 and 320 px nothing may scroll sideways. */
async function shoot(page: Page, shots: string, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true });
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (width === 375) await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true });
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a creator signs up in Portuguese with her Instagram handle as she writes it, @anasouza.cria, and it is her first channel', async () => {
  const shots = await mkdtemp(join(tmpdir(), 'affnet-joining-'));
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => assert.fail(`uncaught error on ${page.url()}: ${error.message}`));
  await page.goto('/app/');
  await page.getByRole('link', { name: 'Novo por aqui? Cadastre-se como afiliado' }).click();
  await page.getByLabel('Seu nome ou o da sua publicação').fill('Ana Souza');
  await page.getByLabel('E-mail').fill('ana@souza.example');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByLabel('Seu site ou perfil principal').fill('@anasouza.cria');
  await page.getByLabel('País').selectOption('BR');
  await page.getByRole('checkbox').check();

  // A handle without its network: the service cannot tell where it is, and says so in Portuguese.
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await page.getByRole('alert').filter({ hasText: 'Um perfil como @voce precisa da rede: escolha Instagram, TikTok, YouTube ou X em “Onde fica?”.' }).waitFor();
  await assertAccessible(page, 'sign-up refused');
  await shoot(page, shots, 'sign-up-network-needed');

  await page.getByLabel('Onde fica?').selectOption({ label: 'Instagram' });
  assert.equal(await page.getByLabel('Seu site ou perfil principal').evaluate((input: HTMLInputElement) => input.checkValidity()), true, 'the browser takes @anasouza.cria as it is');
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await page.getByRole('status').filter({ hasText: 'Veja sua caixa de entrada em ana@souza.example' }).waitFor();
  await shoot(page, shots, 'sign-up-sent');

  await open(page, pageLink(await mailTo('ana@souza.example', /Confirme seu endereço/), 'verify'));
  await page.getByRole('button', { name: 'Confirmar meu endereço' }).click();
  await page.getByRole('status').filter({ hasText: 'seu endereço está confirmado' }).waitFor();
  await approveAtShell('ana@souza.example');
  await mailTo('ana@souza.example', /Boas-vindas/);

  await page.goto('/app/');
  await page.getByLabel('E-mail').fill('ana@souza.example');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await followMenu(page, 'Canais');
  const channel = page.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: 'instagram.com/anasouza.cria' }) });
  await channel.getByRole('cell', { name: 'Instagram', exact: true }).waitFor();
  await shoot(page, shots, 'first-channel');
  console.log(`screenshots in ${shots}`);
  await context.close();
});
