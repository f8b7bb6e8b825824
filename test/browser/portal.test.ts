/// <reference lib="dom" />
// The portal as a person uses it, in headless Chromium against a real server: an affiliate signs
// up from the link, finds a brand, makes a link, sees its click after it is followed, sees the
// order a brand reported; the brand approves it; the affiliate sees it approved. Wrong passwords,
// ended sessions and requests without the CSRF token are refused, and an affiliate never sees
// another's data. Every page passes the accessibility check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { TEST_PAYEE_KEY } from '../helpers/harness.js';
import { PIX_CPF, payMonth, releasePayeeHold } from '../helpers/money.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { pollUntil } from '../helpers/wait.js';
import { openRepositories } from '../../src/storage/repositories/index.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { setPasswordLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
let brandKey = '';
let aff1Key = '';
let aff2Key = '';
let receiver: Receiver;
let mailbox: Mailbox;
let signUpLink = '';
let shots = '';
/** Uncaught errors in any page: there must be none. */
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    brandKey = (await services.access.createApiKey({ brandId: BRANDS.acme })).key;
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
    await services.users.createWithPassword({ affiliateId: 'aff-2' }, 'someone@aff2.example', 'owner', PASSWORD);
    // A private brand, asked for approval by aff-2 (aff-1 is approved in the world).
    await services.users.createWithPassword({ brandId: BRANDS.globex }, 'owner@globex.example', 'owner', PASSWORD);
    await services.approvals.request('aff-2', BRANDS.globex);
    aff1Key = (await services.access.createApiKey({ affiliateId: 'aff-1' })).key;
    aff2Key = (await services.access.createApiKey({ affiliateId: 'aff-2' })).key;
    receiver = await startReceiver();
    mailbox = await startMailbox();
  },
  // Webhooks go to the local receiver (a test's own address), looked for every 200 ms; mail to the
  // SMTP server in this process.
  env: () => ({ PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY, WEBHOOK_POLL_MS: '200', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', CLICK_FLUSH_MS: '100', SMTP_URL: mailbox.url, MAIL_POLL_MS: '200' }),
  alsoClose: async () => {
    await receiver?.close();
    await mailbox?.stop();
  },
  started: async () => {
    // The sign-up link names PUBLIC_URL, which is the server's own address now.
    signUpLink = (await servicesFor(portal.database).users.create({ affiliateId: 'aff-1' }, 'ana@aff1.example', 'owner')).link.replace(/^https?:\/\/[^/]+/, portal.server.url);
    shots = await mkdtemp(join(tmpdir(), 'affnet-portal-'));
  },
});

const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  if (process.env.DEBUG_PORTAL) page.on('response', (r) => console.log('#', r.status(), r.request().method(), r.url()));
  return { context, page };
};

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

const nav = (page: Page, name: string) => followMenu(page, name, { exact: false });

