/// <reference lib="dom" />
// Every page of the portal on a phone: each route of portal/src/main.tsx, signed out, as an
// affiliate and a brand with the demo data, and as an affiliate and a brand with nothing yet, at
// 320 and 375 px. No page may scroll sideways, every page passes the accessibility check, and
// every button and menu item is at least 44 × 44 px. The menu folds behind a button on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { issueDemoStatements } from '../helpers/demo-statements.js';
import { assertAccessible, openInApp } from '../helpers/browser.js';
import { DEMO_AFFILIATE_USER, DEMO_BRAND_USER, seedDemo } from '../../src/seed/demo.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const WIDTHS = [375, 320] as const;
const TOUCH_TARGET = 44;
const EMPTY_AFFILIATE_USER = 'owner@new-affiliate.example';
const EMPTY_BRAND_USER = 'owner@new-brand.example';
const EMPTY_BRAND = 'e0000000-0000-4000-8000-000000000001';

/** Each side's routes as main.tsx declares them, and the address this test opens for each. */
const AFFILIATE_ROUTES = ['/', '/tools', '/brands', '/brands/:id', '/products', '/feeds', '/auto-links', '/postbacks', '/campaigns', '/codes', '/links', '/orders', '/orders/:id', '/payouts', '/statements', '/payee', '/claims', '/channels', '/team', '/history', '/keys', '/webhooks', '/analytics', '/security'];
const BRAND_ROUTES = ['/', '/conversions', '/reconciliation', '/claims', '/statements', '/statements/:id', '/affiliates', '/coupons', '/campaigns', '/profile', '/commission-rules', '/groups', '/catalogue', '/tag', '/conversions/:orderId', '/team', '/history', '/keys', '/webhooks', '/analytics', '/security'];
/** The console's routes: operator-console.test.ts, operator-money.test.ts and operator-figures.test.ts walk them with an operator (who needs a second factor) and check them on a phone. */
const OPERATOR_ROUTES = ['/operator', '/operator/audit', '/operator/members', '/operator/holds', '/operator/affiliates/:id', '/operator/brands/:id', '/operator/statements', '/operator/payouts', '/operator/ledger', '/security', '/operator/figures'];
const SIGNED_OUT_ROUTES = ['/set-password', '/forgot-password', '/sign-up', '/apply', '/verify', '(any other: sign-in)'];
const JUST_APPROVED_BRAND_USER = 'owner@just-approved.example';
const LONG_PRODUCT_NAME = 'Trail running shoe Ultralight Navy Blue Special Edition 2026';
const LONG_PRODUCT_URL = 'https://www.example.com/store/footwear/running/trail-running-shoe-ultralight-navy-blue-special-edition-2026?colour=navy';
const LONG_BRAND_NAME = 'Empório de Calçados e Acessórios Artesanais do Vale Dourado!';
const LONG_SITE = 'https://www.emporio-de-calcados-e-acessorios-artesanais-do-vale-dourado.example/loja/inicio?origem=afiliados';
const LONG_COMPANY = 'Just Approved Comércio de Roupas Ltda ME';

let setPasswordPath = '';

