/// <reference lib="dom" />
// Coupon codes in the portal, in headless Chromium against a real server: a brand gives an
// affiliate a code on its Coupons page, the affiliate finds it under My codes and opens its orders
// by that code, and the brand takes it back. Both pages fit a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
  },
});

async function signedIn(email: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
  return { page, close: () => context.close() };
}

const nav = (page: Page, name: string) => followMenu(page, name);

/** The page at 375 px: it must not scroll sideways; a screenshot to look at. */
async function fitsPhone(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/coupons-${name}-375.png`, fullPage: true });
  await page.setViewportSize(size);
  assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at 375 px`);
}

test('a brand gives a code, the affiliate sees it and its orders by it, the brand takes it back', async () => {
  const brand = await signedIn('owner@acme.example');
  try {
    const { page } = brand;
    await nav(page, 'Coupons');
    await page.getByRole('heading', { name: 'Coupons', exact: true }).waitFor();
    await page.getByText('No code given yet.').waitFor();
    await page.getByLabel('Code', { exact: true }).fill('MARIA-SUMMER-2026');
    await page.getByLabel('Affiliate', { exact: true }).selectOption({ label: 'Affiliate One (aff-1)' });
    await page.getByRole('button', { name: 'Give the code' }).click();
    await page.getByRole('status').filter({ hasText: 'Code MARIA-SUMMER-2026 saved.' }).waitFor();
    const row = page.getByTestId('coupon-MARIA-SUMMER-2026');
    await row.getByText('Affiliate One').waitFor();
    await assertAccessible(page, 'brand coupons');
    await fitsPhone(page, 'brand');
  } finally {
    await brand.close();
  }

  const affiliate = await signedIn('owner@aff1.example');
  try {
    const { page } = affiliate;
    await nav(page, 'My codes');
    await page.getByRole('heading', { name: 'My codes' }).waitFor();
    const row = page.getByTestId('my-coupon-MARIA-SUMMER-2026');
    await row.getByText('Acme').waitFor();
    await assertAccessible(page, 'my codes');
    await fitsPhone(page, 'affiliate');
    await row.getByRole('link', { name: 'Orders with this code' }).click();
    await page.getByRole('status').filter({ hasText: 'Orders placed with your code MARIA-SUMMER-2026.' }).waitFor();
  } finally {
    await affiliate.close();
  }

  const again = await signedIn('owner@acme.example');
  try {
    const { page } = again;
    await nav(page, 'Coupons');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Take back MARIA-SUMMER-2026' }).click();
    await page.getByText('No code given yet.').waitFor();
  } finally {
    await again.close();
  }
  assert.deepEqual(pageErrors, []);
});
