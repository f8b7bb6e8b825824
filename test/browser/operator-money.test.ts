/// <reference lib="dom" />
// The money pages of the operator's console, in headless Chromium against a real server: February's
// statements issued and Acme's payment recorded; a dry run saying why an affiliate waits; an
// adjustment made with the app's code; the ledger balancing, with its trial balance; each page fits a
// phone's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servicesFor } from '../helpers/databases.js';
import { assertAccessible } from '../helpers/browser.js';
import { assertFits, enrolAppKeepingCodes, nav, signInWithApp, signInWithPassword } from '../helpers/operator-browser.js';
import { freshCode } from '../helpers/totp-codes.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OPERATOR = 'money@network.example';
const pageErrors: string[] = [];
/** The operator's app and recovery codes, set up by the first test. */
let enrolled: { secret: string; recoveryCodes: string[] } | undefined;

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
    enrolled = await enrolAppKeepingCodes(page, OPERATOR, PASSWORD);
    const { secret } = enrolled;
    await signInWithApp(page, OPERATOR, PASSWORD, secret);

    // February's statements: Acme bills the world's order that locked then; paid in full. The
    // list's first answer, given before they are issued, reaches the page only after: a list still
    // loading when a change is made must show the change, not what the server had before it.
    let issued = () => {};
    const whenIssued = new Promise<void>((resolve) => (issued = resolve));
    await page.route(
      (url) => url.pathname === '/operator/statements' && url.searchParams.get('status') === 'unpaid',
      async (route) => {
        const response = await route.fetch();
        await whenIssued;
        await route.fulfill({ response });
      },
      { times: 1 },
    );
    await nav(page, 'Statements');
    await page.getByRole('heading', { name: 'Brands’ statements' }).waitFor();
    await page.getByLabel('Month').fill('2026-02');
    await page.getByRole('button', { name: 'Issue statements' }).click();
    await page.getByText('1 statement issued.').waitFor();
    issued();
    const acme = page.getByTestId('statement-Acme-2026-02-BRL');
    const left = (await acme.getByText(/Amount received \(.+ left\)/).textContent())!.match(/\((.+) left\)/)![1]!;
    await acme.getByLabel(/Amount received/).fill(left.replace(/[^\d.,]/g, ''));
    await acme.getByLabel('Reference').fill('PIX E2E 1');
    await assertAccessible(page, 'operator statements');
    await page.screenshot({ path: '/tmp/operator-statements-1280.png', fullPage: true });
    await acme.getByRole('button', { name: 'Record payment' }).click();
    await acme.waitFor({ state: 'detached' });
    await page.getByText(/Payment of .+ recorded on Acme’s statement of February 2026\. It is paid in full\./).waitFor();
    await page.getByLabel('Show').selectOption({ label: 'Paid' });
    await page.getByTestId('statement-Acme-2026-02-BRL').getByText('Paid').first().waitFor();

    // A dry run: aff-1's commission is payable now, but below the minimum of a payout.
    await nav(page, 'Payouts');
    await page.getByRole('heading', { name: 'Payouts', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.locator('tr', { hasText: 'aff-1' }).getByText(/Waits: below the minimum: R\$7\.50 of R\$50\.00/).waitFor();
    await page.getByText(/Dry run: nothing was paid\. A run now would pay nobody\./).waitFor();

    // An adjustment, confirmed with a code of the app.
    await page.getByLabel('Affiliate id').last().fill('aff-2');
    await page.getByLabel('Amount', { exact: true }).fill('25.00');
    await page.getByLabel('Reason (the affiliate reads it)').fill('Black Friday bonus');
    await page.locator('#adjust-code').fill(await freshCode(secret));
    await assertAccessible(page, 'operator payouts');
    await page.screenshot({ path: '/tmp/operator-payouts-1280.png', fullPage: true });
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByText('Adjustment of R$25.00 recorded for aff-2. The affiliate reads the reason, and the next payout run includes it.').waitFor();
    await page.getByText(/aff-2 · R\$25\.00 · Black Friday bonus/).waitFor();

    await nav(page, 'Ledger');
    await page.getByText('The ledger balances and agrees with the orders, statements, payouts and adjustments.').waitFor();
    await page.getByRole('table', { name: /^BRL, / }).getByText('Network: adjustments').waitFor();
    await page.getByRole('table', { name: /^BRL, / }).getByText('Acme: billed, to receive').waitFor();
    await assertAccessible(page, 'operator ledger');
    await page.screenshot({ path: '/tmp/operator-ledger-1280.png', fullPage: true });

    // Each money step is in the audit trail.
    await nav(page, 'Audit trail');
    await page.getByLabel('Kind of action').selectOption({ label: 'Statements' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(`${OPERATOR} recorded a payment on the statement of February 2026 of Acme`).first().waitFor();
    await page.getByLabel('Kind of action').selectOption({ label: 'Adjustments' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('tr', { hasText: `${OPERATOR} adjusted what Affiliate Two is owed` }).getByText('Reason: Black Friday bonus').waitFor();

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

// Signed in with a recovery code, the session has confirmed nothing: a run without a code asks
// for one, runs once it is given, and says the run was real though nothing could be paid.
test('a payout run without a fresh code asks for one, and says it was a run, not a dry run', async () => {
  const { secret, recoveryCodes } = enrolled!;
  const errors: string[] = [];
  const later = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const again = await later.newPage();
  again.on('pageerror', (error) => errors.push(error.message));
  try {
    await signInWithPassword(again, OPERATOR, PASSWORD);
    await again.getByRole('heading', { name: 'Second step' }).waitFor();
    await again.getByRole('button', { name: 'Use a recovery code' }).click();
    await again.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await again.getByRole('button', { name: 'Continue' }).click();
    await again.getByRole('heading', { name: 'Applications' }).waitFor();
    await nav(again, 'Payouts');
    await again.getByRole('button', { name: 'Run payouts' }).click();
    await again.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    assert.equal(await again.getByRole('alert').count(), 0, 'asking for the code is no refusal');
    await again.getByRole('group', { name: 'Confirm it is you' }).getByLabel('Code from the app').fill(await freshCode(secret));
    await again.getByRole('button', { name: 'Confirm' }).click();
    await again.getByText('Run done: nothing could be paid now, so no run was made and nothing was paid.').waitFor();
    await again.getByRole('table', { name: 'What the run did' }).waitFor();
    await again.getByRole('button', { name: 'Dismiss' }).click();
    await again.getByText('Run done').waitFor({ state: 'detached' });
  } finally {
    await later.close();
  }
  assert.deepEqual(errors, []);
});