test('sign up, find a brand, make a link, see its click and its order; the brand approves it; the affiliate sees it approved', async () => {
  const { context, page } = await newPage();
  try {
    await page.goto(signUpLink.slice(portal.server.url.length));
    await assertAccessible(page, 'set password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await assertAccessible(page, 'affiliate overview');
    await page.screenshot({ path: join(shots, 'overview.png'), fullPage: true });

    await nav(page, 'Brands');
    const acme = page.getByRole('row', { name: /Acme/ });
    await acme.waitFor();
    await assertAccessible(page, 'brands');
    await acme.getByRole('link', { name: 'Make a link' }).click();
    await page.getByRole('heading', { name: 'Make a link' }).waitFor();
    assert.equal(await page.getByLabel('Brand', { exact: true }).inputValue(), BRANDS.acme, 'the brand chosen on the list');
    await page.getByRole('button', { name: 'Make links for my channels' }).click();
    const shortUrl = (await page.getByTestId('short-url').first().textContent())!;
    assert.match(shortUrl, new RegExp(`^${portal.server.url}/\\w+`));
    await assertAccessible(page, 'link builder');
    await page.screenshot({ path: join(shots, 'links.png'), fullPage: true });

    // A visitor follows the link.
    const visit = await context.request.get(shortUrl, { maxRedirects: 0, headers: { 'user-agent': BROWSER_UA } });
    assert.equal(visit.status(), 302);
    const clickId = new URL(visit.headers().location!).searchParams.get('clickId')!;
    const code = new URL(shortUrl).pathname.slice(1);
    await pollPage(page, async () => (await page.getByTestId(`clicks-${code}`).textContent({ timeout: 5000 }).catch(() => '')) === '1');

    // The brand reports the sale with its key.
    const orderId = 'portal-order-1';
    const reported = await fetch(`${portal.server.url}/advertiser/conversions`, {
      method: 'POST',
      headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
      body: JSON.stringify({ clickId, orderId, value: 12_345, items: [{ id: 'sku-1', name: 'Shoe', quantity: 1, price: 12_345, categories: 1 }] }),
    });
    assert.equal(reported.status, 201, await reported.text());
    await nav(page, 'Orders');
    const row = page.getByTestId(`order-${orderId}`);
    await row.waitFor();
    assert.match((await row.textContent())!, /\$123\.45.*Pending/);
    await assertAccessible(page, 'orders');
    await signOut(page);

    await signIn(page, 'owner@acme.example');
    await nav(page, 'Conversions');
    await page.getByRole('button', { name: `Approve order ${orderId}` }).click();
    await page.getByTestId(`conversion-${orderId}`).getByText('Approved').waitFor();
    await assertAccessible(page, 'conversions');
    await nav(page, 'Overview');
    await page.getByRole('img', { name: 'Clicks per day, last 30 days' }).waitFor();
    await assertAccessible(page, 'brand overview');
    await signOut(page);

    await signIn(page, 'ana@aff1.example');
    await nav(page, 'Orders');
    await page.getByTestId(`order-${orderId}`).getByText('Approved').waitFor();
    // The overview counts it among the last 30 days' orders (the world's own orders are older).
    await nav(page, 'Overview');
    await page.getByTestId('orders-30d').getByText('1', { exact: true }).waitFor();
  } finally {
    await context.close();
  }
});

test('a wrong password is refused with a message; a request without the CSRF token is refused', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@acme.example', 'not the password');
    await page.getByRole('alert').getByText(/e-mail or the password is wrong/).waitFor();
    await assertAccessible(page, 'sign-in');
    await signIn(page, 'owner@acme.example');
    await page.getByRole('heading', { name: 'Acme' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/advertiser/brand', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"clickIdParam":"x"}' })).status);
    assert.equal(status, 403, 'a change with the cookie alone is refused');
  } finally {
    await context.close();
  }
});

test('an ended session leads back to the sign-in page, saying so', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    // Every figure of the page came with the live session before it ends.
    await page.getByTestId('clicks-30d').waitFor();
    await page.waitForLoadState('networkidle');
    await portal.database.db.deleteFrom('sessions').execute();
    // The next request finds the session gone: the person's click, or a question the page was
    // still asking in the background (then the menu is already gone and there is nothing to click).
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Orders', exact: true })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await page.getByText('Your session has ended: sign in again.').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  } finally {
    await context.close();
  }
});

test("an affiliate never sees another's orders or links", async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    await nav(page, 'Orders');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.getByTestId('order-brand-o-aff1-1').waitFor(); // aff-2's own order (its brand order id looks like aff-1's)
    await page.waitForLoadState('networkidle');
    const shown = await page.locator('[data-testid^="order-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')!));
    assert.ok(shown.length > 0, 'aff-2 sees its own orders');
    const aff1Orders = (await portal.database.db.selectFrom('orders').select('id').where('affiliate_id', '=', 'aff-1').execute()).map((o) => o.id);
    assert.deepEqual(shown.filter((id) => aff1Orders.includes(id)), [], "aff-1's orders shown to aff-2");
    await nav(page, 'Links');
    await page.waitForURL('**/app/links');
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByText('Loading…').first().waitFor({ state: 'detached' });
    const links = await page.getByRole('main').textContent();
    const aff1Codes = (await portal.database.db.selectFrom('short_links').select('code').where('affiliate_id', '=', 'aff-1').execute()).map((l) => l.code);
    assert.ok(aff1Codes.length > 0);
    for (const code of aff1Codes) assert.ok(!links!.includes(code), `aff-1's link ${code} shown to aff-2`);
  } finally {
    await context.close();
  }
});

test('in Portuguese on a 375 px screen: the menu and figures fit, money in the Brazilian format', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  try {
    await page.goto('/app/');
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.getByLabel('E-mail').fill('ana@aff1.example');
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    // Her own language (English, kept since her first visit) follows her to this browser.
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    // On a phone the menu, with the language box, is folded behind its button.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Últimos 30 dias' }).waitFor();
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Pedidos' }).click();
    await page.getByTestId('order-portal-order-1').waitFor();
    assert.match((await page.getByTestId('order-portal-order-1').textContent())!, /R\$\s?123,45/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    await page.screenshot({ path: join(shots, 'orders-375-pt-BR.png'), fullPage: true });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
  } finally {
    await context.close();
  }
});

/**
 * Reloads the page until `check` holds (figures written in the background), for up to 30 s: on a
 * busy machine a reload alone can take seconds, so each check waits for the page to settle.
 */
