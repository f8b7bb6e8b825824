/// <reference lib="dom" />
// Statements in the portal, in headless Chromium against a real server: the brand opens its
// month's statement (amounts, what is left to pay, its lines, CSV and PDF), and the affiliate opens
// its monthly statement (the summary per currency, its movements, CSV and PDF).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import type { Statement } from '../../src/domain/ledger/statements-service.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
let statement: Statement;
let orderId: string;
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
    // The world's February commission of Acme (750, fee 225): billed, paid in part; aff-1 adjusted.
    [statement] = (await services.statements.issue('2026-02')) as [Statement];
    orderId = (await services.statements.get(BRANDS.acme, statement.id, { page: 1, limit: 1 })).lines.items[0]!.orderId;
    await services.statements.recordPayment(statement.id, 475, 'TX-1', CLI);
    await services.ledger.adjust({ affiliateId: 'aff-1', amount: 1_000, currency: 'BRL', reason: 'a bonus', actor: CLI });
  },
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

/** What a download link of the page answers, fetched with the page's own session. */
async function download(page: Page, name: string): Promise<{ status: number; type: string; size: number; text: string }> {
  const href = await page.getByRole('link', { name }).getAttribute('href');
  assert.ok(href, name);
  const res = await page.request.get(href);
  const body = await res.body();
  return { status: res.status(), type: res.headers()['content-type'] ?? '', size: body.length, text: body.toString('utf8') };
}

test('the brand opens its statement: amounts, what is left to pay, its lines, CSV and PDF', async () => {
  const { page, close } = await signedIn('owner@acme.example');
  try {
    await nav(page, 'Statements');
    await page.getByRole('heading', { name: 'Statements', exact: true }).waitFor();
    const row = page.getByTestId('statement-2026-02-BRL');
    assert.match(await row.innerText(), /Open/);
    assert.match(await row.innerText(), /9\.75/);
    await row.getByRole('link', { name: 'Statement of February 2026 in BRL' }).click();
    await page.getByRole('heading', { name: 'Statement February 2026 · BRL' }).waitFor();
    assert.match(await page.getByTestId('statement-total').innerText(), /9\.75/);
    assert.match(await page.getByTestId('statement-left').innerText(), /5\.00/);
    const line = page.getByTestId(`statement-line-${orderId}`);
    assert.match(await line.innerText(), /7\.50/);
    assert.match(await line.innerText(), /2\.25/);
    await assertAccessible(page, "the brand's statement");
    const csv = await download(page, 'Download CSV');
    assert.deepEqual([csv.status, csv.type.startsWith('text/csv')], [200, true]);
    assert.match(csv.text, /^Order,Affiliate,Ordered,Locked,Auto,Value \(BRL\),Commission \(BRL\),Fee \(BRL\)\r\n/, 'a person downloads the columns in words');
    assert.match(csv.text, /,7\.50,2\.25\r\n/, 'amounts in reais');
    const pdf = await download(page, 'Download PDF');
    assert.deepEqual([pdf.status, pdf.type], [200, 'application/pdf']);
    assert.ok(pdf.size > 1_000);
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});

test('the affiliate opens its monthly statement: the summary per currency, its movements, CSV and PDF', async () => {
  const { page, close } = await signedIn('owner@aff1.example');
  try {
    await nav(page, 'Statements');
    await page.getByRole('heading', { name: 'Statements', exact: true }).waitFor();
    const month = new Date().toISOString().slice(0, 7);
    assert.equal(await page.getByLabel('Month').inputValue(), month, 'the current month first');
    await page.getByTestId('statement-BRL').waitFor();
    assert.match(await page.getByTestId('statement-BRL-adjustments').innerText(), /10\.00/);
    assert.match(await page.getByTestId('statement-BRL-closingBalance').innerText(), /\d/);
    await page.getByText(/^Movements \(\d+\)$/).click();
    await page.getByRole('cell', { name: 'Adjustment', exact: true }).waitFor();
    await assertAccessible(page, "the affiliate's statement");
    const csv = await download(page, 'Download CSV');
    assert.deepEqual([csv.status, csv.type.startsWith('text/csv')], [200, true]);
    assert.match(csv.text, /^Currency,Date,Movement,Reference,Amount\r\n/, 'a person downloads the columns in words');
    assert.match(csv.text, /\r\nBRL,\d{4}-\d{2}-\d{2},Adjustment,[^,]*,10\.00\r\n/, 'each movement named, its amount in reais');
    const pdf = await download(page, 'Download PDF');
    assert.deepEqual([pdf.status, pdf.type], [200, 'application/pdf']);

    // An earlier month with nothing in it says so.
    await page.getByLabel('Month').fill('2001-01');
    await page.getByText('Nothing was owed to you in this month.').waitFor();
  } finally {
    await close();
  }
  assert.deepEqual(pageErrors, []);
});
