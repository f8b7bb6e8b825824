/// <reference lib="dom" />
// Payout details in the portal, in headless Chromium against a real server: an owner enters PIX
// details; a wrong CPF is refused on the page (nothing is sent), the right one is saved with the
// password and shown masked, with the hold of payouts; a member is told why they cannot see them.
// The page passes the accessibility check and fits a phone's width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { TEST_PAYEE_KEY } from '../helpers/harness.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'owner@aff1.example';
const MEMBER = 'member@aff1.example';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, OWNER, 'owner', PASSWORD);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, MEMBER, 'member', PASSWORD);
  },
  env: (testDb) => ({ ...(testDb.dialect === 'postgres' && { PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY }) }),
});

async function signedIn(email: string, width = 1280): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (width >= 800) await followMenu(page, 'Payout details');
  else {
    // On a phone the menu is folded behind its button.
    await page.getByRole('button', { name: 'Menu' }).click();
    await followMenu(page, 'Payout details');
  }
  await page.getByRole('heading', { name: 'Payout details', level: 1 }).waitFor();
  return page;
}

const payeeRows = () => portal.database.db.selectFrom('payee_details').selectAll().execute();

test('an owner enters PIX details: a wrong CPF is refused on the page, the right one saved and shown masked', { timeout: 60_000 }, async () => {
  const page = await signedIn(OWNER);
  await page.getByText('No payout details yet').waitFor();
  await assertAccessible(page, 'payout details, empty');
  await page.getByLabel('Legal name of the account holder').fill('Ana Lima');
  await page.getByLabel('Country (2 letters, e.g. BR)').fill('BR');
  await page.getByLabel('Tax id').fill('529.982.247-25');
  await page.getByLabel('PIX key type').selectOption('cpf');
  await page.getByLabel('PIX key', { exact: true }).fill('529.982.247-24');
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save payout details' }).click();
  const refusal = page.getByRole('alert');
  await refusal.waitFor();
  assert.equal((await refusal.textContent())?.trim(), 'PIX key: 529.982.247-24 is not a valid CPF. Check every digit: the last two are check digits.');
  assert.deepEqual(await payeeRows(), [], 'nothing was sent');
  await assertAccessible(page, 'payout details, a wrong CPF refused');

  await page.getByLabel('PIX key', { exact: true }).fill('529.982.247-25');
  await page.getByRole('button', { name: 'Save payout details' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved. Every owner of the account was told by mail.' }).waitFor();
  assert.equal((await page.getByTestId('payee-summary').textContent())?.trim(), 'PIX cpf ***.982.247-**');
  await page.getByText(/Changed recently: payouts are held until/).waitFor();
  assert.ok(!(await page.getByTestId('payee-current').textContent())!.includes('529.982.247-25'), 'shown masked');
  assert.equal(await page.getByLabel('Your password').inputValue(), '', 'the password is not kept in the form');
  assert.equal(await page.getByLabel('PIX key', { exact: true }).inputValue(), '', 'nor the key in full');
  assert.equal((await payeeRows()).length, 1);
  await assertAccessible(page, 'payout details, saved');
  if (process.env.PAYEE_SHOTS) await page.screenshot({ path: `${process.env.PAYEE_SHOTS}/payee-1280.png`, fullPage: true });

  // Read again on a phone: masked, and no sideways scroll.
  const phone = await signedIn(OWNER, 375);
  assert.equal((await phone.getByTestId('payee-summary').textContent())?.trim(), 'PIX cpf ***.982.247-**');
  if (process.env.PAYEE_SHOTS) await phone.screenshot({ path: `${process.env.PAYEE_SHOTS}/payee-375.png`, fullPage: true });
  assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'fits 375 px: no sideways scroll');
  assert.deepEqual(pageErrors, []);
});

test('a member is told only owners see and change where the account is paid', async () => {
  const page = await signedIn(MEMBER);
  await page.getByText('Only the owners of your account can see and change where it is paid').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save payout details' }).count(), 0);
  await assertAccessible(page, 'payout details, member');
});