async function pollPage(page: Page, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, 'gave up waiting');
    await page.reload();
    await page.waitForLoadState('networkidle');
  }
}

test('an owner creates an API key (shown once, working), revokes it, and adds a person who signs up from the link', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@acme.example');
    await nav(page, 'API keys');
    await page.getByLabel('Name').fill('shop integration');
    await page.getByRole('checkbox', { name: 'catalog:write' }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    await assertAccessible(page, 'API keys');
    assert.equal((await fetch(`${portal.server.url}/advertiser/brand`, { headers: { 'x-api-key': key } })).status, 200, 'the new key works');
    await page.getByRole('button', { name: 'Revoke key shop integration' }).click();
    await page.getByText(/Revoked on/).waitFor();
    assert.equal((await fetch(`${portal.server.url}/advertiser/brand`, { headers: { 'x-api-key': key } })).status, 401, 'revoked');

    await nav(page, 'Team');
    await page.getByLabel('E-mail').fill('new.colleague@acme.example');
    await page.getByRole('button', { name: 'Add person' }).click();
    const link = (await page.getByTestId('password-link').textContent())!;
    await assertAccessible(page, 'team');
    await signOut(page);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await page.getByRole('heading', { name: 'Acme' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'API keys' }).count(), 0, 'a member has no keys page');
  } finally {
    await context.close();
  }
});

test('an affiliate adds a channel, renames it, gets a link for it, and removes it (asked first)', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    await nav(page, 'Channels');
    await page.getByRole('row', { name: /Deals group/ }).waitFor();
    await page.getByLabel('Kind').selectOption({ label: 'Instagram' });
    await page.getByLabel('Name', { exact: true }).fill('@deals2');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('row', { name: /@deals2/ }).waitFor();
    await assertAccessible(page, 'channels');

    await page.getByRole('button', { name: 'Rename @deals2' }).click();
    await page.getByLabel('New name for @deals2').fill('@deals.two');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Rename @deals.two' }).waitFor();
    assert.equal(await page.getByRole('row', { name: /@deals2/ }).count(), 0, 'renamed, not added');

    await nav(page, 'Links');
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Acme' });
    await page.getByRole('button', { name: 'Make links for my channels' }).click();
    await page.getByRole('heading', { name: '@deals.two' }).waitFor();

    await nav(page, 'Channels');
    // Dismissed first: nothing is removed.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Remove @deals.two' }).click();
    await page.getByRole('row', { name: /@deals\.two/ }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove @deals.two' }).click();
    await page.getByRole('row', { name: /@deals\.two/ }).waitFor({ state: 'detached' });
    const stored = await portal.database.db.selectFrom('affiliate_channels').select(['name', 'removed_at']).where('affiliate_id', '=', 'aff-2').orderBy('created_at').execute();
    assert.deepEqual(stored.map((c) => [c.name, c.removed_at !== null]), [['Deals group', false], ['@deals.two', true]]);
  } finally {
    await context.close();
  }
});

test('products by price in money; a coupon with its code; a coupon link with a tracking id that reaches the destination', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    await nav(page, 'Products');
    await page.getByRole('row', { name: /Red running sneakers/ }).waitFor();
    assert.equal(await page.getByRole('row', { name: /Blue leather boots/ }).count(), 0, 'unavailable products hidden by default');
    await assertAccessible(page, 'products');
    await page.getByLabel('Price from').fill('10');
    await page.getByLabel('Price up to').fill('60.00');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row', { name: /Red stapler/ }).waitFor({ state: 'detached' });
    assert.deepEqual(await page.getByTestId('product-price').allTextContents(), ['R$50.00'], 'only the 50.00 product, shown in money');
    await page.getByLabel('Price from').fill('ten');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('alert').filter({ hasText: 'Write prices as amounts' }).waitFor();

    await nav(page, 'Campaigns');
    const coupon = page.getByTestId('campaign-c-acme-coupon');
    await coupon.getByText('SAVE10').waitFor();
    assert.ok(await coupon.getByRole('button', { name: 'Copy: coupon code of Campaign c-acme-coupon' }).isVisible());
    assert.equal(await page.getByTestId('campaign-c-acme-expired').locator('.badge.canceled').textContent(), 'Expired');
    assert.match((await page.getByTestId('campaign-c-acme-offer-url').getByTestId('short-url').first().textContent())!, new RegExp(`^${portal.server.url}/\\w+$`), 'an Url offer shows its links');
    await assertAccessible(page, 'campaigns');

    await coupon.getByRole('link', { name: 'Make a link' }).click();
    await page.getByRole('heading', { name: 'Make a link' }).waitFor();
    assert.equal(await page.getByLabel('Link to', { exact: true }).inputValue(), 'Coupon');
    await page.getByLabel('Campaign').selectOption('c-acme-coupon');
    await page.getByLabel('Your label for this link').fill('spring-post');
    await page.getByRole('button', { name: 'Make links for my channels' }).click();
    const shortUrl = (await page.getByTestId('short-url').first().textContent())!;
    await assertAccessible(page, 'link builder with a coupon');
    const visit = await context.request.get(shortUrl, { maxRedirects: 0, headers: { 'user-agent': BROWSER_UA } });
    assert.equal(visit.status(), 302);
    assert.equal(new URL(visit.headers().location!).searchParams.get('mdasc'), 'spring-post');
  } finally {
    await context.close();
  }
});

