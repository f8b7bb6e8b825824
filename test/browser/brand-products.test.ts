/// <reference lib="dom" />
// A shop owner runs the catalogue from the portal, in Portuguese, in headless Chromium against a
// real server: creates a product typing its price as people write it, finds it in the list, changes
// it, copies it and deletes the copy after confirming. An amount the page cannot read is refused on
// the page, naming the field, and nothing is sent. Screenshots at 1280 and 375 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';
/** 60 characters: where a phone's layout breaks first. */
const NAME = 'Tênis de corrida Acme Ultraleve Azul Marinho Edição Especial';
const URL_ON_SITE = 'https://www.acme.com/loja/calcados/corrida/tenis-de-corrida-acme-ultraleve-azul-marinho-edicao-especial-2026?cor=azul-marinho';
const pageErrors: string[] = [];
let apiKey = '';

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
    apiKey = (await services.access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 })).key;
    // An affiliate's link leads to the page of the world's "Red running sneakers" (p-acme-1).
    await services.links.createShortLinks('aff-1', { organizationId: BRANDS.acme, type: 'Custom', url: 'https://www.acme.com/p/p-acme-1' });
  },
});

type Listed = { id: string; name: string; available: boolean; options: Array<{ ean: string; categories: string[]; pricing: Array<{ price: number; listPrice: number }> }> };

/** The brand's products of that name, as the API answers any client. */
async function productsNamed(name: string): Promise<Listed[]> {
  const res = await fetch(`${portal.server.url}/advertiser/products?limit=100&q=${encodeURIComponent('tenis ultraleve')}`, { headers: { 'x-api-key': apiKey } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: Listed[] }).data.filter((p) => p.name === name);
}

async function signedIn(): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill('owner@acme.example');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Menu principal' }).waitFor();
  return { page, close: () => context.close() };
}

