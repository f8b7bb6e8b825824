/// <reference lib="dom" />
// The money pages of the operator's console, in headless Chromium against a real server: February's
// statements issued and Acme's payment recorded; a dry run saying why an affiliate waits; an
// adjustment made with the app's code; the ledger balancing, with its trial balance; each page fits a
// phone's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servicesFor } from '../helpers/databases.js';
import { assertAccessible } from '../helpers/browser.js';
import { assertFits, enrolApp, nav, signInWithApp } from '../helpers/operator-browser.js';
import { freshCode } from '../helpers/totp-codes.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OPERATOR = 'money@network.example';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    await servicesFor(database).users.createOperatorWithPassword(OPERATOR, PASSWORD);
  },
});

test('an operator issues statements, records a payment, runs a dry run, adjusts what an affiliate is owed and checks the ledger', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    const secret = await enrolApp(page, OPERATOR, PASSWORD);
    await signInWithApp(page, OPERATOR, PASSWORD, secret);

    // February's statements: Acme bills the world's order that locked then; paid in full.
    await nav(page, 'Statements');
    await page.getByRole('heading', { name: 'Brands’ statements' }).waitFor();
    await page.getByLabel('Month').fill('2026-02');
    await page.getByRole('button', { name: 'Issue statements' }).click();
    await page.getByText('1 statement(s) issued.').waitFor();
    const acme = page.getByTestId('statement-Acme-2026-02-BRL');
    const left = (await acme.getByText(/Amount received \(.+ left\)/).textContent())!.match(/\((.+) left\)/)![1]!;
    await acme.getByLabel(/Amount received/).fill(left.replace(/[^\d.,]/g, ''));
    await acme.getByLabel('Reference').fill('PIX E2E 1');
    await assertAccessible(page, 'operator statements');
    await page.screenshot({ path: '/tmp/operator-statements-1280.png', fullPage: true });
    await acme.getByRole('button', { name: 'Record payment' }).click();
    await acme.waitFor({ state: 'detached' });
    await page.getByLabel('Show').selectOption({ label: 'Paid' });
    await page.getByTestId('statement-Acme-2026-02-BRL').getByText('Paid').first().waitFor();

    // A dry run: aff-1's commission is payable now, but below the minimum of a payout.
    await nav(page, 'Payouts');
    await page.getByRole('heading', { name: 'Payouts', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText('Dry run: nothing was paid.').waitFor();
    await page.locator('tr', { hasText: 'aff-1' }).getByText(/Waits: below the minimum: 7\.50 BRL of 50\.00 BRL/).waitFor();

    // An adjustment, confirmed with a code of the app.
    await page.getByLabel('Affiliate id').last().fill('aff-2');
    await page.getByLabel('Amount', { exact: true }).fill('25.00');
    await page.getByLabel('Reason (the affiliate reads it)').fill('Black Friday bonus');
    await page.locator('#adjust-code').fill(await freshCode(secret));
    await assertAccessible(page, 'operator payouts');
    await page.screenshot({ path: '/tmp/operator-payouts-1280.png', fullPage: true });
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByText(/aff-2 · R\$25\.00 · Black Friday bonus/).waitFor();

    await nav(page, 'Ledger');
    await page.getByText('The ledger balances and agrees with the orders, statements, payouts and adjustments.').waitFor();
    await page.getByRole('table', { name: /^BRL, / }).getByText('network:adjustments').waitFor();
    await assertAccessible(page, 'operator ledger');
    await page.screenshot({ path: '/tmp/operator-ledger-1280.png', fullPage: true });

    // Each money step is in the audit trail.
    await nav(page, 'Audit trail');
    await page.getByLabel('Action').fill('statement.');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('tr', { hasText: 'statement.payment_recorded' }).first().waitFor();
    await page.getByLabel('Action').fill('adjustment.');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('tr', { hasText: 'adjustment.created' }).getByText('Black Friday bonus').waitFor();

    await page.setViewportSize({ width: 375, height: 800 });
    for (const [name, heading, shot] of [
      ['Statements', 'Brands’ statements', 'statements'],
      ['Payouts', 'Payouts', 'payouts'],
      ['Ledger', 'Ledger', 'ledger'],
    ] as const) {
      await page.getByRole('button', { name: 'Menu' }).click();
      await nav(page, name);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await assertFits(page, `the ${shot} page at 375 px`);
      await page.screenshot({ path: `/tmp/operator-${shot}-375.png`, fullPage: true });
      await page.setViewportSize({ width: 320, height: 800 });
      await assertFits(page, `the ${shot} page at 320 px`);
      await page.setViewportSize({ width: 375, height: 800 });
    }
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});
