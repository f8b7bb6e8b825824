/// <reference lib="dom" />
// "View as" in headless Chromium against a real server: an operator opens an affiliate's portal
// from its page in the console, read-only, saying why; every page carries the banner, a change is
// refused with the service's words, a download works; the affiliate's owner sees the network's
// view in their session list and ends it, which sends the operator back to the console; a brand
// viewed on a phone's screen, ended from the banner, leads back to the brand's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';
import { freshCode } from '../helpers/totp-codes.js';

const PASSWORD = 'a long enough password';
const OPERATOR = 'support@network.example';
const OWNER = 'owner@affiliate-one.example';
let operatorToken = '';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const { users, secondFactors } = servicesFor(database);
    // An operator who has set up an authenticator app, signed in (the sign-in itself is operator-console.test.ts's).
    const operator = (await users.createOperatorWithPassword(OPERATOR, PASSWORD))!;
    operatorToken = (await users.signIn(OPERATOR, PASSWORD))!.sessionToken;
    const who = { userId: operator.id, email: operator.email, sessionToken: operatorToken };
    const { secret } = await secondFactors.startTotp(who);
    await secondFactors.confirmTotp(who, await freshCode(secret));
    await users.createWithPassword({ affiliateId: 'aff-1' }, OWNER, 'owner', PASSWORD);
  },
});

async function operatorContext(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width, height: 800 } });
  await context.addCookies([{ name: 'affnet_session', value: operatorToken, url: portal.server.url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page };
}

const nav = (page: Page, name: string) => followMenu(page, name);
const banner = (page: Page) => page.getByRole('status').filter({ hasText: 'read-only' });

async function assertFits(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${what} scrolls sideways by ${overflow} px`);
}

test('an operator views an affiliate’s portal read-only; its owner sees it in their session list and ends it', async () => {
  const { context, page } = await operatorContext(1280);
  const member = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 375, height: 800 } });
  const memberPage = await member.newPage();
  memberPage.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await page.goto('/app/operator/affiliates/aff-1');
    await page.getByRole('heading', { name: 'Affiliate One' }).waitFor();
    const section = page.getByRole('region', { name: 'View as this member' });
    await section.getByRole('button', { name: 'View as' }).click();
    await section.getByText('Say why you view as the member.').waitFor();
    await section.getByLabel('Reason (the member’s people read it)').fill('Ticket 4512: no payouts on the orders page');
    await page.screenshot({ path: '/tmp/view-as-member-page-1280.png', fullPage: true });
    await section.getByRole('button', { name: 'View as' }).click();

    // The affiliate's overview, as its owner sees it, under the banner.
    await banner(page).getByText('Viewing as Affiliate One, read-only').waitFor();
    assert.match(page.url(), /\/app\/$/);
    await nav(page, 'Channels');
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await page.getByRole('cell', { name: '@aff1' }).waitFor();
    await banner(page).waitFor();
    await assertAccessible(page, 'a viewed affiliate’s channels');
    // A change is refused, in the service's words; nothing is added.
    await page.getByRole('textbox', { name: 'Name' }).fill('@sneaky');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('alert').getByText(/viewing as this member, read-only/).waitFor();
    await page.screenshot({ path: '/tmp/view-as-refused-1280.png', fullPage: true });
    assert.equal(await page.getByRole('cell', { name: '@sneaky' }).count(), 0);
    await nav(page, 'Orders');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await banner(page).waitFor();
    const download = await page.request.get('/affiliate/orders.csv');
    assert.equal(download.status(), 200, 'a download is a read');
    await page.screenshot({ path: '/tmp/view-as-orders-1280.png', fullPage: true });

    // The affiliate's owner, signed in on a phone, sees the network's view and ends it.
    await memberPage.goto('/app/');
    await memberPage.getByLabel('E-mail').fill(OWNER);
    await memberPage.getByLabel('Password').fill(PASSWORD);
    await memberPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await memberPage.getByRole('button', { name: 'Menu' }).click();
    await nav(memberPage, 'Security');
    const view = memberPage.getByRole('row').filter({ hasText: 'The network’s support, read-only' });
    await view.getByText('Why: Ticket 4512: no payouts on the orders page').waitFor();
    assert.equal(await memberPage.getByText(OPERATOR).count(), 0, 'never who');
    await assertFits(memberPage, 'the session list with the network’s view');
    await assertAccessible(memberPage, 'the session list with the network’s view');
    await memberPage.screenshot({ path: '/tmp/view-as-member-sessions-375.png', fullPage: true });
    await view.getByRole('button', { name: /End the network’s view/ }).click();
    await view.waitFor({ state: 'detached' });

    // The operator's next page finds the view ended: back in their console, no banner.
    await nav(page, 'Claims');
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    assert.equal(await banner(page).count(), 0);
  } finally {
    await context.close();
    await member.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('on a phone: a brand viewed read-only, the banner fits, End leads back to the brand’s page', async () => {
  const { context, page } = await operatorContext(375);
  try {
    await page.goto(`/app/operator/brands/${BRANDS.acme}`);
    const section = page.getByRole('region', { name: 'View as this member' });
    await section.getByLabel('Reason (the member’s people read it)').fill('Checking the conversions list');
    await section.getByRole('button', { name: 'View as' }).click();
    await banner(page).getByText(/Viewing as .*, read-only/).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav(page, 'Conversions');
    await page.getByRole('heading', { name: 'Conversions' }).waitFor();
    await banner(page).waitFor();
    await assertFits(page, 'a viewed brand’s conversions');
    await assertAccessible(page, 'a viewed brand’s conversions');
    await page.screenshot({ path: '/tmp/view-as-brand-375.png', fullPage: true });
    await banner(page).getByRole('button', { name: 'End' }).click();
    await page.getByRole('region', { name: 'View as this member' }).waitFor();
    assert.match(page.url(), new RegExp(`/app/operator/brands/${BRANDS.acme}$`));
    assert.equal(await banner(page).count(), 0);
    await assertFits(page, 'the brand’s page in the console');
    await page.screenshot({ path: '/tmp/view-as-brand-page-375.png', fullPage: true });
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});