/** Screenshots at 1280 and 375 px; at 375 the page must not scroll sideways. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/brand-products-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 900 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.screenshot({ path: `${SHOTS}/brand-products-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at 375 px`);
}

test('a shop owner creates, finds, changes, copies and deletes a product from the catalogue page, in Portuguese', async () => {
  const { page, close } = await signedIn();
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/advertiser/products/') && request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
  });
  try {
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Catálogo', exact: true }).click();
    await page.getByRole('heading', { name: 'Catálogo', exact: true }).waitFor();
    // The bulk ways in come after the products, and name no route.
    const headings = await page.locator('main h2').allTextContents();
    assert.ok(headings.indexOf('Seus produtos') < headings.indexOf('Importar em massa'), headings.join(' | '));
    assert.doesNotMatch(await page.locator('main').innerText(), /\/advertiser\//);

    await page.getByRole('button', { name: 'Novo produto' }).click();
    const form = page.getByRole('form', { name: 'Novo produto' });
    await form.getByLabel('Nome').fill(NAME);
    await form.getByLabel('Endereço da página do produto').fill(URL_ON_SITE);
    await form.getByLabel('Preço', { exact: true }).fill('12,999');
    await form.getByLabel('Endereços das imagens').fill('https://cdn.acme.com/produtos/tenis-ultraleve-azul.jpg');
    await form.getByLabel('Nova categoria (opcional)').fill('Corrida');
    await form.getByLabel('Código de barras (GTIN/EAN, opcional)').fill('7891234567890');
    await form.getByRole('button', { name: 'Salvar produto' }).click();
    const priceError = form.getByTestId('price-error');
    await priceError.waitFor();
    assert.match(await priceError.innerText(), /^Preço: digite um valor como /);
    assert.deepEqual(writes, [], 'an amount the page cannot read sends nothing');

    await form.getByLabel('Preço', { exact: true }).fill('129,90');
    await form.getByLabel('Preço sem desconto (opcional)').fill('99,90');
    await form.getByRole('button', { name: 'Salvar produto' }).click();
    await form.getByTestId('listPrice-error').getByText('Preço sem desconto (opcional): precisa ser pelo menos o preço (R$ 129,90).').waitFor();
    await form.getByTestId('ean-error').getByText('Código de barras (GTIN/EAN, opcional): 7891234567890 não é um código de barras válido', { exact: false }).waitFor();
    assert.deepEqual(writes, [], 'a list price below the price, or a barcode that does not check, sends nothing');

    await form.getByLabel('Endereço da página do produto').fill('https://www.outra-loja.com.br/tenis');
    await form.getByLabel('Preço sem desconto (opcional)').fill('');
    await form.getByLabel('Código de barras (GTIN/EAN, opcional)').fill('7891234567895');
    await form.getByRole('button', { name: 'Salvar produto' }).click();
    await form.getByTestId('url-error').getByText('Endereço da página do produto: a página precisa estar no site da sua loja (acme.com).').waitFor();
    assert.deepEqual(writes, []);
    await form.getByLabel('Endereço da página do produto').fill(URL_ON_SITE);
    await form.getByRole('img', { name: 'Imagem 1 do produto' }).waitFor();
    await form.getByText('Tamanhos, cores e outras variações (opcional)').click();
    await form.getByRole('button', { name: 'Adicionar variação' }).click();
    await form.getByLabel('Nome da variação 1').fill('Tamanho 41');
    await form.getByRole('button', { name: 'Adicionar variação' }).click();
    await form.getByLabel('Nome da variação 2').fill('Tamanho 42');
    await form.getByLabel('Preço da variação 2 (opcional)').fill('139,90');
    await form.getByText('Mais', { exact: true }).click();
    await form.getByLabel('Código do produto').waitFor();
    await assertAccessible(page, 'product form');
    await shoot(page, 'form');
    await form.getByRole('button', { name: 'Salvar produto' }).click();
    await page.getByRole('status').filter({ hasText: `“${NAME}” foi salvo.` }).waitFor();
    assert.equal(writes.length, 1);
    assert.match(writes[0]!, /^PUT .*\/advertiser\/products\/tenis-de-corrida-acme-ultraleve-azul-marinho-[a-z-]*-[a-z0-9]{4}$/);

    const [created] = await productsNamed(NAME);
    assert.ok(created, 'the API holds the product');
    assert.deepEqual(
      created.options.map((o) => [o.pricing[0]!.price, o.categories]),
      [
        [12990, ['Corrida']],
        [13990, ['Corrida']],
      ],
    );
    const row = page.getByTestId(`product-${created.id}`);
    await row.getByText('R$ 129,90').waitFor();
    assert.equal(await page.locator('table.products tbody tr').first().getAttribute('data-testid'), `product-${created.id}`, 'the product changed last comes first');
    await assertAccessible(page, 'product list');
    await shoot(page, 'list');

    // Searching by a word of the name finds it; the unavailable ones do not hold it.
    await page.getByLabel('Buscar por nome ou código').fill('ultraleve');
    await page.waitForFunction(() => document.querySelectorAll('table.products tbody tr').length === 1);
    await row.waitFor();
    await page.getByLabel('Mostrar').selectOption('unavailable');
    await page.getByText('Nenhum produto encontrado com essa busca.').waitFor();
    await page.getByLabel('Mostrar').selectOption('all');
    await page.getByLabel('Buscar por nome ou código').fill('');

    // Edit: a new price and a barcode, without the variations.
    await row.getByRole('button', { name: `Editar ${NAME}` }).click();
    const edit = page.getByRole('form', { name: `Editar “${NAME}”` });
    await edit.getByRole('button', { name: 'Remover variação 2' }).click();
    await edit.getByRole('button', { name: 'Remover variação 1' }).click();
    await edit.getByLabel('Código de barras (GTIN/EAN, opcional)').fill('7891234567895');
    await edit.getByLabel('Preço', { exact: true }).fill('119,90');
    await edit.getByLabel('Preço sem desconto (opcional)').fill('149,90');
    await edit.getByRole('button', { name: 'Salvar produto' }).click();
    await page.getByRole('status').filter({ hasText: `“${NAME}” foi salvo.` }).waitFor();
    await row.getByText('R$ 119,90').waitFor();
    assert.match(writes.at(-1)!, new RegExp(`^PATCH .*/advertiser/products/${created.id}$`));
    const [edited] = await productsNamed(NAME);
    assert.deepEqual(
      edited!.options.map((o) => [o.pricing[0]!.price, o.pricing[0]!.listPrice, o.ean, o.categories]),
      [[11990, 14990, '7891234567895', ['Corrida']]],
    );

    // Duplicate: a new product under a new code, its name marked as a copy.
    await row.getByRole('button', { name: `Duplicar ${NAME}` }).click();
    const copy = page.getByRole('form', { name: `Novo produto, copiado de “${NAME}”` });
    assert.equal(await copy.getByLabel('Nome').inputValue(), `${NAME} (cópia)`);
    await copy.getByRole('button', { name: 'Salvar produto' }).click();
    await page.getByRole('status').filter({ hasText: `“${NAME} (cópia)” foi salvo.` }).waitFor();
    const [copied] = await productsNamed(`${NAME} (cópia)`);
    assert.ok(copied && copied.id !== created.id, 'a product of its own');
    assert.deepEqual(copied.options.map((o) => o.pricing[0]!.price), [11990]);

    // Delete the copy: asked first; dismissing keeps it.
    const copyRow = page.getByTestId(`product-${copied.id}`);
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await copyRow.getByRole('button', { name: `Excluir ${NAME} (cópia)` }).click();
    assert.equal((await productsNamed(`${NAME} (cópia)`)).length, 1, 'not deleted without a yes');
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await copyRow.getByRole('button', { name: `Excluir ${NAME} (cópia)` }).click();
    await page.getByRole('status').filter({ hasText: `“${NAME} (cópia)” foi excluído.` }).waitFor();
    await copyRow.waitFor({ state: 'detached' });
    assert.match(questions[1]!, /^Excluir “.*\(cópia\)”\? Se pedidos ou links de afiliados citarem o produto, ele fica indisponível/);
    assert.deepEqual(await productsNamed(`${NAME} (cópia)`), []);
    assert.equal((await productsNamed(NAME)).length, 1, 'the original stays');

    // A product an affiliate's link leads to is kept as unavailable, and the page says so.
    page.once('dialog', (dialog) => void dialog.accept());
    const linked = page.getByTestId('product-p-acme-1');
    await linked.getByRole('button', { name: 'Excluir Red running sneakers' }).click();
    await page.getByRole('status').filter({ hasText: '“Red running sneakers” aparece em pedidos ou em links de afiliados, por isso foi mantido como indisponível em vez de excluído' }).waitFor();
    await linked.getByText('Indisponível').waitFor();
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});
