/// <reference lib="dom" />
// An operator in the portal, for browser tests: signed in with a password, an authenticator app
// set up on the Security page the first time, its codes each used once, the menu and the check
// that a page does not scroll sideways.
import assert from 'node:assert/strict';
import { freshCode } from './totp-codes.js';
import type { Page } from 'playwright-core';

export async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs in for the first time: sent to the Security page, sets up the app, signs out; the app's secret. */
export async function enrolApp(page: Page, email: string, password: string): Promise<string> {
  return (await enrolAppKeepingCodes(page, email, password)).secret;
}

/** As enrolApp, keeping the recovery codes the page showed once. */
export async function enrolAppKeepingCodes(page: Page, email: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  await signInWithPassword(page, email, password);
  await page.getByRole('heading', { name: 'Security' }).waitFor();
  await page.getByRole('button', { name: 'Set up an app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  await page.getByLabel('Code from the app').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  const recoveryCodes = await page.getByTestId('recovery-codes').locator('code').allTextContents();
  await page.getByRole('button', { name: 'Sign out' }).click();
  return { secret, recoveryCodes };
}

/** Signs in with the password and a code of the app: the console's first page. */
export async function signInWithApp(page: Page, email: string, password: string, secret: string): Promise<void> {
  await signInWithPassword(page, email, password);
  await page.getByRole('heading', { name: 'Second step' }).waitFor();
  await page.getByLabel('Code', { exact: true }).fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Applications' }).waitFor();
}

export const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();

/** Fails when the page is wider than its window (something makes it scroll sideways). */
export async function assertFits(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${what} scrolls sideways by ${overflow} px`);
}
