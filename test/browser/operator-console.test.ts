/// <reference lib="dom" />
// The operator's console, in headless Chromium against a real server: an operator signs in, is
// sent to set up a second factor before anything else, signs in again with the app's code,
// approves one application and declines another with a reason, releases one held conversion and
// declines another, suspends an affiliate (whose link then redirects without counting), finds
// each step in the audit trail; the console fits a phone's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { pollUntil } from '../helpers/wait.js';
import { assertFits, enrolApp, nav, signInWithApp } from '../helpers/operator-browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OPERATOR = 'ops@network.example';
const BRAND_PERSON = 'ana@acme.example';
/** The session of Acme's person. */
let brandSession = '';

/** Acme's person approves an order in a session of their own, through the running server. */
async function approveAsBrandPerson(orderId: string): Promise<void> {
  const cookie = `affnet_session=${brandSession}`;
  const { data } = (await (await fetch(`${portal.server.url}/session`, { headers: { cookie } })).json()) as { data: { csrfToken: string } };
  const res = await fetch(`${portal.server.url}/advertiser/conversions/${orderId}`, {
    method: 'PATCH',
    headers: { cookie, 'x-csrf-token': data.csrfToken, origin: portal.server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'approved' }),
  });
  assert.equal(res.status, 200, await res.text());
}
let link: URL;
const pageErrors: string[] = [];

/** An affiliate's sign-up with its address confirmed: waiting for the operator. */
async function pendingSignUp(name: string, email: string): Promise<void> {
  const { applications } = servicesFor(portal.database);
  await applications.signUp({ name, email, password: PASSWORD, country: 'BR', language: 'en', website: `https://${email.split('@')[1]}`, acceptTerms: true }, '198.51.100.7');
  const id = (await applications.list({ status: 'unverified' })).find((a) => a.email === email)!.id;
  await applications.verify(new URL((await applications.issueVerifyLink(id))!).searchParams.get('token')!);
}

/** The affiliate's link to Acme's home page, through the running server. */
async function acmeLink(affiliateKey: string): Promise<URL> {
  const link = await fetch(`${portal.server.url}/affiliate/shortener/url`, { method: 'POST', headers: { 'x-api-key': affiliateKey, 'content-type': 'application/json' }, body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }) });
  const shortUrl = ((await link.json()) as Array<{ shortUrls: string[] }>).find((c) => c.shortUrls.length > 0)!.shortUrls[0]!;
  return new URL(new URL(shortUrl).pathname, portal.server.url);
}