test('brands filtered (highlighted only); a private brand asked for approval by its id, an unknown id refused', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    await nav(page, 'Brands');
    await page.getByTestId(`brand-${BRANDS.umbrella}`).waitFor();
    await page.getByLabel('Highlighted').check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId(`brand-${BRANDS.umbrella}`).waitFor({ state: 'detached' });
    const shown = await page.locator('[data-testid^="brand-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));
    assert.deepEqual(shown, [`brand-${BRANDS.acme}`]);
    await assertAccessible(page, 'brands with filters');
    await page.getByLabel('Brand id').fill(BRANDS.globex);
    await page.getByRole('button', { name: 'Ask for approval' }).click();
    await page.getByText('Asked: the brand will answer').waitFor();
    await page.getByLabel('Brand id').fill(BRANDS.unknown);
    await page.getByRole('button', { name: 'Ask for approval' }).click();
    await page.getByRole('alert').filter({ hasText: 'no longer exists or is not yours to see' }).waitFor();
  } finally {
    await context.close();
  }
});

test('orders filtered by commission status, with totals per status, downloaded as CSV', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'ana@aff1.example');
    await nav(page, 'Orders');
    await page.getByTestId('order-brand-o-aff1-1').waitFor();
    // The world's approved order and the one approved in the first test, added up in BRL.
    const approved = await portal.database.db.selectFrom('orders').select('commission').where('affiliate_id', '=', 'aff-1').where('commission_status', '=', 'approved').execute();
    const cents = approved.reduce((sum, o) => sum + o.commission, 0);
    assert.equal(approved.length, 2);
    assert.ok((await page.getByTestId('totals-BRL').textContent())!.includes(`R$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`));
    await page.getByLabel('Commission status').selectOption({ label: 'Approved' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('order-brand-o-aff1-1').waitFor({ state: 'detached' });
    const shown = await page.locator('[data-testid^="order-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));
    assert.deepEqual(shown.sort(), ['order-brand-o-aff1-2', 'order-portal-order-1']);
    await assertAccessible(page, 'orders');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'orders.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    assert.match(lines[0]!, /^Order,Brand,Date,Status,/, 'a person downloads the columns in words');
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]).sort(), ['brand-o-aff1-2', 'portal-order-1'], 'the CSV has the filtered orders');
  } finally {
    await context.close();
  }
});

test('a brand corrects a pending order (an item returned), sees the change in its history, and approves it', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@acme.example');
    await nav(page, 'Conversions');
    await page.getByRole('link', { name: 'brand-o-aff1-1' }).click();
    await page.getByRole('heading', { name: 'Order brand-o-aff1-1' }).waitFor();
    assert.match((await page.getByTestId('conversion-value').textContent())!, /^R\$100\.00$/);
    await page.getByLabel('Quantity of Sneakers').fill('1');
    await page.getByRole('button', { name: 'Save correction' }).click();
    await page.getByTestId('conversion-value').filter({ hasText: 'R$50.00' }).waitFor();
    // In the order's history and in its commission's explanation.
    const change = page.getByRole('cell', { name: 'Value: R$100.00 → R$50.00' });
    await change.first().waitFor();
    await page.getByTestId('explanation-changes').getByRole('cell', { name: 'Value: R$100.00 → R$50.00' }).waitFor();
    assert.equal(await change.count(), 2);
    await assertAccessible(page, 'conversion detail');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByTestId('conversion-status').filter({ hasText: 'Approved' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save correction' }).count(), 0, 'an approved order is no longer corrected');
    const stored = await portal.database.db.selectFrom('orders').select(['value', 'status']).where('order_id', '=', 'brand-o-aff1-1').where('affiliate_id', '=', 'aff-1').executeTakeFirstOrThrow();
    assert.deepEqual(stored, { value: 5000, status: 'approved' });
  } finally {
    await context.close();
  }
});

