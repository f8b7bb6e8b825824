/// <reference lib="dom" />
// A brand's campaigns in the portal, in Portuguese, in headless Chromium against a real server: the
// owner of a public brand creates an offer (its page on the brand's site, a banner shown with its
// size) and a personal-coupon campaign, gives that code to an affiliate who has made no link (found
// by name), ends the offer and deletes it after saying yes. The affiliate finds the code under
// "Meus cupons". The page fits a phone and names no route; screenshots at 1280 and 375 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const ZONE = 'America/Sao_Paulo';
const OFFER = 'Liquidação de inverno com frete grátis para todo o Brasil 60';
const OFFER_URL = 'https://www.acme.com/colecoes/liquidacao-de-inverno/calcados-femininos-e-masculinos?utm_source=afiliados&utm_campaign=inverno-2026';
const BANNER = 'https://cdn.example.com/banners/inverno-728x90.svg';
const PERSONAL = 'Cupom da Maria';
const CODE = 'MARIA-VERAO';
const pageErrors: string[] = [];
let shots = '';

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
    // An affiliate who has joined and made no link to any brand yet.
    await services.access.upsertAffiliate('aff-maria', 'Maria Souza');
    await services.users.createWithPassword({ affiliateId: 'aff-maria' }, 'maria@aff.example', 'owner', PASSWORD);
  },
});

/** A person signed in with a Brazilian browser in São Paulo; banner images come from a stand-in image host. */
async function signedIn(email: string): Promise<{ page: Page; context: BrowserContext }> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', timezoneId: ZONE, viewport: { width: 1280, height: 800 } });
  await context.route('https://cdn.example.com/**', (route) =>
    route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="728" height="90"><rect width="728" height="90" fill="#1d4ed8"/><text x="20" y="55" fill="#fff" font-size="32">Inverno</text></svg>' }),
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Menu principal' }).waitFor();
  return { page, context };
}

const nav = (page: Page, name: string) => followMenu(page, name);
const rowOf = (page: Page, name: string) => page.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name }) });