/** A visit to the link from a browser: where it leads. */
async function visit(link: URL): Promise<URL> {
  const res = await fetch(link, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' } });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!);
}

/** A conversion reported at once after its click through the running server: held (click to order too fast). */
async function heldConversion(affiliateKey: string, brandKey: string, orderId: string): Promise<void> {
  const clickId = (await visit(await acmeLink(affiliateKey))).searchParams.get('clickId')!;
  // The click is stored within moments; until then the conversion is asked to come back.
  for (;;) {
    const res = await fetch(`${portal.server.url}/advertiser/conversions`, { method: 'POST', headers: { 'x-api-key': brandKey, 'content-type': 'application/json' }, body: JSON.stringify({ clickId, orderId, value: 10_000, items: [{ id: 'sku-1', name: 'Item', quantity: 1, price: 10_000, categories: 42 }] }) });
    if (res.status === 201) {
      const { data } = (await res.json()) as { data: { commissionStatus: string } };
      assert.equal(data.commissionStatus, 'held', `${orderId} is held`);
      return;
    }
    assert.ok(res.status === 409 || res.status === 503 || res.status === 425, `${res.status}: ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const portal = portalUnderTest({
  prepare: async (database) => {
    await servicesFor(database).users.createOperatorWithPassword(OPERATOR, PASSWORD);
    await pendingSignUp('Carla Dias', 'carla@carla-blog.example');
    await pendingSignUp('Spam Bot', 'bot@spam-farm.example');
    const { users } = servicesFor(database);
    const person = (await users.createWithPassword({ brandId: BRANDS.acme }, BRAND_PERSON, 'member', PASSWORD))!;
    const row = (await database.db.selectFrom('users').selectAll().where('id', '=', person.id).executeTakeFirst())!;
    brandSession = (await users.openSession(row)).sessionToken;
  },
  env: { FRAUD_MIN_CLICK_TO_ORDER_SECONDS: '10' },
  started: async () => {
    const { access } = servicesFor(portal.database);
    const affiliateKey = (await access.createApiKey({ affiliateId: 'aff-1' })).key;
    const brandKey = (await access.createApiKey({ brandId: BRANDS.acme })).key;
    link = await acmeLink(affiliateKey);
    await heldConversion(affiliateKey, brandKey, 'HELD-RELEASE');
    await heldConversion(affiliateKey, brandKey, 'HELD-DECLINE');
  },
});

test('an operator enrols a second factor first, signs in with it, decides applications and finds the decisions in the audit trail', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    // The password alone reaches only the Security page: an operator sets up a factor first.
    const secret = await enrolApp(page, OPERATOR, PASSWORD);
    await signInWithApp(page, OPERATOR, PASSWORD, secret);
    assert.match(page.url(), /\/app\/operator$/);
    await assertAccessible(page, 'operator applications');

    const carla = page.getByTestId('application-carla@carla-blog.example');
    await carla.getByText('https://carla-blog.example').waitFor();
    await page.screenshot({ path: '/tmp/operator-applications-1280.png', fullPage: true });
    await carla.getByRole('button', { name: 'Approve Carla Dias' }).click();
    await carla.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText('1 application approved: its account is made and the applicant was mailed.').waitFor();

    const bot = page.getByTestId('application-bot@spam-farm.example');
    await bot.getByRole('button', { name: 'Decline Spam Bot' }).click();
    await bot.getByText('Give the reason to decline').waitFor();
    await bot.getByLabel('Reason (the applicant reads it)').fill('The site is a link farm');
    await bot.getByRole('button', { name: 'Decline Spam Bot' }).click();
    await bot.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText('1 application declined: the applicant was mailed your reason.').waitFor();
    assert.equal(await page.getByText('1 application approved').count(), 0, 'a new action replaces what the last one said');
    await page.getByLabel('Show').selectOption({ label: 'Declined' });
    await page.getByTestId('application-bot@spam-farm.example').getByText('The site is a link farm').waitFor();

    await nav(page, 'Audit trail');
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.getByLabel('Kind of action').selectOption({ label: 'Applications' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(`${OPERATOR} approved the application of Carla Dias`).waitFor();
    const declined = page.locator('tr', { hasText: `${OPERATOR} declined the application of Spam Bot` });
    await declined.getByText('Reason: The site is a link farm').waitFor();
    await assertAccessible(page, 'operator audit trail');
    await page.screenshot({ path: '/tmp/operator-audit-1280.png', fullPage: true });

    // The fraud review queue: one released, one declined with the reason.
    await nav(page, 'Fraud holds');
    await page.getByRole('heading', { name: 'Fraud holds' }).waitFor();
    const release = page.getByTestId('held-HELD-RELEASE');
    await release.getByText('Ordered too soon after the click').waitFor();
    await release.getByText(/^Ordered [\d.]+ sec after the click; the rule holds orders placed less than 10 sec after it\.$/).waitFor();
    await assertAccessible(page, 'operator holds');
    await page.screenshot({ path: '/tmp/operator-holds-1280.png', fullPage: true });
    await release.getByRole('button', { name: 'Release HELD-RELEASE' }).click();
    await release.waitFor({ state: 'detached' });
    await page.getByText('1 order released: pending again until its lock date; its affiliate and brand are told.').waitFor();
    const decline = page.getByTestId('held-HELD-DECLINE');
    await decline.getByLabel('Reason (the affiliate reads it)').fill('Orders from the affiliate’s own device');
    await decline.getByRole('button', { name: 'Decline HELD-DECLINE' }).click();
    await decline.waitFor({ state: 'detached' });
    await page.getByText('1 order declined as fraud: the affiliate reads your reason.').waitFor();
    await page.getByText('Nothing is held.').waitFor();
    await nav(page, 'Audit trail');
    await page.getByLabel('Kind of action').selectOption({ label: 'Fraud review' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(`${OPERATOR} released order HELD-RELEASE of Acme from the fraud review`).waitFor();
    await page.locator('tr', { hasText: `${OPERATOR} declined order HELD-DECLINE of Acme as fraud` }).getByText('Reason: Orders from the affiliate’s own device').waitFor();

    // A person of the brand approves the released order: the trail names them, the brand and its order number, with before → after.
    await approveAsBrandPerson('HELD-RELEASE');
    await page.getByLabel('Kind of action').selectOption({ label: 'Brands’ order decisions' });
    await page.getByRole('button', { name: 'Search' }).click();
    const approval = page.locator('tr', { hasText: `${BRAND_PERSON} approved order HELD-RELEASE of Acme` });
    await approval.getByText('Status: Pending → Approved', { exact: true }).waitFor();
    await approval.getByText('Commission status: Pending → Approved', { exact: true }).waitFor();
    assert.equal(await approval.getByRole('link', { name: 'Acme' }).getAttribute('href'), `/app/operator/brands/${BRANDS.acme}`, 'the brand named links to its member page');
    const raw = approval.locator('pre');
    assert.equal(await raw.isVisible(), false, 'the raw entry waits behind its toggle');
    await approval.getByText('Details').click();
    await raw.getByText('"action": "conversion.approved"').waitFor();
    await page.screenshot({ path: '/tmp/operator-audit-sentences-1280.png', fullPage: true });

    // A member, found by name, with its figures, people and channels.
    await nav(page, 'Members');
    await page.getByLabel('Id or name').fill('affiliate one');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Affiliate One' }).click();
    await page.getByRole('heading', { name: 'Affiliate One' }).waitFor();
    await page.getByText('Counted clicks').waitFor();
    await page.getByText('@aff1').waitFor();
    await assertAccessible(page, 'operator member');

    // Suspended with a reason: its link still leads to the brand, but the click counts nothing.
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('Give the reason').waitFor();
    await page.getByLabel('Reason to suspend (its owners are mailed it)').fill('Clicks bought from a click farm');
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('status').getByText(/Suspended since .*: Clicks bought from a click farm/).waitFor();
    await page.getByText('Suspended: its links no longer count clicks, its keys are refused, and its owners were mailed your reason.').waitFor();
    await page.screenshot({ path: '/tmp/operator-member-suspended-1280.png', fullPage: true });
    const landing = await visit(link);
    assert.equal(landing.origin, 'https://www.acme.com', 'a visitor is never stranded');
    const clickId = landing.searchParams.get('clickId')!;
    const stored = await pollUntil(() => portal.database.db.selectFrom('clicks').select(['counted', 'is_suspended']).where('id', '=', clickId).executeTakeFirst(), (c) => c !== undefined);
    assert.deepEqual(stored, { counted: 0, is_suspended: 1 });
    await nav(page, 'Audit trail');
    await page.getByLabel('Kind of action').selectOption({ label: 'Affiliates suspended or reactivated' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('tr', { hasText: `${OPERATOR} suspended the affiliate Affiliate One` }).getByText('Reason: Clicks bought from a click farm').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Affiliate One' }).waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await assertFits(page, 'a member');
    await page.setViewportSize({ width: 320, height: 800 });
    await assertFits(page, 'a member at 320 px');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: '/tmp/operator-member-375.png', fullPage: true });
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav(page, 'Audit trail');
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await assertFits(page, 'the audit trail');
    await page.setViewportSize({ width: 320, height: 800 });
    await assertFits(page, 'the audit trail at 320 px');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: '/tmp/operator-audit-375.png', fullPage: true });
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav(page, 'Applications');
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await assertFits(page, 'the applications');
    await page.setViewportSize({ width: 320, height: 800 });
    await assertFits(page, 'the applications at 320 px');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: '/tmp/operator-applications-375.png', fullPage: true });
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});