test('a private brand approves the affiliate asking, and withdraws an approval: that affiliate no longer sees it', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@globex.example');
    await nav(page, 'Affiliates');
    await page.getByTestId('affiliate-aff-1').getByText('Approved').waitFor();
    await page.getByLabel('Only those asking for approval').check();
    await page.getByTestId('affiliate-aff-1').waitFor({ state: 'detached' });
    await page.getByTestId('affiliate-aff-2').getByText('Asking').waitFor();
    await assertAccessible(page, 'affiliates');
    await page.getByRole('button', { name: 'Approve Affiliate Two' }).click();
    await page.getByTestId('affiliate-aff-2').waitFor({ state: 'detached' });
    await page.getByLabel('Only those asking for approval').uncheck();
    await page.getByTestId('affiliate-aff-2').getByText('Approved').waitFor();
    assert.equal((await fetch(`${portal.server.url}/affiliate/brands/${BRANDS.globex}`, { headers: { 'x-api-key': aff1Key } })).status, 200);
    await page.getByRole('button', { name: 'Withdraw the approval of Affiliate One' }).click();
    await page.getByRole('button', { name: 'Withdraw the approval of Affiliate One' }).waitFor({ state: 'detached' });
    assert.equal((await fetch(`${portal.server.url}/affiliate/brands/${BRANDS.globex}`, { headers: { 'x-api-key': aff1Key } })).status, 404, 'aff-1 no longer sees the brand');
  } finally {
    await context.close();
  }
});

/** Waits until the server has added every stored click to the analytics rollups (it does so in the background). */
async function clicksRolledUp(): Promise<void> {
  const clicks = openRepositories(portal.database).clicks;
  assert.equal(await pollUntil(() => clicks.notYetSummed(), (n) => n === 0, { timeoutMs: 30_000, everyMs: 100 }), 0, 'the clicks were not rolled up within 30 s');
}

