/// <reference lib="dom" />
// A claim in the portal, in headless Chromium against a real server: an affiliate claims a sale its
// link brought that the brand's tracking missed; the brand finds it on its Claims page and accepts
// it at the actual value; the affiliate sees it accepted and the order among its orders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { freshDatabase, servicesFor, type TestDatabase } from '../helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { assertAccessible, launchBrowser } from '../helpers/browser.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';

const PASSWORD = 'a long enough password';
let testDb: TestDatabase;
let database: Database;
let server: ServerProcess;
let browser: Browser;
const pageErrors: string[] = [];

before(async () => {
  testDb = await freshDatabase();
  database = openDatabase(testDb.url);
  await migrateToLatest(database);
  await buildWorld(database);
  const services = servicesFor(database);
  await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
  await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
  server = await startServerProcess({ DATABASE_URL: testDb.url, REDIS_URL: '', WEBHOOK_POLL_MS: '0' }, { publicUrlIsOwn: true });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await database?.close();
  await testDb?.drop();
});

async function signedIn(email: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
  return { page, close: () => context.close() };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();

test('an affiliate claims a missed sale, the brand accepts it at the actual value, and the order appears among the affiliate’s orders', async () => {
  const orderId = 'MISSED-1001';
  const affiliate = await signedIn('owner@aff1.example');
  try {
    const { page } = affiliate;
    await nav(page, 'Claims');
    await page.getByRole('heading', { name: 'Claims', exact: true }).waitFor();
    await assertAccessible(page, 'affiliate claims');
    await page.getByLabel('Find a brand').fill('Acme');
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Acme' });
    await page.getByLabel('Order number').fill(orderId);
    await page.getByLabel('Order date').fill(new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel('Order value').fill('abc');
    await page.getByRole('button', { name: 'Send the claim' }).click();
    await page.getByText('Type the value as an amount').waitFor();
    await page.getByLabel('Order value').fill('150.00');
    await page.getByLabel('Note for the brand').fill('The customer forwarded the confirmation.');
    await page.getByRole('button', { name: 'Send the claim' }).click();
    await page.getByRole('status').filter({ hasText: `Claim of order ${orderId} sent` }).waitFor();
    const row = page.getByTestId(`claim-${orderId}`);
    await row.getByText('Open').waitFor();
    // The same order again is refused with the reason.
    await page.getByLabel('Order number').fill(orderId);
    await page.getByLabel('Order date').fill(new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel('Order value').fill('150.00');
    await page.getByRole('button', { name: 'Send the claim' }).click();
    await page.getByRole('alert').filter({ hasText: 'awaits the brand' }).waitFor();
  } finally {
    await affiliate.close();
  }

  const brand = await signedIn('owner@acme.example');
  try {
    const { page } = brand;
    await nav(page, 'Claims');
    const row = page.getByTestId(`claim-${orderId}`);
    await row.waitFor();
    await assertAccessible(page, 'brand claims');
    assert.match((await row.textContent()) ?? '', /The customer forwarded the confirmation\./);
    await row.getByRole('button', { name: `Decline the claim of order ${orderId}` }).click();
    await row.getByText('Say why you decline it').waitFor();
    await row.getByLabel('Actual value (optional)').fill('120.00');
    await row.getByRole('button', { name: `Accept the claim of order ${orderId}` }).click();
    // Answered: it leaves the open ones, and shows under all with what it came to.
    await row.waitFor({ state: 'detached' });
    await page.getByLabel('Show').selectOption({ label: 'All' });
    await page.getByTestId(`claim-${orderId}`).getByText(/Accepted at R\$\s?120\.00/).waitFor();
    await nav(page, 'Conversions');
    await page.getByTestId(`conversion-${orderId}`).waitFor();
  } finally {
    await brand.close();
  }

  const again = await signedIn('owner@aff1.example');
  try {
    const { page } = again;
    await nav(page, 'Claims');
    await page.getByTestId(`claim-${orderId}`).getByText('Accepted', { exact: true }).waitFor();
    await page.getByTestId(`claim-${orderId}`).getByRole('link', { name: 'See it in your orders' }).click();
    const order = page.getByTestId(`order-${orderId}`);
    await order.waitFor();
    assert.match((await order.textContent()) ?? '', /R\$\s?120\.00/);
  } finally {
    await again.close();
  }
  assert.deepEqual(pageErrors, []);
});
