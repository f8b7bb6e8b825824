/// <reference lib="dom" />
// An affiliate's first day, in Portuguese, in headless Chromium against a real server: a creator
// who has just joined (no channel, no link) finds on her overview the steps to a first click and
// follows them: her channels (an Instagram profile and a WhatsApp group), a brand (suggested ones
// take all her channels; a brand that refuses WhatsApp says so on its page), a first link from a
// product (shown at once with copy and QR, the WhatsApp channel greyed with the reason), a first
// click on it, her payout details. Each step ticks itself; when all are done the list goes away.
// The opened menu fits a 375 × 667 phone without scrolling; screenshots at 1280 and 375 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { TEST_PAYEE_KEY } from '../helpers/harness.js';
import { brandInput, productInput } from '../helpers/world.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { assertAccessible } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const EMAIL = 'bia@cria.example';
/** A public brand that takes links from sites and Instagram only. */
const CASA = 'c0000000-0000-4000-8000-0000000000ca';
const PRODUCT_URL = 'https://casabonita.example/p/vaso-de-ceramica';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.imports.upsertBrand(brandInput({ id: CASA, name: 'Casa Bonita', slug: 'casa-bonita', site: 'https://casabonita.example', categories: ['Casa', 'Decoração'], allowedChannels: ['site', 'instagram'] }));
    await services.imports.upsertProduct(productInput('vaso', CASA, 'Vaso de cerâmica', 8_990, { url: PRODUCT_URL }));
    // A creator who has just joined: no channel, no link, no payout details.
    await services.access.upsertAffiliate('aff-bia', 'Bia Cria');
    await services.users.createWithPassword({ affiliateId: 'aff-bia' }, EMAIL, 'owner', PASSWORD);
  },
  env: () => ({ PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY, CLICK_FLUSH_MS: '100' }),
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name, exact: true }).click();
const step = (page: Page, id: string) => page.getByTestId(`first-day-${id}`);
const isDone = async (page: Page, id: string) => (await step(page, id).getAttribute('data-done')) === 'true';

/** The overview, once its steps are shown. */
async function overview(page: Page): Promise<void> {
  await nav(page, 'Visão geral');
  await page.getByRole('heading', { name: 'Seus primeiros passos' }).waitFor();
}