const portal = portalUnderTest({
  world: false,
  prepare: async (database) => {
    const services = servicesFor(database);
    await seedDemo(services, () => {}, { userPassword: PASSWORD, activityOn: database });
    await issueDemoStatements(database);
    // Long values where phones break first: an e-mail address in the team list.
    await services.users.createWithPassword({ affiliateId: 'aff-demo-1' }, 'a-rather-long-address-for-a-small-screen@partners.aff-demo-1.example', 'member', PASSWORD);
    // Coupon codes of the demo brand, one long, given to the demo affiliate (Coupons, My codes).
    const { brand_id: demoBrand } = await database.db.selectFrom('users').select('brand_id').where('email', '=', DEMO_BRAND_USER).executeTakeFirstOrThrow();
    for (const code of ['MARIA10', 'A-RATHER-LONG-CODE_FOR-A-SMALL-SCREEN']) await services.coupons.give(demoBrand!, code, { affiliateId: 'aff-demo-1' });
    // A product of the demo brand with a 60-character name, a long code and a long page address (Catalogue).
    await services.imports.putProduct(demoBrand!, 'a-rather-long-product-code-for-a-small-screen-2026', { name: LONG_PRODUCT_NAME, url: LONG_PRODUCT_URL, available: true, price: 12_990 });
    // A campaign of the demo brand with a name of 60 characters and a long page address (Campaigns).
    const { site } = await database.db.selectFrom('brands').select('site').where('id', '=', demoBrand!).executeTakeFirstOrThrow();
    await services.imports.putCampaign(demoBrand!, 'long-campaign', {
      name: 'Liquidação de inverno com frete grátis para todo o Brasil 60',
      type: 'Offer',
      offerType: 'Url',
      url: `${new URL(site).origin}/colecoes/liquidacao-de-inverno/calcados-femininos-e-masculinos?utm_source=afiliados&utm_campaign=inverno-2026`,
      period: { startAt: '2026-01-01T03:00:00.000Z', endAt: '2036-01-01T02:59:59.999Z' },
      mediaKit: { banners: ['https://cdn.example.com/banners/liquidacao-de-inverno-728x90.png'] },
    });
    // An affiliate and a brand that have just joined: every list empty.
    await services.access.upsertAffiliate('aff-new', 'New Affiliate');
    await services.users.createWithPassword({ affiliateId: 'aff-new' }, EMPTY_AFFILIATE_USER, 'owner', PASSWORD);
    // Its name is 60 characters long and its site's address longer: what the profile, statements and orders pages must hold on a phone.
    await services.imports.upsertBrand(brandInput({ id: EMPTY_BRAND, name: LONG_BRAND_NAME, slug: 'new-brand', site: LONG_SITE, network: { active: true, isPublic: false, trait: { isExclusive: false, isHighlight: false, isFavorite: false }, rating: { approval: 0, commission: 0, conversion: 0, popularity: 0, validation: 0 } } }));
    await services.imports.updateBrandProfile(EMPTY_BRAND, { homeUrl: LONG_SITE });
    await services.users.createWithPassword({ brandId: EMPTY_BRAND }, EMPTY_BRAND_USER, 'owner', PASSWORD);
    // A brand just approved from its application: not launched, its overview shows what launching needs.
    const { applications } = services;
    await applications.apply({ company: LONG_COMPANY, name: 'Owner', email: JUST_APPROVED_BRAND_USER, country: 'PT', language: 'en', website: 'https://just-approved.example', taxId: 'PT500000000', currency: 'EUR', expectedMonthlyOrders: 10, acceptTerms: true }, '192.0.2.1');
    const [application] = await applications.list({ status: 'unverified' });
    await applications.verify(new URL((await applications.issueVerifyLink(application!.id))!).searchParams.get('token')!);
    await applications.approve(application!.id, CLI);
    await services.users.setPassword(new URL(await services.users.resetLink(JUST_APPROVED_BRAND_USER)).searchParams.get('token')!, PASSWORD);
  },
  started: async () => {
    const invited = await servicesFor(portal.database).users.create({ affiliateId: 'aff-new' }, 'invited@new-affiliate.example', 'member');
    const link = new URL(invited.link);
    setPasswordPath = link.pathname + link.search + link.hash;
  },
});

