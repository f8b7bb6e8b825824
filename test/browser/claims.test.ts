/// <reference lib="dom" />
// Money in the portal, in headless Chromium against a real server: an affiliate claims a sale its
// link brought that the brand's tracking missed; the brand finds it on its Claims page and accepts
// it at the actual value; the affiliate sees it accepted and the order among its orders. Then the
// affiliate enters its PIX details, the sale is billed on the brand's statement, which the brand
// sees paid, and the payout reaches the affiliate: settled on its Payouts page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { TEST_PAYEE_KEY } from '../helpers/harness.js';
import { lockedIn, releasePayeeHold } from '../helpers/money.js';
import { previousMonth } from '../../src/domain/time.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
  },
  env: { PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY },
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
    await page.getByText('Order value: type an amount such as 129.90.').waitFor();
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
    await page.getByRole('alert').filter({ hasText: 'already claimed and waits for the brand’s answer' }).waitFor();
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

test('the claimed sale goes all the way: PIX details entered, the statement billing it paid, the payout settled', { timeout: 180_000 }, async () => {
  const orderId = 'MISSED-1001';
  const affiliate = await signedIn('owner@aff1.example');
  try {
    const { page } = affiliate;
    await nav(page, 'Payout details');
    await page.getByLabel('Legal name of the account holder').fill('Ana Lima');
    await page.getByLabel('Country (2 letters, e.g. BR)').fill('BR');
    await page.getByLabel('Tax id').fill('529.982.247-25');
    await page.getByLabel('PIX key type').selectOption('cpf');
    await page.getByLabel('PIX key', { exact: true }).fill('529.982.247-25');
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save payout details' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  } finally {
    await affiliate.close();
  }

  // What the days and the operator do: the order locks last month (the network approves it), the
  // month's statement bills it; the hold after saving payout details is over.
  const services = servicesFor(portal.database, undefined, { payeeKey: TEST_PAYEE_KEY });
  const lastMonth = previousMonth(new Date().toISOString());
  const order = await portal.database.db.selectFrom('orders').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow();
  await lockedIn(portal.database, [order.id], lastMonth);
  await services.locks.approveLocked();
  const [statement] = await services.statements.issue(lastMonth);
  assert.ok(statement);

  const brand = await signedIn('owner@acme.example');
  try {
    const { page } = brand;
    await nav(page, 'Statements');
    const row = page.getByTestId(`statement-${lastMonth}-BRL`);
    await row.getByText('Open').waitFor();
    await services.statements.recordPayment(statement.id, statement.total, 'PIX-E2E-1', CLI);
    await page.reload();
    await page.getByTestId(`statement-${lastMonth}-BRL`).getByText('Paid').waitFor();
    await assertAccessible(page, "the brand's statements, one paid");
  } finally {
    await brand.close();
  }

  await releasePayeeHold(portal.database, 'aff-1');
  const run = await services.payoutRuns.run({ affiliateId: 'aff-1', actor: CLI });
  const payout = run.lines.find((line) => line.payout)?.payout;
  assert.ok(payout && run.batchId, JSON.stringify(run.lines));
  await services.payoutRuns.export(run.batchId, CLI);
  await services.payoutRuns.settle(run.batchId, [{ payoutId: payout.id, status: 'settled' }], CLI);

  const paid = await signedIn('owner@aff1.example');
  try {
    const { page } = paid;
    await nav(page, 'Payouts');
    const row = page.getByTestId(`payout-${payout.id}`);
    await row.getByText('Settled').waitFor();
    assert.match((await row.textContent()) ?? '', /PIX cpf \*\*\*\.982\.247-\*\*/);
    await assertAccessible(page, 'payouts, one settled');
  } finally {
    await paid.close();
  }
  assert.deepEqual(await services.ledger.check(), []);
  assert.deepEqual(pageErrors, []);
});
