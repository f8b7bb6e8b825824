/// <reference lib="dom" />
// Sub-IDs in the portal, in pt-BR in headless Chromium against a real server: a click that carried
// sub1 and sub2 earned an order; the affiliate finds it by Sub-ID on its orders page, sees its
// Sub-IDs on the order's page, and reads its analytics broken down and filtered by Sub-ID. Each
// page fits a phone (375 px) and a desktop (1280 px).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';
import { BROWSER_UA } from '../helpers/tracking.js';

const PASSWORD = 'a long enough password';
const pageErrors: string[] = [];
const keys = { affiliate: '', brand: '' };
const ORDER = 'pedido-sub-1';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
    keys.affiliate = (await services.access.createApiKey({ affiliateId: 'aff-1', rateLimit: 100_000 })).key;
    keys.brand = (await services.access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 })).key;
  },
  // A link, a visit that carries sub-ids (another without), and an order on the first visit.
  started: async ({ server }) => {
    const api = async (path: string, key: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.text();
      assert.ok(res.ok, `${path}: ${res.status} ${text}`);
      return JSON.parse(text) as unknown;
    };
    const channels = (await api('/affiliate/shortener/url', keys.affiliate, { organizationId: BRANDS.acme, type: 'Home' })) as Array<{ shortUrls: string[] }>;
    const shortUrl = new URL(channels.find((c) => c.shortUrls.length > 0)!.shortUrls[0]!);
    // Each visit from its own browser, so neither is a repeat of the other.
    const visit = async (query: string, userAgent: string) => {
      const res = await fetch(`${server.url}${shortUrl.pathname}${query}`, { redirect: 'manual', headers: { 'user-agent': userAgent } });
      assert.equal(res.status, 302);
      return new URL(res.headers.get('location')!).searchParams.get('clickId')!;
    };
    const clickId = await visit('?sub1=adset-7&sub2=criativo-3', BROWSER_UA);
    await visit('?sub1=adset-8', IPHONE);
    await api('/advertiser/conversions', keys.brand, { clickId, orderId: ORDER, value: 10_000, items: [{ id: 'sku-1', name: 'Tênis', quantity: 1, price: 10_000, categories: 42 }] });
  },
});

/** Signed in at 1280 px (the menu's layout there), then looked at `width` px wide. */
async function signedIn(width: number): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill('owner@aff1.example');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Menu principal' }).waitFor();
  await page.setViewportSize({ width, height: 900 });
  return { page, close: () => context.close() };
}

/** The page fits: nothing scrolls sideways; a screenshot to look at. */
async function fits(page: Page, name: string, width: number): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/sub-ids-${name}-${width}.png`, fullPage: true });
  assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at ${width} px`);
}

/** Picks a Sub-ID and its value in the form and shows what matches. */
async function pickSubId(page: Page, which: string, value: string): Promise<void> {
  await page.getByLabel('Sub-ID', { exact: true }).selectOption({ label: which });
  await page.getByLabel('Valor do Sub-ID').fill(value);
  await page.getByRole('button', { name: 'Mostrar' }).click();
}

for (const width of [375, 1280]) {
  test(`at ${width} px: the orders by Sub-ID, an order's Sub-IDs, and the analytics by Sub-ID`, async () => {
    const { page, close } = await signedIn(width);
    try {
      await page.goto('/app/orders');
      await page.getByRole('heading', { name: 'Pedidos', exact: true }).waitFor();
      await pickSubId(page, 'Sub-ID 1', 'adset-8');
      await page.getByText('Nada aqui ainda.').waitFor();
      assert.equal(await page.getByTestId(`order-${ORDER}`).count(), 0, 'no order of adset-8');
      await pickSubId(page, 'Sub-ID 2', 'criativo-3');
      await page.getByTestId(`order-${ORDER}`).waitFor();
      await assertAccessible(page, 'orders by sub-id');
      await fits(page, 'orders', width);

      await page.getByTestId(`order-${ORDER}`).getByRole('link', { name: ORDER }).click();
      await page.getByRole('heading', { name: `Pedido ${ORDER}` }).waitFor();
      assert.equal(await page.getByTestId('order-sub1').textContent(), 'adset-7');
      assert.equal(await page.getByTestId('order-sub2').textContent(), 'criativo-3');
      await page.getByText('Sub-ID 1', { exact: true }).waitFor();
      await fits(page, 'order', width);

      await page.goto('/app/analytics');
      await page.getByRole('heading', { name: 'Análises' }).waitFor();
      await page.getByLabel('Dividir por').selectOption({ label: 'Sub-ID 1' });
      const table = page.getByTestId('analytics-table');
      await table.getByRole('rowheader', { name: 'adset-7' }).waitFor();
      await table.getByRole('rowheader', { name: 'adset-8' }).waitFor();
      await fits(page, 'analytics-by-sub-id', width);
      // Filtered by one Sub-ID: broken down by another, or over time.
      await pickSubId(page, 'Sub-ID 1', 'adset-7');
      await page.getByLabel('Dividir por').selectOption({ label: 'Sub-ID 2' });
      await table.getByRole('rowheader', { name: 'criativo-3' }).waitFor();
      assert.equal(await table.getByRole('rowheader', { name: 'adset-8' }).count(), 0);
      await page.getByLabel('Dividir por').selectOption({ label: 'Tempo' });
      await page.getByTestId('analytics-total').filter({ hasText: '1' }).waitFor();
      await assertAccessible(page, 'analytics by sub-id');
      await fits(page, 'analytics-filtered', width);
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, /\bsub[1-5]\b|subIds/, 'no field name on the page');
    } finally {
      await close();
    }
    assert.deepEqual(pageErrors, []);
  });
}
