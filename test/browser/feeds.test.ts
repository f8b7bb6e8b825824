/// <reference lib="dom" />
// The affiliate's product feeds in the portal, in headless Chromium against a real server: it
// chooses a channel and a tracking id, the feed URLs follow, and each downloads with the session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servicesFor } from '../helpers/databases.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    await servicesFor(database).users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
  },
});

test('the affiliate chooses a channel and a tracking id and downloads its feeds', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await page.goto('/app/');
    await page.getByLabel('E-mail').fill('owner@aff1.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await followMenu(page, 'Product feeds');
    await page.getByRole('heading', { name: 'Product feeds', exact: true }).waitFor();
    await page.getByLabel('Channel').selectOption({ label: '@aff1' });
    await page.getByLabel('Tracking id (mdasc)').fill('compare-1');
    const csv = page.getByTestId('feed-csv');
    await csv.getByText('mdasc=compare-1').waitFor();
    const url = new URL(await csv.locator('code').innerText());
    assert.equal(url.pathname, '/affiliate/feeds/products.csv');
    assert.deepEqual(Object.fromEntries(url.searchParams), { channelId: 'ch-aff1-insta', mdasc: 'compare-1', isAvailable: 'true' });
    for (const [format, type] of [
      ['csv', /^text\/csv/],
      ['xml', /^application\/xml/],
    ] as const) {
      const href = await page.getByTestId(`feed-${format}`).getByRole('link', { name: 'Download' }).getAttribute('href');
      const res = await page.request.get(href!);
      assert.equal(res.status(), 200, href!);
      assert.match(res.headers()['content-type'] ?? '', type);
      assert.match(await res.text(), /p-acme-1/);
    }
    await assertAccessible(page, 'the product feeds page');
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/feeds-1280.png`, fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/feeds-375.png`, fullPage: true });
    }
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