test('analytics: clicks over 30 days add up to the same total by channel; orders by brand', async () => {
  // The total and the breakdown are two reads: both must see every click.
  await clicksRolledUp();
  const { context, page } = await newPage();
  try {
    await signIn(page, 'ana@aff1.example');
    await nav(page, 'Analytics');
    await page.getByRole('img', { name: 'Clicks over time' }).waitFor();
    await assertAccessible(page, 'analytics');
    const table = page.getByTestId('analytics-table');
    // The server stores clicks in batches: a click of an earlier test stored between the two reads
    // counts in the second only. Both are read again (a reload) until they agree, five times at most.
    let total = 0;
    let byChannel = -1;
    for (let read = 0; read < 5 && byChannel !== total; read++) {
      if (read > 0) await page.reload();
      total = Number((await page.getByTestId('analytics-total').textContent())!.replace(/,/g, ''));
      await page.getByLabel('Break down by').selectOption({ label: 'Channel' });
      await table.waitFor();
      byChannel = (await table.locator('tbody tr td:first-of-type').allTextContents()).reduce((sum, n) => sum + Number(n.replace(/,/g, '')), 0);
    }
    assert.ok(total >= 1, 'the click of the first test counts');
    assert.equal(byChannel, total);
    await page.getByLabel('Figure').selectOption({ label: 'Orders' });
    await page.getByLabel('Break down by').selectOption({ label: 'Brand' });
    await table.getByRole('rowheader', { name: 'Acme' }).waitFor();
    assert.match((await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!, /^\/affiliate\/analytics\/export\?event=orders&interval=30d&groupBy=brands&timezone=/);
  } finally {
    await context.close();
  }
});

test('the network pays the approved commissions: the affiliate sees the payout and its orders', async () => {
  // What the operator does: February's statement bills the world's approved o-aff1-2, Acme pays it,
  // a payout run pays aff-1 (its payout details saved by its owner, their hold over).
  const services = servicesFor(portal.database, undefined, { payeeKey: TEST_PAYEE_KEY });
  const owner = await portal.database.db.selectFrom('users').select('id').where('email', '=', 'ana@aff1.example').executeTakeFirstOrThrow();
  await services.payees.save({ affiliateId: 'aff-1', userId: owner.id, sessionToken: '' }, { ...PIX_CPF, password: PASSWORD } as never);
  await releasePayeeHold(portal.database, 'aff-1');
  await payMonth(services, '2026-02', 'aff-1');
  const paid = await portal.database.db.selectFrom('orders').select(['order_id', 'commission', 'payout_id']).where('affiliate_id', '=', 'aff-1').where('commission_status', '=', 'paid').execute();
  assert.ok(paid.length > 0);
  const payoutId = paid[0]!.payout_id!;
  const { context, page } = await newPage();
  try {
    await signIn(page, 'ana@aff1.example');
    await nav(page, 'Payouts');
    const row = page.getByTestId(`payout-${payoutId}`);
    const cents = paid.reduce((sum, o) => sum + o.commission, 0);
    assert.ok((await row.textContent())!.includes(`R$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`), 'the total in money');
    await assertAccessible(page, 'payouts');
    await row.getByRole('link', { name: /Orders of the payout of/ }).click();
    await page.getByText(`Orders paid in payout ${payoutId}.`).waitFor();
    await page.getByTestId(`order-${paid[0]!.order_id}`).waitFor();
    const shown = await page.locator('[data-testid^="order-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice('order-'.length)));
    assert.deepEqual(shown.sort(), paid.map((o) => o.order_id).sort());
  } finally {
    await context.close();
  }
});

test('an affiliate adds a webhook (secret shown once), sees an order delivered, sends it again, pauses and deletes the endpoint', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    await nav(page, 'Webhooks');
    const url = `${receiver.url}/hooks/orders`;
    await page.getByLabel('Address').fill(url);
    await page.getByLabel('Note').fill('shop sync');
    // Every event the API sends to an affiliate is offered, the newest ones too.
    await page.getByRole('checkbox', { name: 'program.terms_changed' }).waitFor();
    await page.getByRole('checkbox', { name: 'order.created' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    assert.match((await page.getByTestId('webhook-secret').textContent())!, /^whsec_/);
    await assertAccessible(page, 'webhooks');
    // A second endpoint where nothing listens: its failed delivery is told in words, not the error's text.
    const nowhere = 'http://127.0.0.1:1/hooks';
    await page.getByLabel('Address').fill(nowhere);
    await page.getByRole('checkbox', { name: 'order.created' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByTestId(`webhook-${nowhere}`).waitFor();

    // An order of aff-2: a link, a click, the brand's report.
    const made = await (await fetch(`${portal.server.url}/affiliate/shortener/url`, { method: 'POST', headers: { 'x-api-key': aff2Key, 'content-type': 'application/json' }, body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }) })).json() as Array<{ shortUrls: string[] }>;
    const visit = await context.request.get(made.flatMap((c) => c.shortUrls)[0]!, { maxRedirects: 0, headers: { 'user-agent': BROWSER_UA } });
    const clickId = new URL(visit.headers().location!).searchParams.get('clickId')!;
    const reported = await fetch(`${portal.server.url}/advertiser/conversions`, {
      method: 'POST',
      headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
      body: JSON.stringify({ clickId, orderId: 'hooked-1', value: 2_000, items: [{ id: 'sku-9', name: 'Cap', quantity: 1, price: 2_000, categories: 1 }] }),
    });
    assert.equal(reported.status, 201, await reported.text());
    await waitUntil(() => receiver.received.length === 1);
    assert.equal(receiver.received[0]!.type, 'order.created');
    await page.getByRole('button', { name: `Deliveries to ${nowhere}` }).click();
    await page.getByTestId('deliveries').getByText('Your receiver could not be reached.').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${nowhere}` }).click();
    await page.getByTestId(`webhook-${nowhere}`).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Deliveries to ${url}` }).click();
    const log = page.getByTestId('deliveries');
    await log.getByText('Delivered').waitFor();
    await log.getByRole('button', { name: 'Send again' }).first().click();
    await page.getByText('Queued: it is sent again within seconds.').waitFor();
    await waitUntil(() => receiver.received.length === 2);
    assert.equal(receiver.received[1]!.id, receiver.received[0]!.id, 'the same event, sent again');

    await page.getByRole('button', { name: `Pause ${url}` }).click();
    await page.getByTestId(`webhook-${url}`).getByText('Paused').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${url}` }).click();
    await page.getByTestId(`webhook-${url}`).waitFor({ state: 'detached' });
  } finally {
    await context.close();
  }
});

test("a brand changes its commission rule on its profile: a raise at once, a lowering after its notice; a wrong percentage is refused with a message", async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@acme.example');
    await nav(page, 'Profile');
    await page.getByRole('heading', { name: 'Acme' }).waitFor();
    await assertAccessible(page, 'brand profile');
    await page.getByLabel('Percentage', { exact: true }).fill('7.555');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'two decimals at most' }).waitFor();
    await page.getByLabel('Percentage', { exact: true }).fill('8.25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. Redirects follow within a second.').waitFor();
    assert.equal(await page.getByTestId('profile-commission').textContent(), '8.25 % of each sale');
    const stored = await portal.database.db.selectFrom('brands').select(['commission_transfer', 'commission_value']).where('id', '=', BRANDS.acme).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { commission_transfer: 'cps', commission_value: 825 });
    // Lower: it waits for the brand's notice, shown beside the rule in force.
    await page.getByLabel('Percentage', { exact: true }).fill('6');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('profile-upcoming-commission').filter({ hasText: '6 % of each sale from' }).waitFor();
    assert.equal(await page.getByTestId('profile-commission').textContent(), '8.25 % of each sale');
  } finally {
    await context.close();
  }
});

test('a brand uploads products as NDJSON: each line added, replaced or refused with its reason; the list shows them', async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@acme.example');
    await nav(page, 'Catalogue');
    await page.getByTestId('product-p-acme-1').waitFor();
    const product = (id: string, name: string, price: number) => {
      const { organizationId: _o, ...rest } = productInput(id, BRANDS.acme, name, price);
      return JSON.stringify(rest);
    };
    const file = [product('up-1', 'Uploaded boots', 15_990), product('p-acme-1', 'Red running sneakers v2', 5_500), '{"id": "broken"', ''].join('\n');
    await page.getByLabel('Products file (NDJSON)').setInputFiles({ name: 'products.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Upload' }).click();
    assert.equal(await page.getByTestId('upload-summary').textContent(), '3 lines read: 1 added, 1 replaced, 1 refused.');
    assert.match((await page.getByTestId('rejected-3').textContent())!, /^3/);
    await page.getByTestId('product-up-1').getByText('Uploaded boots').waitFor();
    assert.match((await page.getByTestId('product-p-acme-1').textContent())!, /Red running sneakers v2.*R\$55\.00/);
    await assertAccessible(page, 'catalogue');
  } finally {
    await context.close();
  }
});

test("a brand's catalogue leads to its campaigns, running, scheduled and expired, with their codes", async () => {
  const { context, page } = await newPage();
  try {
    await signIn(page, 'owner@acme.example');
    await nav(page, 'Catalogue');
    await page.getByRole('link', { name: 'Your campaigns, offers and coupons, are on the Campaigns page.' }).click();
    await page.getByRole('heading', { name: 'Campaigns', exact: true }).waitFor();
    await page.getByTestId('campaign-c-acme-coupon').waitFor();
    const row = async (id: string) => (await page.getByTestId(`campaign-${id}`).textContent())!;
    assert.match(await row('c-acme-coupon'), /Coupon\s*Running/);
    assert.match(await row('c-acme-scheduled'), /Coupon\s*Scheduled/);
    assert.match(await row('c-acme-expired'), /Coupon\s*Expired/);
    assert.match(await row('c-acme-offer-url'), /Offer\s*Running/);
    assert.equal(await page.getByTestId('campaign-c-globex-coupon').count(), 0, "another brand's campaign is not listed");
    await page.getByRole('navigation', { name: /^Campaigns: Page 1 of 1$/ }).waitFor();
    await assertAccessible(page, 'campaigns');
  } finally {
    await context.close();
  }
});

test('my links come a page at a time: the newest first, the older ones on the next pages', async () => {
  const codes: string[] = [];
  for (let i = 1; i <= 27; i++) {
    const made = await fetch(`${portal.server.url}/affiliate/shortener/url`, {
      method: 'POST',
      headers: { 'x-api-key': aff2Key, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Custom', url: `https://www.acme.com/paged/${i}` }),
    });
    assert.equal(made.status, 200, await made.clone().text());
    codes.push(new URL(((await made.json()) as Array<{ shortUrls: string[] }>)[0]!.shortUrls[0]!).pathname.slice(1));
  }
  const stored = await portal.database.db.selectFrom('short_links').select((eb) => eb.fn.countAll<number>().as('n')).where('affiliate_id', '=', 'aff-2').where('link_type', '=', 'Custom').executeTakeFirstOrThrow();
  const total = Number(stored.n);
  const pages = Math.ceil(total / 25);
  assert.ok(pages >= 2);
  const { context, page } = await newPage();
  try {
    await signIn(page, 'someone@aff2.example');
    await nav(page, 'Links');
    await page.getByLabel('Show links to').selectOption({ label: "A page of the brand's site" });
    await page.getByText(`${total} links`).waitFor();
    const pager = page.getByRole('navigation', { name: `My links: Page 1 of ${pages}` });
    await page.getByTestId(`clicks-${codes.at(-1)!}`).waitFor();
    assert.equal(await page.getByTestId(`clicks-${codes[0]!}`).count(), 0, 'the oldest link is not on the first page');
    assert.equal(await page.locator('[data-testid^="clicks-"]').count(), 25);
    await assertAccessible(page, 'my links, paged');
    for (let at = 2; at <= pages; at++) {
      await page.getByRole('navigation', { name: /^My links: Page/ }).getByRole('button', { name: 'Next' }).click();
      await page.getByRole('navigation', { name: `My links: Page ${at} of ${pages}` }).waitFor();
    }
    await page.getByTestId(`clicks-${codes[0]!}`).waitFor();
    assert.equal(await page.getByTestId(`clicks-${codes.at(-1)!}`).count(), 0);
    assert.equal(await page.locator('[data-testid^="clicks-"]').count(), total - 25 * (pages - 1));
    assert.equal(await pager.count(), 0);
    // Another kind starts again at its first page, and so does coming back.
    await page.getByLabel('Show links to').selectOption({ label: 'Home page' });
    await page.getByLabel('Show links to').selectOption({ label: "A page of the brand's site" });
    await pager.waitFor();
    await page.getByTestId(`clicks-${codes.at(-1)!}`).waitFor();
  } finally {
    await context.close();
  }
});