test('the routes checked here are every route of the portal', async () => {
  const routesOf = async (file: string) => {
    const source = await readFile(new URL(`../../portal/src/${file}`, import.meta.url), 'utf8');
    return [...source.matchAll(/<Switch>([\s\S]*?)<\/Switch>/g)].map(([, body]) => [...body!.matchAll(/<Route path="([^"]+)"/g)].map(([, path]) => path));
  };
  // main.tsx holds the signed-out switch (set-password, else sign-in); each side's pages have a file of their own.
  const [signedOut, ...others] = await routesOf('main.tsx');
  assert.deepEqual(others, [], 'main.tsx has one switch, the signed-out one');
  assert.deepEqual(signedOut, SIGNED_OUT_ROUTES.slice(0, -1), 'signed-out routes');
  assert.deepEqual([...(await routesOf('routes/operator-routes.tsx'))[0]!].sort(), [...OPERATOR_ROUTES].sort(), 'operator routes: add the new one to operator-console.test.ts, which checks them on a phone, and here');
  assert.deepEqual([...(await routesOf('routes/affiliate-routes.tsx'))[0]!].sort(), [...AFFILIATE_ROUTES].sort(), "affiliate routes: add the new one to this test's list");
  assert.deepEqual([...(await routesOf('routes/brand-routes.tsx'))[0]!].sort(), [...BRAND_ROUTES].sort(), "brand routes: add the new one to this test's list");
});

test('signed out: sign-in (also with an error), set-password, forgotten password (also once sent), sign-up (also refused), apply and verify fit a phone', async () => {
  const page = await phonePage();
  const problems: string[] = [];
  try {
    await page.goto('/app/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkAtPhoneWidths(page, 'sign-in', problems);
    await page.getByLabel('E-mail').fill('someone-with-a-long-address@nowhere.example');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await checkAtPhoneWidths(page, 'sign-in refused', problems);
    await page.goto(setPasswordPath);
    await page.getByRole('button', { name: 'Save and sign in' }).waitFor();
    await checkAtPhoneWidths(page, 'set-password', problems);
    await page.goto('/app/');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await checkAtPhoneWidths(page, 'forgot-password', problems);
    await page.getByLabel('E-mail').fill('someone-with-a-rather-long-address@partners.nowhere.example');
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByRole('status').waitFor();
    await checkAtPhoneWidths(page, 'forgot-password sent', problems);

    await page.goto('/app/');
    await page.getByRole('link', { name: 'New here? Sign up as an affiliate' }).click();
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    await checkAtPhoneWidths(page, 'sign-up', problems);
    await page.getByLabel('Your name or your publication’s').fill('Someone With A Rather Long Publication Name');
    await page.getByLabel('E-mail').fill('throwaway@mailinator.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Your site or main social profile').fill('https://www.instagram.com/a.rather.long.profile.name');
    await page.getByLabel('Country').selectOption('BR');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('alert').waitFor();
    await checkAtPhoneWidths(page, 'sign-up refused', problems);

    await page.goto('/app/');
    await page.getByRole('link', { name: 'Apply as a brand' }).click();
    await page.getByRole('button', { name: 'Apply' }).waitFor();
    await checkAtPhoneWidths(page, 'apply', problems);

    await page.goto('/app/verify?token=not-a-live-token');
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.getByRole('alert').waitFor();
    await checkAtPhoneWidths(page, 'verify refused', problems);
  } finally {
    await page.context().close();
  }
  assert.deepEqual(problems, []);
});

for (const [who, email, routes] of [
  ['an affiliate with data', DEMO_AFFILIATE_USER, AFFILIATE_ROUTES],
  ['an affiliate with nothing yet', EMPTY_AFFILIATE_USER, AFFILIATE_ROUTES],
  ['a brand with data', DEMO_BRAND_USER, BRAND_ROUTES],
  ['a brand with nothing yet', EMPTY_BRAND_USER, BRAND_ROUTES],
] as const) {
  test(`${who}: every page fits 320 and 375 px, passes the accessibility check, with targets of 44 px`, async () => {
    const page = await phonePage();
    const problems: string[] = [];
    try {
      await signIn(page, email);
      for (const route of routes) {
        await openInApp(page, `/app${await addressOf(page, route)}`);
        await page.getByText('Loading…').first().waitFor({ state: 'detached' });
        await checkAtPhoneWidths(page, route, problems);
      }
    } finally {
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
}

test("a brand's product form, with a 60-character name, a long address and a variation, fits 320 and 375 px", async () => {
  const page = await phonePage();
  const problems: string[] = [];
  try {
    await signIn(page, DEMO_BRAND_USER);
    await page.goto('/app/catalogue');
    await ready(page);
    await page.getByText(LONG_PRODUCT_NAME).first().waitFor();
    await page.getByRole('button', { name: 'New product' }).click();
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Name').fill(LONG_PRODUCT_NAME);
    await form.getByLabel('Product page address').fill(LONG_PRODUCT_URL);
    await form.getByLabel('Price', { exact: true }).fill('12.999,5');
    await form.getByLabel('Image addresses').fill(`${LONG_PRODUCT_URL}&image=main-picture-of-the-product.jpg`);
    await form.getByText('Sizes, colours and other variations (optional)').click();
    await form.getByRole('button', { name: 'Add a variation' }).click();
    await form.getByLabel('Name of variation 1').fill(LONG_PRODUCT_NAME);
    await form.getByText('More', { exact: true }).click();
    await form.getByLabel('Product code').fill('a-rather-long-product-code-for-a-small-screen-2027');
    // The refusals on the page, long ones included, fit too.
    await form.getByRole('button', { name: 'Save the product' }).click();
    await form.getByTestId('price-error').waitFor();
    await checkAtPhoneWidths(page, 'product form', problems);
    await page.getByRole('button', { name: `Edit ${LONG_PRODUCT_NAME}` }).waitFor();
  } finally {
    await page.context().close();
  }
  assert.deepEqual(problems, []);
});

test('a brand just approved: its overview walks the owner to launch, and fits a phone', async () => {
  const page = await phonePage();
  const problems: string[] = [];
  try {
    await signIn(page, JUST_APPROVED_BRAND_USER);
    await page.getByRole('heading', { name: 'Launch your brand' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Launch' }).isDisabled(), true, 'nothing to launch before the steps are done');
    await checkAtPhoneWidths(page, 'launch checklist', problems);
  } finally {
    await page.context().close();
  }
  assert.deepEqual(problems, []);
});

test('on a phone the menu folds behind a button holding the pages, the account, the language and sign-out; a link folds it again', async () => {
  const page = await phonePage();
  try {
    await signIn(page, DEMO_AFFILIATE_USER);
    const menuButton = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    assert.equal(await menu.isVisible(), false, 'the menu is folded at first');
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).isVisible(), false);
    // The page's content starts within the top fifth of the screen.
    const headingTop = (await page.locator('main h1').boundingBox())!.y;
    assert.ok(headingTop < 800 / 5, `the first heading starts ${headingTop} px down`);

    await menuButton.click();
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'true');
    for (const control of [menu, page.getByText(DEMO_AFFILIATE_USER), page.getByLabel('Language'), page.getByRole('button', { name: 'Sign out' })]) assert.ok(await control.isVisible());
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      problems.push(...(await smallTargets(page)).map((target) => `open menu at ${width} px: ${target}`));
      await assertAccessible(page, `open menu at ${width} px`);
    }
    assert.deepEqual(problems, []);

    await menu.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    assert.equal(await menu.isVisible(), false, 'following a link folds the menu');
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');

    // At desktop width the menu is always open and the button is gone.
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await menu.isVisible(), true);
    assert.equal(await menuButton.isVisible(), false);
  } finally {
    await page.context().close();
  }
});

test('on a phone a table row reads as a card: each value beside its column name', async () => {
  const page = await phonePage();
  try {
    await signIn(page, DEMO_BRAND_USER);
    await page.goto('/app/conversions');
    await ready(page);
    const row = page.locator('tbody tr').first();
    const cells = await row.locator('td').evaluateAll((tds) =>
      tds.map((td) => ({ label: td.getAttribute('data-label'), shown: getComputedStyle(td, '::before').content, right: td.getBoundingClientRect().right })),
    );
    assert.deepEqual(
      cells.map((c) => c.label),
      ['Affiliate', 'Date', 'Value', 'Commission', 'Status', ''],
      'the column names, none for the actions',
    );
    assert.deepEqual(
      cells.slice(0, 5).map((c) => c.shown),
      ['"Affiliate"', '"Date"', '"Value"', '"Commission"', '"Status"'],
    );
    assert.ok(cells.every((c) => c.right <= 375), 'no cell runs past the screen');
    // The labels follow the language.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Conversões' }).waitFor();
    assert.equal(await row.locator('td').nth(3).getAttribute('data-label'), 'Comissão');
    assert.deepEqual(await overlappingCells(page), [], 'in Portuguese too, no name runs into the next value');
  } finally {
    await page.context().close();
  }
});

async function phonePage(): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: WIDTHS[0], height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => assert.fail(`uncaught error on ${page.url()}: ${error.message}`));
  return page;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Menu' }).waitFor();
}

