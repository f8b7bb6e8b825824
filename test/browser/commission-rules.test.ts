/// <reference lib="dom" />
// Commission rules in the portal, in headless Chromium against a real server, as people use them:
// a brand writes its rules (one refused beside the rule it names), tries an order in the preview,
// and saves; an order reported afterwards is explained to its affiliate (on the order's page) and
// to the brand (on the conversion's page) with the same lines and total; the affiliate reads the
// brand's rules on the brand's page; a lowering waits for its notice, and the editor says until
// when. Each new page at 1280 and 375 px, without sideways scroll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const CODE = 'ANA-RULES';
const ORDER = 'rules-order-1';
let brandKey = '';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner', PASSWORD);
    brandKey = (await services.access.createApiKey({ brandId: BRANDS.acme })).key;
    // Saved rules in force at once, so the affiliate's order is computed with them (notice has its own tests).
    await database.db.updateTable('brands').set({ terms_notice_days: 0 }).where('id', '=', BRANDS.acme).execute();
  },
  env: { TERMS_NOTICE_MIN_DAYS: '0' },
  started: async () => {
    const given = await fetch(`${portal.server.url}/advertiser/coupons/${CODE}`, { method: 'PUT', headers: { 'x-api-key': brandKey, 'content-type': 'application/json' }, body: JSON.stringify({ affiliateId: 'aff-1' }) });
    assert.equal(given.status, 201, await given.text());
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

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();

/** Screenshots at 1280 and 375 px to look at; at 375 px the page must not scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR ?? '/tmp';
  await page.screenshot({ path: `${dir}/commission-rules-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.screenshot({ path: `${dir}/commission-rules-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at 375 px`);
}

test('the brand writes its rules, tries an order, saves; the affiliate reads the order’s explanation and the brand’s rules; the brand sees the same explanation', async () => {
  const brand = await signedIn('owner@acme.example');
  try {
    const { page } = brand;
    await nav(page, 'Commission rules');
    await page.getByRole('heading', { name: 'Commission rules', exact: true }).waitFor();
    await page.getByText('No rules saved yet: the default rule applies to every order.').waitFor();
    await page.getByTestId('rule-default').getByText('7.5 % of each item').waitFor();

    const rule = (n: number) => page.getByTestId('rule').nth(n);
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await rule(0).getByLabel('Name (shown in explanations)').fill('Shoes');
    await rule(0).getByLabel('Product ids').fill('sku-shoe');
    await rule(0).getByLabel('Percent').fill('10');
    await rule(0).getByLabel('At most per order (BRL)').fill('8.00');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await rule(1).getByLabel('Name (shown in explanations)').fill('Everything else');
    await rule(1).getByLabel('Percent').fill('5');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await rule(2).getByLabel('Name (shown in explanations)').fill('Coupon orders');
    await rule(2).getByLabel('Coupon code').selectOption({ label: 'Any code' });
    await rule(2).getByLabel('Kind', { exact: true }).selectOption({ label: 'A fixed amount' });
    await rule(2).getByLabel('Amount (BRL)').fill('3.00');

    // A rule after one that takes every item could never apply: the service says so beside it.
    await page.getByRole('button', { name: 'Save rules' }).click();
    await rule(2).getByTestId('rule-problem').getByText('This rule can never apply: rule 2 has no conditions and takes every order before it. Give rule 2 conditions, or remove this one.').waitFor();
    assert.equal(await rule(0).getByTestId('rule-problem').count(), 0, 'the message is beside the rule it names only');
    // Moved above the catch-all it applies, and the catch-all goes.
    await page.getByRole('button', { name: 'Move rule 3 up' }).click();
    assert.equal(await rule(1).getByLabel('Name (shown in explanations)').inputValue(), 'Coupon orders');
    await page.getByRole('button', { name: 'Remove rule 3' }).click();
    assert.equal(await page.getByTestId('rule').count(), 2);

    // The preview uses the rules as they stand on the page, saved or not.
    const items = page.getByTestId('preview-item');
    await items.nth(0).getByLabel('Product id').fill('sku-shoe');
    await items.nth(0).getByLabel('Price (BRL)').fill('50.00');
    await items.nth(0).getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add an item' }).click();
    await items.nth(1).getByLabel('Product id').fill('sku-hat');
    await items.nth(1).getByLabel('Price (BRL)').fill('19.99');
    await page.getByRole('button', { name: 'Show the commission' }).click();
    // 10 % of R$100.00 is R$10.00, capped at R$8.00; the hat takes the default 7.5 %: R$1.50.
    await page.getByTestId('preview-total').getByText('Total: R$9.50').waitFor();
    assert.equal(await page.getByTestId('preview-line').count(), 2);
    await page.getByTestId('preview-line').nth(0).getByText('R$8.00 (capped)').waitFor();
    await page.getByTestId('preview-cap').getByText('Rule 1 came to R$10.00; its cap of R$8.00 applied.').waitFor();
    // With a coupon the hat goes to the coupon rule: R$3.00 once for the order.
    await page.getByRole('form', { name: 'Try an order' }).getByLabel('Coupon code').fill(CODE);
    await page.getByRole('button', { name: 'Show the commission' }).click();
    await page.getByTestId('preview-total').getByText('Total: R$11.00').waitFor();
    await page.getByTestId('preview-line').nth(1).getByText('Rule 2: Coupon orders').waitFor();

    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: version 1 is in force for orders reported from now on.' }).waitFor();
    await assertAccessible(page, 'commission rules');
    await shots(page, 'editor');
  } finally {
    await brand.close();
  }

  const reported = await fetch(`${portal.server.url}/advertiser/conversions`, {
    method: 'POST',
    headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      orderId: ORDER,
      coupon: CODE,
      value: 11_999,
      items: [
        { id: 'sku-shoe', name: 'Shoe', quantity: 2, price: 5000, categories: 1 },
        { id: 'sku-hat', name: 'Hat', quantity: 1, price: 1999, categories: 1 },
      ],
    }),
  });
  assert.equal(reported.status, 201, await reported.text());

  const affiliate = await signedIn('owner@aff1.example');
  try {
    const { page } = affiliate;
    await nav(page, 'Orders');
    await page.getByTestId(`order-${ORDER}`).getByRole('link', { name: ORDER }).click();
    await page.getByRole('heading', { name: `Order ${ORDER}` }).waitFor();
    const explanation = page.getByTestId('explanation');
    await explanation.getByText('Version 1 of the brand’s rules').waitFor();
    await explanation.getByText('Its coupon code').waitFor();
    await explanation.getByText(CODE, { exact: true }).waitFor();
    await explanation.getByTestId('explanation-lines-total').getByText('Total: R$11.00').waitFor();
    const lines = explanation.getByTestId('explanation-lines-line');
    assert.equal(await lines.count(), 2);
    await lines.nth(0).getByText('10 % of R$100.00 = R$10.00').waitFor();
    await lines.nth(1).getByText('R$3.00 once for the order = R$3.00').waitFor();
    await page.getByTestId('order-commission').getByText('R$11.00').waitFor();
    await assertAccessible(page, 'affiliate order');
    await shots(page, 'affiliate-order');

    await nav(page, 'Brands');
    await page.getByRole('row', { name: /Acme/ }).getByRole('link', { name: 'Acme' }).click();
    await page.getByRole('heading', { name: 'Acme', level: 1 }).waitFor();
    const rules = page.getByTestId('brand-rule');
    await rules.nth(0).getByText('Products: sku-shoe').waitFor();
    assert.equal(await rules.count(), 2);
    await rules.nth(0).getByText('10 % of each item (at most R$8.00 per order)').waitFor();
    await rules.nth(1).getByText('Any coupon code').waitFor();
    await page.getByTestId('brand-rule-default').getByText('7.5 % of each item').waitFor();
    await assertAccessible(page, 'affiliate brand');
    await shots(page, 'affiliate-brand');

    // The brand lowers its default rule with five days' notice: the affiliate sees the upcoming terms beside those in force.
    const patch = (body: object) => fetch(`${portal.server.url}/advertiser/brand`, { method: 'PATCH', headers: { 'x-api-key': brandKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await patch({ termsNoticeDays: 5 })).status, 200);
    assert.equal((await patch({ commission: { transfer: 'cps', value: 5 } })).status, 200);
    await page.reload();
    const upcoming = page.getByTestId('brand-upcoming');
    await upcoming.getByText(/^New terms from /).waitFor();
    await upcoming.getByTestId('brand-rule-default').getByText('5 % of each item').waitFor();
    await page.getByTestId('brand-rules').getByTestId('brand-rule-default').last().getByText('7.5 % of each item').waitFor();
    await assertAccessible(page, 'affiliate brand with upcoming terms');
    await shots(page, 'affiliate-brand-upcoming');
  } finally {
    await affiliate.close();
  }

  const again = await signedIn('owner@acme.example');
  try {
    const { page } = again;
    await page.goto(`/app/conversions/${ORDER}`);
    const explanation = page.getByTestId('explanation');
    await explanation.getByTestId('explanation-lines-total').getByText('Total: R$11.00').waitFor();
    await explanation.getByText('Version 1 of the brand’s rules').waitFor();
    await assertAccessible(page, 'brand conversion');
    await shots(page, 'brand-conversion');

    // The lowered default waits for its notice: the editor says so, and edits the waiting version.
    const waiting = async () => {
      const res = await fetch(`${portal.server.url}/advertiser/commission-rules`, { headers: { 'x-api-key': brandKey } });
      return ((await res.json()) as { data: { upcoming: { version: number; effectiveAt: string } } }).data.upcoming;
    };
    const when = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    await nav(page, 'Commission rules');
    const notice = page.getByTestId('rules-upcoming');
    await notice.getByText(`Version 2 is saved and takes effect on ${when((await waiting()).effectiveAt)} (`, { exact: false }).waitFor();
    await notice.getByText('until then version 1 is in force', { exact: false }).waitFor();
    await page.getByTestId('rule-default').getByText('5 % of each item').waitFor();
    // A lower share on shoes: saved as version 3, also waiting, and the page says until when.
    const shoes = page.getByTestId('rule').nth(0);
    assert.equal(await shoes.getByLabel('Percent').inputValue(), '10');
    await shoes.getByLabel('Percent').fill('8');
    await page.getByRole('button', { name: 'Save rules' }).click();
    const saved = page.getByTestId('rules-saved');
    // Why, in words: the rule by its place, what it would pay and what it pays now, and an order that earns less.
    await saved.getByText(/^Saved as version 3\. It could pay some orders less \(rule 1\b.* would pay 8 % of each item .*; for example, an order of R\$.* would earn R\$.* instead of R\$.*\), so it takes effect on /).waitFor();
    const third = await waiting();
    assert.equal(third.version, 3);
    assert.ok((await saved.textContent())!.includes(when(third.effectiveAt)), (await saved.textContent()) ?? '');
    await page.getByTestId('rules-version').getByText('Version 1', { exact: false }).waitFor();
    await assertAccessible(page, 'commission rules with a change waiting');
    await shots(page, 'editor-waiting');
  } finally {
    await again.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('the brand places affiliates in a group with a volume tier, changes it, and cannot delete it while a rule names it', async () => {
  const brand = await signedIn('owner@acme.example');
  try {
    const { page } = brand;
    page.on('dialog', (dialog) => void dialog.accept());
    await nav(page, 'Affiliate groups');
    await page.getByRole('heading', { name: 'Affiliate groups', exact: true }).waitFor();
    await page.getByText('No group yet.').waitFor();

    await page.getByLabel('Group id').fill('vip');
    await page.getByLabel('Name', { exact: true }).fill('VIP partners');
    await page.getByLabel('Affiliates you place in it').fill('aff-1');
    await page.getByLabel(/^Volume tier/).fill('3');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('status').filter({ hasText: 'Group “VIP partners” saved.' }).waitFor();
    const row = page.getByTestId('group-vip');
    await row.getByText('aff-1', { exact: true }).waitFor();
    // Computed at once from last month, when the world had no order of aff-1 at Acme approved enough times.
    await row.getByText(/^At least 3 approved orders last month\. Placed in [A-Z][a-z]+ \d{4}: —$/).waitFor();

    // An affiliate outside the programme (aff-2 works with Initech only) is refused, naming it.
    await row.getByRole('button', { name: 'Change the group VIP partners' }).click();
    assert.equal(await page.getByLabel('Affiliates you place in it').inputValue(), 'aff-1');
    await page.getByLabel('Affiliates you place in it').fill('aff-1, aff-2');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('alert').filter({ hasText: 'so they cannot be placed in a group: aff-2.' }).waitFor();
    await page.getByLabel('Affiliates you place in it').fill('aff-1');
    await page.getByLabel('Name', { exact: true }).fill('Best partners');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('status').filter({ hasText: 'Group “Best partners” saved.' }).waitFor();
    await row.getByRole('rowheader').getByText('Best partners').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, 'the refusal is gone once saved');

    // A rule names the group: it cannot be deleted until the rules no longer do.
    const rules = await fetch(`${portal.server.url}/advertiser/commission-rules`, {
      method: 'PUT',
      headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ name: 'Partners', conditions: { affiliateGroups: ['vip'] }, transfer: 'cps', value: 12 }] }),
    });
    assert.equal(rules.status, 200, await rules.text());
    await row.getByRole('button', { name: 'Delete the group Best partners' }).click();
    await page.getByRole('alert').filter({ hasText: 'Rule 1 of your commission rules uses this group' }).waitFor();
    await row.waitFor();
    await assertAccessible(page, 'affiliate groups');
    await shots(page, 'groups');
  } finally {
    await brand.close();
  }
  assert.deepEqual(pageErrors, []);
});