/** A local day in São Paulo, `days` from today, as a date field takes it. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString('sv', { timeZone: ZONE });

/** Screenshots at 1280 and 375 px; at 375 and 320 px nothing may scroll sideways. */
async function shoot(page: Page, name: string): Promise<void> {
  shots ||= await mkdtemp(join(tmpdir(), 'affnet-campaigns-'));
  await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true });
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (width === 375) await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true });
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a brand creates an offer and a personal coupon, gives its code to an affiliate found by name, ends and deletes the offer; the affiliate sees the code', async () => {
  const brand = await signedIn('owner@acme.example');
  try {
    const { page } = brand;
    await nav(page, 'Campanhas');
    await page.getByRole('heading', { name: 'Campanhas', exact: true }).waitFor();

    // An offer: its page must be on the brand's site.
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    await page.getByRole('heading', { name: 'Nova campanha' }).waitFor();
    assert.equal(await page.getByLabel('Tipo de campanha').inputValue(), 'Offer');
    await page.getByLabel('Nome', { exact: true }).fill(OFFER);
    await page.getByLabel('Primeiro dia').fill(dayFromToday(0));
    await page.getByLabel('Último dia').fill(dayFromToday(30));
    await page.getByLabel('Página da oferta').fill('https://www.outra-loja.example/inverno');
    await page.getByLabel('Descrição').fill('Até 50% de desconto em calçados, frete grátis acima de R$ 199,90.');
    await page.getByRole('button', { name: 'Adicionar um banner' }).click();
    await page.getByLabel('Endereço do banner 1').fill(BANNER);
    await page.getByTestId('banner-size-1').filter({ hasText: '728 × 90 pixels' }).waitFor();
    await page.getByRole('button', { name: 'Criar a campanha' }).click();
    await page.getByRole('alert').filter({ hasText: 'A página precisa estar no site da sua loja (acme.com) ou num subdomínio dele.' }).waitFor();
    await page.getByLabel('Página da oferta').fill(OFFER_URL);
    await assertAccessible(page, 'campaign form');
    await shoot(page, 'campaign-form');
    await page.getByRole('button', { name: 'Criar a campanha' }).click();
    await page.getByRole('status').filter({ hasText: `Campanha ${OFFER} criada.` }).waitFor();
    const offer = rowOf(page, OFFER);
    await offer.getByText('Vigente').waitFor();
    await offer.getByText(OFFER_URL).waitFor();

    // Its days were the person's days in São Paulo, kept in UTC: midnight there is 03:00 UTC.
    const stored = await portal.database.db.selectFrom('campaigns').select(['start_at', 'end_at', 'offer_type', 'url', 'banners']).where('organization_id', '=', BRANDS.acme).where('name', '=', OFFER).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { start_at: `${dayFromToday(0)}T03:00:00.000Z`, end_at: `${dayFromToday(31)}T02:59:59.999Z`, offer_type: 'Url', url: OFFER_URL, banners: JSON.stringify([BANNER]) });

    // A personal coupon, whose code is then given to Maria, who has made no link.
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    await page.getByLabel('Tipo de campanha').selectOption({ label: 'Cupom pessoal de um afiliado' });
    await page.getByLabel('Nome', { exact: true }).fill(PERSONAL);
    await page.getByLabel('Último dia').fill(dayFromToday(60));
    await page.getByLabel('Código pessoal').fill(CODE);
    await page.getByRole('button', { name: 'Criar a campanha' }).click();
    await page.getByRole('status').filter({ hasText: `Campanha ${PERSONAL} criada.` }).waitFor();
    await rowOf(page, PERSONAL).getByText('Cupom pessoal', { exact: true }).waitFor();

    // Changing it: the form holds what was saved; days left as they were keep their moments.
    const before = await portal.database.db.selectFrom('campaigns').select(['id', 'start_at', 'end_at']).where('name', '=', PERSONAL).executeTakeFirstOrThrow();
    await page.getByRole('button', { name: `Alterar ${PERSONAL}` }).click();
    await page.getByRole('heading', { name: `Alterar ${PERSONAL}` }).waitFor();
    assert.equal(await page.getByLabel('Tipo de campanha').inputValue(), 'PersonalCoupon');
    assert.equal(await page.getByLabel('Código pessoal').inputValue(), CODE);
    assert.equal(await page.getByLabel('Último dia').inputValue(), dayFromToday(60));
    await page.getByLabel('Descrição').fill('10% de desconto para quem segue a Maria.');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('status').filter({ hasText: `Campanha ${PERSONAL} salva.` }).waitFor();
    const after = await portal.database.db.selectFrom('campaigns').select(['id', 'start_at', 'end_at', 'description']).where('name', '=', PERSONAL).executeTakeFirstOrThrow();
    assert.deepEqual(after, { ...before, description: '10% de desconto para quem segue a Maria.' }, 'the same campaign, its days unchanged');

    await page.getByRole('button', { name: `Dar o código de ${PERSONAL}` }).click();
    await page.getByRole('heading', { name: `Dar o código ${CODE}` }).waitFor();
    await page.getByLabel('Encontrar um afiliado').fill('maria');
    await page.getByText('Afiliados encontrados para “maria”: 1.').waitFor();
    await page.getByLabel('Afiliado', { exact: true }).selectOption({ label: 'Maria Souza (aff-maria)' });
    await shoot(page, 'campaign-give-code');
    await page.getByRole('button', { name: 'Dar o cupom' }).click();
    await page.getByRole('status').filter({ hasText: `Código ${CODE} dado a Maria Souza.` }).waitFor();

    // Ending the offer: its last moment becomes now.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Encerrar ${OFFER} agora` }).click();
    await page.getByRole('status').filter({ hasText: `Campanha ${OFFER} encerrada.` }).waitFor();
    await offer.getByText('Encerrada').waitFor();
    assert.equal(await page.getByRole('button', { name: `Encerrar ${OFFER} agora` }).count(), 0, 'an ended campaign cannot be ended again');
    await assertAccessible(page, 'brand campaigns');
    await shoot(page, 'campaigns');
    const text = (await page.locator('main').textContent()) ?? '';
    assert.doesNotMatch(text, /\/advertiser|PUT |PATCH |GenericCoupon|PersonalCoupon|offerType|mediaKit/, 'the page names no route or field');

    // Deleting asks first: no, and it stays; yes, and it is gone.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: `Excluir ${OFFER}` }).click();
    assert.equal(await offer.count(), 1, 'kept when the person says no');
    page.once('dialog', (dialog) => {
      assert.match(dialog.message(), /Excluir a campanha .* Os afiliados não vão mais encontrá-la/);
      void dialog.accept();
    });
    await page.getByRole('button', { name: `Excluir ${OFFER}` }).click();
    await page.getByRole('status').filter({ hasText: `Campanha ${OFFER} excluída.` }).waitFor();
    await offer.waitFor({ state: 'detached' });
    await rowOf(page, PERSONAL).waitFor();
  } finally {
    await brand.context.close();
  }

  const maria = await signedIn('maria@aff.example');
  try {
    const { page } = maria;
    await nav(page, 'Meus cupons');
    await page.getByRole('heading', { name: 'Meus cupons' }).waitFor();
    await page.getByTestId(`my-coupon-${CODE}`).getByText('Acme').waitFor();
  } finally {
    await maria.context.close();
  }
  assert.deepEqual(pageErrors, []);
  console.log(`screenshots in ${shots}`);
});

test("a private brand's search finds only the affiliates it approved", async () => {
  await servicesFor(portal.database).users.createWithPassword({ brandId: BRANDS.globex }, 'owner@globex.example', 'owner', PASSWORD);
  const brand = await signedIn('owner@globex.example');
  try {
    const { page } = brand;
    await nav(page, 'Cupons');
    await page.getByText('Sua marca é privada: só os afiliados que você aprovou podem receber um código.', { exact: false }).waitFor();
    await page.getByLabel('Encontrar um afiliado').fill('maria');
    await page.getByText('Afiliados encontrados para “maria”: 0.').waitFor();
    await page.getByLabel('Encontrar um afiliado').fill('affiliate');
    await page.getByText('Afiliados encontrados para “affiliate”: 1.').waitFor();
    assert.deepEqual(await page.getByLabel('Afiliado', { exact: true }).locator('option').allTextContents(), ['Escolha um afiliado', 'Affiliate One (aff-1)']);
  } finally {
    await brand.context.close();
  }
  assert.deepEqual(pageErrors, []);
});