/** The address of a route: a conversion's (an order's, a brand's) page is the first one in the list (or one that does not exist). */
async function addressOf(page: Page, route: string): Promise<string> {
  const list = ({ '/conversions/:orderId': '/conversions', '/statements/:id': '/statements', '/orders/:id': '/orders', '/brands/:id': '/brands' } as Record<string, string>)[route];
  if (!list) return route;
  await openInApp(page, `/app${list}`);
  await page.getByText('Loading…').first().waitFor({ state: 'detached' });
  const first = page.locator('tbody a').first();
  return (await first.count()) > 0 ? (await first.getAttribute('href'))!.replace(/^\/app/, '') : `${list}/no-such-one`;
}

/** The page has its heading and nothing more to load. */
async function ready(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.getByText('Loading…').first().waitFor({ state: 'detached' });
}

/**
 * Sideways scrolling, small targets and overlapping cells at each phone width, added to
 * `problems`; the accessibility check once, at the narrowest. Both widths fall under the same
 * style rules (the portal's breakpoints are 40rem and 48rem), so the scan would find the same at
 * both, and it is the costliest check of the file.
 */
async function checkAtPhoneWidths(page: Page, what: string, problems: string[]): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // Two frames: what follows the width (the charts) has been laid out again.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    if (scrollWidth > innerWidth) problems.push(`${what} at ${width} px: ${scrollWidth} px wide (${await widest(page)})`);
    problems.push(...(await smallTargets(page)).map((target) => `${what} at ${width} px: ${target}`));
    problems.push(...(await overlappingCells(page)).map((cell) => `${what} at ${width} px: ${cell}`));
    if (width === Math.min(...WIDTHS)) await assertAccessible(page, `${what} at ${width} px`);
  }
}

/** Cells of a row stacked as a card whose column name runs into the next cell (a long name beside a short value). */
function overlappingCells(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    // A name that does not fit its cell spills out of it (past the cell's own height).
    Array.from(document.querySelectorAll<HTMLElement>('td[data-label]'), (cell) =>
      getComputedStyle(cell).display !== 'table-cell' && cell.scrollHeight > cell.clientHeight + 1 ? `"${cell.dataset.label}" runs into the next cell` : '',
    ).filter(Boolean),
  );
}

/** Visible buttons and menu items smaller than 44 × 44 px (links inside text are exempt). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((minimum) => {
    const targets = document.querySelectorAll<HTMLElement>('button, a.button, [role="button"], summary, select, nav a');
    return Array.from(targets).flatMap((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return [];
      return box.width < minimum || box.height < minimum ? [`"${(element.textContent ?? '').trim()}" ${Math.round(box.width)} × ${Math.round(box.height)}`] : [];
    });
  }, TOUCH_TARGET);
}

/** The elements running past the right edge, to say what to fix. */
function widest(page: Page): Promise<string> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('main *, header *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth)
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}${element.className ? `.${element.className}` : ''} to ${Math.round(element.getBoundingClientRect().right)} px`)
      .join(', '),
  );
}
