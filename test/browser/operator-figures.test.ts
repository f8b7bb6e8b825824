/// <reference lib="dom" />
// The network's figures in the operator's console, in headless Chromium against a real server: an
// operator (signed in, with a second factor) opens Figures, sees today's clicks and the order
// converted from one of them with its network fee, asks for the world's first quarter per month
// and by brand, follows a brand to its page, downloads the same figures as CSV; the page fits a
// phone's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { assertFits, nav } from '../helpers/operator-browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';
import { freshCode } from '../helpers/totp-codes.js';

const PASSWORD = 'a long enough password';
let sessionToken = '';
const pageErrors: string[] = [];
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** A visit to aff-1's link to Acme from a browser at `ip`: the click id the redirect carries. */
async function visit(link: URL, ip: string): Promise<string> {
  const res = await fetch(link, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': ip } });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!).searchParams.get('clickId')!;
}

const portal = portalUnderTest({
  prepare: async (database) => {
    const { users, secondFactors } = servicesFor(database);
    // An operator who has set a password and enrolled an authenticator app: signed in with both.
    const { user, link: invitation } = await users.createOperator('figures@network.example');
    const signed = await users.setPassword(new URL(invitation).searchParams.get('token')!, PASSWORD);
    const who = { userId: user.id, email: user.email, sessionToken: signed.sessionToken };
    const { secret } = await secondFactors.startTotp(who);
    await secondFactors.confirmTotp(who, await freshCode(secret));
    sessionToken = signed.sessionToken;

  },
  env: { TRUST_PROXY: '1' },
  started: async () => {
    // Today: three visits to aff-1's Acme link, one of them converted (R$ 100.00, 7.5 %: R$ 7.50, the network's 30 %: R$ 2.25).
    const { access } = servicesFor(portal.database);
    const affiliateKey = (await access.createApiKey({ affiliateId: 'aff-1' })).key;
    const brandKey = (await access.createApiKey({ brandId: BRANDS.acme })).key;
    const created = await fetch(`${portal.server.url}/affiliate/shortener/url`, { method: 'POST', headers: { 'x-api-key': affiliateKey, 'content-type': 'application/json' }, body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }) });
    const shortUrl = ((await created.json()) as Array<{ shortUrls: string[] }>).find((c) => c.shortUrls.length > 0)!.shortUrls[0]!;
    const link = new URL(new URL(shortUrl).pathname, portal.server.url);
    const clickId = await visit(link, '198.51.100.21');
    await visit(link, '198.51.100.22');
    await visit(link, '198.51.100.23');
    // The click is stored within moments; until then the conversion is asked to come back.
    for (;;) {
      const res = await fetch(`${portal.server.url}/advertiser/conversions`, {
        method: 'POST',
        headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
        body: JSON.stringify({ clickId, orderId: 'FIGURES-1', value: 10_000, items: [{ id: 'sku-1', name: 'Item', quantity: 1, price: 10_000, categories: 42 }] }),
      });
      if (res.status === 201) break;
      assert.ok(res.status === 409 || res.status === 503 || res.status === 425, `${res.status}: ${await res.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
});

test('an operator reads the network’s figures: today’s clicks and fee, a quarter per month and by brand, the CSV; on a phone too', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'affnet_session', value: sessionToken, url: portal.server.url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await page.goto('/app/operator');
    await nav(page, 'Figures');
    await page.getByRole('heading', { name: 'The network’s figures' }).waitFor();
    // The clicks reach the rollups in the background: read the page again until all three are in.
    for (let tries = 0; (await page.getByTestId('figures-clicks').textContent()) !== '3'; tries++) {
      assert.ok(tries < 100, `the three clicks never showed: ${await page.getByTestId('figures-clicks').textContent()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.reload();
      await page.getByTestId('figures-clicks').waitFor();
    }
    const brl = page.getByTestId('figures-total-BRL');
    assert.deepEqual(await brl.locator('td').allTextContents(), ['1', 'R$100.00', 'R$7.50', 'R$2.25', '0.0 % (0)', '0.0 % (0)']);
    await page.getByRole('img', { name: 'Counted clicks over time' }).waitFor();
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual((await page.getByTestId(`figures-row-${today}`).locator('td').allTextContents()).slice(0, 4), ['3', '0', '1', 'R$100.00']);
    await assertAccessible(page, 'the network’s figures');
    await page.screenshot({ path: '/tmp/operator-figures-1280.png', fullPage: true });

    // The world's first quarter, per month and by brand.
    await page.getByLabel('From').fill('2026-01-01');
    await page.getByLabel('To').fill('2026-03-31');
    await page.getByLabel('Per', { exact: true }).selectOption('month');
    await page.getByLabel('And by').selectOption('brand');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: 'Brands: the 4 with most orders, of 4' }).waitFor();
    assert.deepEqual(await page.getByTestId('figures-total-BRL').locator('td').allTextContents(), ['5', 'R$319.99', 'R$24.00', 'R$7.20', '20.0 % (1)', '0.0 % (0)']);
    assert.deepEqual(await page.getByTestId('figures-row-2026-02').locator('td').allTextContents(), ['0', '0', '1', 'R$100.00', 'R$7.50', 'R$2.25', '0.0 %', '0.0 %']);
    assert.deepEqual(await page.getByTestId(`figures-row-${BRANDS.acme}`).locator('td').allTextContents(), ['0', '0', '2', 'R$200.00', 'R$15.00', 'R$4.50', '0.0 %', '0.0 %']);
    const csv = page.getByRole('link', { name: 'Download CSV' });
    assert.equal(await csv.getAttribute('href'), '/operator/figures.csv?from=2026-01-01&to=2026-03-31&interval=month&groupBy=brand');
    const download = await context.request.get(`${portal.server.url}/operator/figures.csv?from=2026-01-01&to=2026-03-31&interval=month&groupBy=brand`);
    assert.equal(download.status(), 200);
    const lines = (await download.text()).split('\r\n');
    // The portal's download is for the person: columns in words, the month named, amounts in reais.
    assert.equal(lines[0], 'Period,Brand id,Name,Clicks,Clicks not counted,Currency,Orders,Sales,Commission,Network fee,Declined,Held,Declined (%),Held (%)');
    assert.ok(lines.includes(`February 2026,${BRANDS.acme},Acme,0,0,BRL,1,100.00,7.50,2.25,0,0,0%,0%`), lines.join('\n'));
    await assertAccessible(page, 'the network’s figures by brand');
    await page.screenshot({ path: '/tmp/operator-figures-brands-1280.png', fullPage: true });

    await page.setViewportSize({ width: 375, height: 800 });
    await assertFits(page, 'the figures at 375 px');
    await page.screenshot({ path: '/tmp/operator-figures-375.png', fullPage: true });
    await page.setViewportSize({ width: 320, height: 800 });
    await assertFits(page, 'the figures at 320 px');

    // A brand's name leads to its page.
    await page.getByRole('link', { name: 'Globex' }).click();
    await page.getByRole('heading', { name: 'Globex' }).waitFor();
    assert.match(page.url(), new RegExp(`/app/operator/brands/${BRANDS.globex}$`));
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});
