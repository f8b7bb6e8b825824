/// <reference lib="dom" />
// A brand's owner confirms orders with the shop's export, in Brazilian Portuguese, in headless
// Chromium against a real server: from Conversions to the page, a Shopify export uploaded, the
// preview's counts and lines in the person's language, the changes applied and their outcome; the
// same page on a phone's screen does not scroll sideways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'owner@acme.example';
const CODE = 'LOJA10';
let brandKey = '';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, OWNER, 'owner', PASSWORD);
    brandKey = (await services.access.createApiKey({ brandId: BRANDS.acme })).key;
  },
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${portal.server.url}${path}`, { method, headers: { 'x-api-key': brandKey, ...(body !== undefined && { 'content-type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res;
};

let orders: string[] | undefined;
/** Three orders a coupon brought, once: paid, refunded and partly refunded in the shop. */
async function ordersOnce(): Promise<string[]> {
  if (orders) return orders;
  await api('PUT', `/advertiser/coupons/${CODE}`, { affiliateId: 'aff-1' });
  orders = ['5001', '5002', '5003'];
  for (const orderId of orders) await api('POST', '/advertiser/conversions', { orderId, coupon: CODE, value: 12_990, items: [{ id: 'sku-1', name: 'Tênis', quantity: 1, price: 12_990, categories: 1 }] });
  // One the shop's thank-you page reported through the tag, which waits for the brand's confirmation.
  const key = ((await (await api('POST', '/advertiser/tag/publishable-key')).json()) as { data: { publishableKey: string } }).data.publishableKey;
  const tag = await fetch(`${portal.server.url}/track/conversions`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://www.acme.com' },
    body: JSON.stringify({ key, orderId: '5005', value: 4_990, currency: 'BRL', coupon: CODE }),
  });
  assert.equal(tag.status, 202, await tag.text());
  return orders;
}

/** Shopify's export of those orders, with Shopify's own headers and "#" names. */
function shopifyExport(): string {
  const now = new Date(Date.now() - 3 * 3_600_000).toISOString();
  const at = `${now.slice(0, 10)} ${now.slice(11, 19)} -0300`;
  const header = 'Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Currency,Subtotal,Shipping,Taxes,Total,Created at,Cancelled at,Refunded Amount';
  return [
    header,
    `#5001,ana@example.com,paid,${at},fulfilled,${at},BRL,129.90,0.00,0.00,129.90,${at},,0.00`,
    `#5002,bia@example.com,refunded,${at},unfulfilled,,BRL,129.90,0.00,0.00,129.90,${at},${at},129.90`,
    `#5003,caio@example.com,partially_refunded,${at},fulfilled,${at},BRL,129.90,0.00,0.00,129.90,${at},,29.90`,
    `#7777,duda@example.com,paid,${at},fulfilled,${at},BRL,59.90,0.00,0.00,59.90,${at},,0.00`,
    `#5004,eva@example.com,paid,${at},fulfilled,${at},BRL,dez reais,0.00,0.00,dez reais,${at},,0.00`,
  ].join('\r\n');
}

async function signedIn(width: number): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(OWNER);
  await page.getByLabel('Senha').fill(PASSWORD);
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/session') && r.request().method() === 'POST'), page.getByRole('button', { name: 'Entrar', exact: true }).click()]);
  return page;
}

async function previewed(page: Page): Promise<void> {
  await page.goto('/app/conversions');
  await page.getByRole('link', { name: 'Confirmar pedidos com a exportação da sua loja' }).click();
  await page.getByRole('heading', { name: 'Confirmar pedidos com a exportação da sua loja' }).waitFor();
  await page.getByLabel('Exportação de pedidos da sua loja (CSV)').setInputFiles({ name: 'orders_export.csv', mimeType: 'text/csv', buffer: Buffer.from(shopifyExport()) });
  await page.getByRole('button', { name: 'Conferir o arquivo' }).click();
  await page.getByTestId('reconcile-summary').waitFor();
}

test('the owner uploads the Shopify export, reads the preview in Portuguese and applies it', async () => {
  await ordersOnce();
  const page = await signedIn(1280);
  const waiting = page.getByTestId('tag-awaiting');
  await waiting.getByText(/^1 pedido que sua tag registrou aguarda sua confirmação: o primeiro será cancelado em \d+ de \S+ de \d{4} se você não o confirmar\.$/).waitFor();
  await page.screenshot({ path: '/tmp/reconciliation-overview-1280.png' });
  await previewed(page);
  assert.match(await page.getByTestId('reconcile-summary').innerText(), /^Exportação da Shopify · 5 pedidos no arquivo, em \d+ de \S+ de \d{4}\.$/);
  await page.getByTestId('kind-confirm').getByText('5001').waitFor();
  await page.getByTestId('kind-cancel').getByText('5002').waitFor();
  await page.getByTestId('kind-correct').getByText('R$ 129,90 → R$ 100,00').waitFor();
  await page.getByTestId('kind-unknown').getByText('#7777').waitFor();
  await page.getByTestId('kind-invalid').getByText('Valor não entendido').waitFor();
  const text = await page.locator('main').innerText();
  // No English word, field name or code of the API on the page.
  for (const english of ['confirm', 'cancel', 'correct', 'invalid', 'unknown', 'missing', 'skipped', 'reconciliation', 'invalid_amount', 'Order', 'Line']) {
    assert.ok(!new RegExp(`\\b${english}\\b`).test(text), `no “${english}” on the pt-BR page`);
  }
  await assertAccessible(page, 'the reconciliation preview');
  await page.screenshot({ path: '/tmp/reconciliation-preview-1280.png', fullPage: true });

  await page.getByRole('button', { name: 'Aplicar 3 mudanças' }).click();
  await page.getByTestId('reconcile-outcome').getByText('Pronto: 1 aprovado, 1 cancelado, 1 corrigido.').waitFor();
  await page.screenshot({ path: '/tmp/reconciliation-applied-1280.png', fullPage: true });
  const corrected = (await (await api('GET', '/advertiser/conversions/5003')).json()) as { data: { status: string; value: number } };
  assert.deepEqual([corrected.data.status, corrected.data.value], ['approved', 10_000]);
  await page.context().close();
});

test('on a phone’s screen the page does not scroll sideways, and the same file again has nothing to change', async () => {
  await ordersOnce();
  const page = await signedIn(375);
  await previewed(page);
  await page.getByText('Nada a mudar: todos os pedidos do arquivo já estão decididos ou aguardando.').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, 'no sideways scrolling at 375 px');
  await page.screenshot({ path: '/tmp/reconciliation-preview-375.png', fullPage: true });
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});
