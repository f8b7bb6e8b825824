/// <reference lib="dom" />
// A Brazilian shop owner's pages, in pt-BR against a real server: the network's fee and due days
// in words on the profile and the statements page, an order held for the network's review with
// its reasons and no approval, its history in words, and launching, which says what comes next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { OrdersRepository } from '../../src/storage/repositories/orders.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'owner@acme.example';
const NEW_OWNER = 'dona@lojanova.example';
const HELD = 'PEDIDO-EM-ANALISE-1';
const ORDERED_AT = '2026-03-20T12:00:10.000Z';
const SHOTS = '/tmp/ts';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, OWNER, 'owner', PASSWORD);
    // February's statement at the default fee (30 %), then the network's terms change: 35 %, 20 days.
    await services.statements.issue('2026-02');
    await services.statements.setTerms({ kind: 'cli' }, BRANDS.acme, { feeBasisPoints: 3500, dueDays: 20, reason: 'Contract of 2026' });
    // An order the network holds: placed 1.7 s after its click, by someone of the affiliate's own.
    await new OrdersRepository(database).insert({
      id: 'held-1',
      order_id: HELD,
      organization_id: BRANDS.acme,
      affiliate_id: 'aff-1',
      link_id: null,
      click_id: 'c0ffee00c0ffee00c0ffee00c0ffee00',
      click_created_at: '2026-03-20T12:00:08.300Z',
      channel_id: null,
      mdasc: null,
      status: 'pending',
      commission_status: 'held',
      hold_reasons: JSON.stringify(['click_to_order_too_fast', 'self_referral']),
      value: 25_990,
      commission: 1_949,
      commission_transfer: 'cps',
      commission_value: 750,
      currency: 'BRL',
      source: 'api',
      items: JSON.stringify([{ id: 'sku-1', name: 'Tênis', quantity: 1, price: 25_990, categories: 12 }]),
      created_at: ORDERED_AT,
      updated_at: ORDERED_AT,
      lock_at: '2099-12-31T00:00:00.000Z',
    });
    await database.db
      .insertInto('order_events')
      .values([
        { order_id: 'held-1', field: 'source', from_value: 'tag', to_value: 'api', actor: `brand:${BRANDS.acme}`, actor_key_id: null, created_at: ORDERED_AT },
        { order_id: 'held-1', field: 'holdReasons', from_value: null, to_value: '["click_to_order_too_fast"]', actor: 'network', actor_key_id: null, created_at: ORDERED_AT },
        { order_id: 'held-1', field: 'createdAt', from_value: '2026-03-20T12:00:09.000Z', to_value: ORDERED_AT, actor: `brand:${BRANDS.acme}`, actor_key_id: null, created_at: ORDERED_AT },
      ])
      .execute();
    // A brand just approved, with its commission and a first product: ready to launch.
    const { applications } = services;
    await applications.apply({ company: 'Loja Nova', name: 'Dona', email: NEW_OWNER, country: 'BR', language: 'pt-BR', website: 'https://lojanova.example', taxId: '11222333000181', currency: 'BRL', expectedMonthlyOrders: 10, acceptTerms: true }, '192.0.2.1');
    const [application] = await applications.list({ status: 'unverified' });
    await applications.verify(new URL((await applications.issueVerifyLink(application!.id))!).searchParams.get('token')!);
    const brandId = (await applications.approve(application!.id, CLI)).brandId!;
    await database.db.updateTable('brands').set({ commission_transfer: 'cps', commission_value: 800 }).where('id', '=', brandId).execute();
    await services.imports.upsertProduct(productInput('camisa-1', brandId, 'Camisa azul', 8_990));
    await services.users.setPassword(new URL(await services.users.resetLink(NEW_OWNER)).searchParams.get('token')!, PASSWORD);
  },
});

async function signedIn(email: string, width = 1280): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Menu principal' }).waitFor();
  return { page, close: () => context.close() };
}