/** Screenshots at 1280 and 375 px (the whole page); at 375 and 320 px nothing may scroll sideways. */
async function shoot(page: Page, shots: string, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true });
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 667 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (width === 375) await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true });
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a new creator follows her first steps from an empty overview to a first click on a first link, each step ticking itself', { timeout: 120_000 }, async () => {
  const shots = await mkdtemp(join(tmpdir(), 'affnet-first-day-'));
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();

  // An empty overview: five steps, none done.
  await page.getByRole('heading', { name: 'Seus primeiros passos' }).waitFor();
  await page.getByText('0 de 5 feitos').waitFor();
  for (const id of ['channels', 'brand', 'link', 'share', 'payee']) assert.equal(await isDone(page, id), false, `${id} is not done yet`);
  await assertAccessible(page, 'overview with the first steps');
  await shoot(page, shots, 'overview-empty');

  // The menu: the everyday pages, and one entry for the rest; opened on a phone it fits one screen.
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  assert.deepEqual(
    (await menu.getByRole('link').allTextContents()).map((s) => s.trim()),
    ['Visão geral', 'Marcas', 'Produtos', 'Links', 'Pedidos', 'Pagamentos', 'Configurações e ferramentas'],
  );
  await page.screenshot({ path: join(shots, 'menu-1280.png') });
  await page.setViewportSize({ width: 375, height: 667 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Sair' }).waitFor();
  const header = (await page.locator('header.top').boundingBox())!;
  assert.ok(header.y + header.height <= 667, `the opened menu ends ${header.y + header.height} px down, below a 667 px screen`);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await page.screenshot({ path: join(shots, 'menu-375.png') });
  await assertAccessible(page, 'opened menu on a phone');
  await menu.getByRole('link', { name: 'Configurações e ferramentas' }).click();
  await page.getByRole('heading', { name: 'Configurações e ferramentas', level: 1 }).waitFor();
  for (const name of ['Canais', 'Chaves de API', 'Webhooks', 'Equipe', 'Histórico da conta', 'Feeds de produtos', 'Dados de pagamento']) await page.getByRole('main').getByRole('link', { name, exact: true }).waitFor();
  await shoot(page, shots, 'tools');
  await page.setViewportSize({ width: 1280, height: 800 });

  // 1. Channels: an Instagram profile and a WhatsApp group.
  await overview(page);
  await step(page, 'channels').getByRole('link', { name: 'Diga onde você divulga' }).click();
  await page.getByRole('heading', { name: 'Canais', level: 1 }).waitFor();
  for (const [kind, name] of [['Instagram', '@bia.cria'], ['WhatsApp', 'Grupo de achados']] as const) {
    await page.getByLabel('Tipo').selectOption({ label: kind });
    await page.getByLabel('Nome', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Adicionar canal' }).click();
    await page.getByRole('rowheader', { name }).waitFor();
  }
  await overview(page);
  await page.getByText('1 de 5 feitos').waitFor();
  assert.equal(await isDone(page, 'channels'), true);
  await step(page, 'channels').getByText('2 canais: @bia.cria, Grupo de achados').waitFor();

  // 2. A brand: those suggested take every channel of hers; Casa Bonita, which refuses WhatsApp, is not one.
  const suggested = step(page, 'brand').getByRole('listitem');
  await suggested.first().waitFor();
  const names = await suggested.allTextContents();
  assert.ok(names.some((n) => n.startsWith('Acme')), `Acme is suggested: ${names.join(' | ')}`);
  assert.ok(!names.some((n) => /Casa Bonita|Umbrella|Hooli/.test(n)), `no brand refusing a channel (or inactive) is suggested: ${names.join(' | ')}`);
  await step(page, 'brand').getByRole('link', { name: 'Encontre uma marca' }).click();
  await page.getByRole('link', { name: 'Casa Bonita' }).click();
  await page.getByRole('heading', { name: 'Casa Bonita' }).waitFor();
  const channels = page.getByTestId('brand-channels');
  await channels.getByText('Aceita links de: Site ou blog, Instagram.').waitFor();
  assert.equal((await channels.getByTestId('refused-channel').textContent())?.trim(), 'Grupo de achados: Esta marca não aceita links de WhatsApp');
  await shoot(page, shots, 'brand');

  // 3. A first link, to a product: shown at once with copy and QR; the WhatsApp channel greyed with the reason.
  await nav(page, 'Produtos');
  await page.locator('tbody tr').filter({ hasText: 'Vaso de cerâmica' }).getByRole('link', { name: 'Criar link' }).click();
  await page.getByRole('heading', { name: 'Criar link', level: 1 }).waitFor();
  const whatsapp = page.getByRole('checkbox', { name: /Grupo de achados/ });
  await whatsapp.waitFor();
  assert.equal(await whatsapp.isDisabled(), true, 'a channel the brand refuses cannot be picked');
  await page.getByText('Esta marca não aceita links de WhatsApp').waitFor();
  assert.equal(await page.getByRole('checkbox', { name: /@bia\.cria/ }).isChecked(), true, 'every other channel is picked');
  await page.getByLabel('Seu rótulo para este link').fill('stories-junho');
  await page.getByText('Opcional: seu próprio rótulo para este link, devolvido com os pedidos dele').waitFor();
  await page.getByRole('button', { name: 'Criar links para meus canais' }).click();
  const made = page.getByTestId('made-link');
  await made.getByRole('heading', { name: 'Seu novo link' }).waitFor();
  const shortUrls = await made.getByTestId('short-url').allTextContents();
  assert.equal(shortUrls.length, 1, 'one link: the Instagram channel only');
  const shortUrl = shortUrls[0]!;
  assert.match(shortUrl, new RegExp(`^${portal.server.url}/\\w+$`));
  await made.getByRole('button', { name: 'Copiar: @bia.cria' }).click();
  await made.getByText('Copiado', { exact: true }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shortUrl);
  await made.getByRole('img', { name: 'QR code do link para @bia.cria' }).waitFor();
  // The list below shows links of the kind just made: the new one is there.
  await page.locator('tbody tr').filter({ hasText: shortUrl }).getByText('stories-junho').waitFor();
  assert.equal(await page.getByText('Nada aqui ainda.').count(), 0);
  await assertAccessible(page, 'a link just made');
  await shoot(page, shots, 'links');

  await overview(page);
  await page.getByText('3 de 5 feitos').waitFor();
  assert.equal(await isDone(page, 'brand'), true);
  assert.equal(await isDone(page, 'link'), true);
  assert.equal(await isDone(page, 'share'), false);
  // 4. The link to share is on the overview, with copy and QR.
  const share = page.getByTestId('first-day-newest');
  assert.equal(await share.locator('code').textContent(), shortUrl);
  await share.getByRole('img', { name: 'QR code do link para @bia.cria' }).waitFor();
  await shoot(page, shots, 'overview-first-link');

  // Someone opens it: the click is counted, and the step ticks.
  const visit = await context.request.get(shortUrl, { maxRedirects: 0, headers: { 'user-agent': BROWSER_UA } });
  assert.equal(visit.status(), 302);
  assert.equal(new URL(visit.headers()['location']!).origin + new URL(visit.headers()['location']!).pathname, PRODUCT_URL);
  const deadline = Date.now() + 20_000;
  for (;;) {
    await page.reload();
    await page.getByRole('heading', { name: 'Seus primeiros passos' }).waitFor();
    if (await isDone(page, 'share')) break;
    assert.ok(Date.now() < deadline, 'the first click ticks the share step');
    await page.waitForTimeout(500);
  }
  await page.getByText('4 de 5 feitos').waitFor();

  // 5. Payout details; then every step is done and the list goes away.
  await step(page, 'payee').getByRole('link', { name: 'Informe seus dados de pagamento' }).click();
  await page.getByLabel('Nome do titular da conta').fill('Beatriz Cria');
  await page.getByLabel('País (2 letras, ex.: BR)').fill('BR');
  await page.getByLabel('CPF ou CNPJ').fill('529.982.247-25');
  await page.getByLabel('Tipo de chave PIX').selectOption('cpf');
  await page.getByLabel('Chave PIX', { exact: true }).fill('529.982.247-25');
  await page.getByLabel('Sua senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Salvar dados de pagamento' }).click();
  await page.getByRole('status').filter({ hasText: 'Salvo.' }).waitFor();
  await nav(page, 'Visão geral');
  await page.getByRole('heading', { name: 'Últimos 30 dias' }).waitFor();
  await page.getByTestId('clicks-30d').filter({ hasText: '1' }).waitFor();
  assert.equal(await page.getByTestId('first-day').count(), 0, 'every step done: the list is gone');
  await shoot(page, shots, 'overview-done');
  console.log(`screenshots in ${shots}`);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