test('forgot the password: the link arrives by e-mail and sets a new one; the page answers an unknown address the same', async () => {
  await servicesFor(portal.database).users.createWithPassword({ affiliateId: 'aff-1' }, 'forgetful@aff1.example', 'member', PASSWORD);
  const { context, page } = await newPage();
  try {
    await page.goto('/app/');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill('nobody@nowhere.example');
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    const unknown = (await page.getByRole('status').textContent())!;
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill('forgetful@aff1.example');
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    const known = (await page.getByRole('status').textContent())!;
    assert.equal(known.replace('forgetful@aff1.example', 'X'), unknown.replace('nobody@nowhere.example', 'X'), 'the same words either way');
    await assertAccessible(page, 'forgot password, sent');

    const mail = await pollUntil(
      async () => mailbox.received.find((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === 'forgetful@aff1.example'),
      (found) => found !== undefined,
    );
    assert.ok(!mailbox.received.some((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === 'nobody@nowhere.example'), 'nothing goes to an unknown address');
    await page.goto(setPasswordLink(mail!).slice(portal.server.url.length));
    await page.getByLabel('Password').fill('my new long password');
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await signOut(page);
    await signIn(page, 'forgetful@aff1.example', 'my new long password');
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
  } finally {
    await context.close();
  }
});

test('keyboard only: sign in and reach a page with Tab and Enter, focus always visible', async () => {
  const { context, page } = await newPage();
  try {
    await page.goto('/app/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'email');
    await page.keyboard.type('someone@aff2.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    // Tab to the menu's Orders link, checking that every stop shows where the focus is.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        return { text: element.textContent, outline: getComputedStyle(element).outlineStyle };
      });
      assert.notEqual(focused.outline, 'none', `focus on "${focused.text}" is not visible`);
      if (focused.text === 'Orders') break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
  } finally {
    await context.close();
  }
});

test('no page threw an uncaught error along the way', () => {
  assert.deepEqual(pageErrors, []);
});

test('the security page lists where one is signed in; sign out one session, then every other; the browsers signed out are refused', async () => {
  await servicesFor(portal.database).users.createWithPassword({ affiliateId: 'aff-2' }, 'three.browsers@aff2.example', 'member', PASSWORD);
  const browsers = [await newPage(), await newPage(), await newPage()];
  try {
    for (const { page } of browsers) {
      await signIn(page, 'three.browsers@aff2.example');
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    }
    const [first, second, here] = browsers.map((b) => b.page) as [Page, Page, Page];
    await nav(here, 'Security');
    await here.getByRole('heading', { name: 'Sessions' }).waitFor();
    const rows = here.getByRole('table').getByRole('row');
    await pollUntil(() => rows.count(), (n) => n === 4);
    assert.equal(await here.getByText('This device', { exact: true }).count(), 1);
    await assertAccessible(here, 'security');
    await here.getByRole('button', { name: /^Sign out Chrome on Linux/ }).first().click();
    await pollUntil(() => rows.count(), (n) => n === 3);
    await here.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await here.getByRole('status').filter({ hasText: 'Other sessions signed out: 1.' }).waitFor();
    await here.getByText('You are signed in on this device only.').waitFor();
    assert.equal(await rows.count(), 2);
    for (const page of [first, second]) {
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    }
  } finally {
    for (const { context } of browsers) await context.close();
  }
});

interface Receiver {
  url: string;
  /** What each POST carried: the event's id (webhook-id header) and type. */
  received: Array<{ id: string; type: string }>;
  close(): Promise<void>;
}

/** A webhook receiver on a local port that answers 204 to everything. */
async function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const http = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), type: (JSON.parse(body) as { type: string }).type });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

/** Waits up to 30 s (a busy machine) for something the service does in the background. */
async function waitUntil(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, 'gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