/** Full-page screenshots at 1280, 375 and 320 px, for looking at. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375, 320]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    const widest = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('main *'))
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth)
        .slice(0, 3)
        .map((element) => `${element.tagName.toLowerCase()}${element.className ? `.${element.className}` : ''} to ${Math.round(element.getBoundingClientRect().right)} px`)
        .join(', '),
    );
    assert.ok(scrollWidth <= innerWidth, `${name} at ${width} px is ${scrollWidth} px wide (${widest})`);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the profile and the statements page state the network’s fee and due days in words', async () => {
  const { page, close } = await signedIn(OWNER);
  try {
    await page.goto('/app/profile');
    const terms = page.getByTestId('profile-network-terms');
    await terms.waitFor();
    assert.match(await terms.innerText(), /A rede cobra a comissão mais 35\s?% dela\. Pague cada extrato em até 20 dias depois de emitido\./);
    assert.match(await terms.innerText(), /sobre uma comissão de R\$\s100,00, você paga R\$\s135,00/);
    await assertAccessible(page, 'perfil');
    await shots(page, 'profile');

    await page.goto('/app/statements');
    await page.getByRole('heading', { name: 'Extratos', exact: true }).waitFor();
    assert.match(await page.getByTestId('statements-network-terms').innerText(), /A rede cobra a comissão mais 35\s?% dela\. Pague cada extrato em até 20 dias/);
    // The statement already issued kept its fee.
    assert.match(await page.getByTestId('statements-terms-changed').innerText(), /de fevereiro de 2026 foi emitido com taxa de 30\s?%/);
    await assertAccessible(page, 'extratos');
    await shots(page, 'statements');
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});

test('a held order shows its reasons in words and no approval, on the list and on its page, with its history in words', async () => {
  const { page, close } = await signedIn(OWNER);
  try {
    await page.goto('/app/conversions');
    const row = page.getByTestId(`conversion-${HELD}`);
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /Em análise pela rede/);
    assert.match(text, /Pedido feito 1,7 s depois do clique/);
    assert.match(text, /O cliente é da própria equipe do afiliado/);
    assert.match(text, /A rede analisa este pedido/);
    assert.equal(await row.getByRole('button').count(), 0, 'neither Aprovar nor Recusar on a held order');
    // Another, pending, order still offers both.
    assert.equal(await page.getByTestId('conversion-brand-o-aff1-1').getByRole('button', { name: 'Aprovar' }).count(), 1);
    await assertAccessible(page, 'conversões');
    await shots(page, 'conversions');

    await row.getByRole('link', { name: HELD }).click();
    const explained = page.getByTestId('hold-explanation');
    await explained.getByText(/você tem \d+ dias/).waitFor();
    const words = await explained.innerText();
    assert.match(words, /Por que a rede está analisando este pedido/);
    assert.match(words, /Pedido feito 1,7 s depois do clique/);
    assert.match(words, /Quem decide é a rede/);
    assert.match(words, /Se a rede liberar, o pedido volta a ficar pendente: você tem \d+ dias/);
    assert.match(words, /Se a rede cancelar a comissão/);
    assert.match(await page.getByTestId('conversion-lock').innerText(), /definida quando a rede liberar/);
    assert.equal(await page.getByRole('button', { name: 'Aprovar' }).count(), 0);
    // The history names each change in words, never the field.
    const history = await page.locator('table').last().innerText();
    for (const raw of ['holdReasons', 'createdAt', 'source', 'clickId', 'affiliateId', 'click_to_order_too_fast', 'brand']) assert.ok(!history.includes(raw), `the history shows "${raw}"`);
    assert.match(history, /Informado por: a tag na sua loja → seu sistema/);
    assert.match(history, /Motivos da análise: — → Pedido feito/);
    assert.match(history, /Hora do pedido: /);
    assert.match(history, /Você/);
    await assertAccessible(page, 'pedido em análise');
    await shots(page, 'conversion-held');
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});

test('an order the network holds after the page showed it: approving it is refused in Portuguese', async () => {
  const { page, close } = await signedIn(OWNER);
  try {
    await page.goto('/app/conversions');
    const approve = page.getByTestId('conversion-brand-o-aff1-1').getByRole('button', { name: 'Aprovar' });
    await approve.waitFor();
    // The network holds it meanwhile.
    await portal.database.db.updateTable('orders').set({ commission_status: 'held', hold_reasons: '["conversions_per_click"]' }).where('id', '=', 'o-aff1-1').execute();
    await approve.click();
    await page.getByRole('alert').filter({ hasText: 'A rede está analisando este pedido: ele só pode ser aprovado depois que a rede o liberar.' }).waitFor();
    const row = page.getByTestId('conversion-brand-o-aff1-1');
    await row.getByText('Vários pedidos vieram do mesmo clique').waitFor();
    assert.equal(await row.getByRole('button').count(), 0);
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});

test('launching says what happened and what to do next: the page to share, tracking, affiliates', async () => {
  const { page, close } = await signedIn(NEW_OWNER);
  try {
    await page.getByRole('heading', { name: 'Lance sua marca' }).waitFor();
    const tracking = page.getByTestId('launch-tracking');
    assert.match(await tracking.innerText(), /Instale o rastreamento \(Tag\) — A fazer/);
    assert.match(await tracking.innerText(), /Não é preciso para lançar/);
    await shots(page, 'launch-checklist');
    await page.getByRole('button', { name: 'Lançar' }).click();
    const launched = page.getByTestId('launched');
    await launched.getByRole('heading', { name: 'Sua marca está no ar' }).waitFor();
    const url = await page.getByTestId('programme-url').innerText();
    assert.match(url, new RegExp(`^${portal.server.url}/app/brands/[0-9a-f-]{36}$`));
    await launched.getByRole('button', { name: 'Copiar: o endereço da sua página' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
    await launched.getByRole('link', { name: 'Abrir a página da Tag' }).waitFor();
    await launched.getByRole('link', { name: 'na página Afiliados' }).waitFor();
    await assertAccessible(page, 'depois do lançamento');
    await shots(page, 'launched');
    // Saying its own system reports orders counts as tracking installed.
    await launched.getByLabel('Meu próprio sistema informa os pedidos à rede').click();
    await launched.getByText('O rastreamento está funcionando').waitFor();
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});
