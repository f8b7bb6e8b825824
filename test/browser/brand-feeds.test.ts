/// <reference lib="dom" />
// A brand's product feed on the Catalogue page, in headless Chromium against a real server: the
// owner saves the feed's address, the network fetches it at once (a feed served on loopback) and
// the page shows the run's report; then an uploaded copy with fewer items runs and its report
// says how many products it made unavailable. On a phone's screen the section fits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { signInWithPassword } from '../helpers/operator-browser.js';
import { googleXml, startFeedServer, type FeedServer } from '../helpers/feeds.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'owner@acme.example';
let feeds: FeedServer;
const pageErrors: string[] = [];

async function xmlOf(items: number): Promise<string> {
  let text = '';
  for await (const piece of googleXml({ items })) text += piece;
  return text;
}

const portal = portalUnderTest({
  prepare: async (database) => {
    feeds = await startFeedServer();
    feeds.serve('/feed.xml', { body: () => googleXml({ items: 40 }) });
    await servicesFor(database).users.createWithPassword({ brandId: BRANDS.acme }, OWNER, 'owner', PASSWORD);
  },
  env: { WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', SCHEDULE_POLL_MS: '500' },
  alsoClose: async () => {
    await feeds?.close();
  },
});

async function signedIn(width: number): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/session') && r.request().method() === 'POST'), signInWithPassword(page, OWNER, PASSWORD)]);
  await page.goto('/app/catalogue');
  await page.getByRole('heading', { name: 'Product feeds' }).waitFor();
  return page;
}

test('the owner saves the feed, the network fetches it at once, and an uploaded copy reports what it made unavailable', async () => {
  const page = await signedIn(1280);
  await page.getByLabel('Feed address (https)').fill(feeds.url('/feed.xml'));
  await page.getByRole('button', { name: 'Save the feed' }).click();
  const card = page.getByTestId('feed-main');
  await card.waitFor();
  // The first run happens on the job runner: the page shows it once it is complete.
  for (let i = 0; i < 60 && !(await card.getByText('Complete').isVisible()); i++) {
    await page.waitForTimeout(500);
    await page.reload();
    await card.waitFor();
  }
  await card.getByText('Complete').waitFor();
  assert.match(await card.innerText(), /40 items: \d+ added/);

  await card.getByLabel('Run an uploaded copy').setInputFiles({ name: 'feed.xml', mimeType: 'application/xml', buffer: Buffer.from(await xmlOf(30)) });
  const report = page.getByRole('status').filter({ hasText: 'The uploaded copy’s run' });
  await report.waitFor();
  assert.match(await report.innerText(), /30 items: .*[1-9]\d* made unavailable/);
  await page.locator('section[aria-labelledby="feeds-title"]').screenshot({ path: '/tmp/brand-feeds-1280.png' });
  await assertAccessible(page, 'the Catalogue page with a feed');
  await page.context().close();
});

test('the feeds section fits a phone’s screen', async () => {
  const page = await signedIn(375);
  await page.getByTestId('feed-main').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, 'no sideways scrolling at 375 px');
  await page.locator('section[aria-labelledby="feeds-title"]').screenshot({ path: '/tmp/brand-feeds-375.png' });
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});
