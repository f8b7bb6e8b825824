/// <reference lib="dom" />
// The tag and the pixel as a shop installs them, in headless Chromium, with two origins: the
// brand's shop (a server of this test, at shop.localhost) and the network (the built server). A
// visitor follows an affiliate's short link, lands on the shop, browses two pages and buys; the
// tag reports the order; the brand's server then reports it with a corrected value, and there is
// one order with the server's value. A visitor without scripts buys, and the pixel alone reports it.
// The brand's Tag page shows the snippets and what the tag sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { buildWorld, BRANDS, type World } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { signInWithPassword } from '../helpers/operator-browser.js';
import { pollUntil } from '../helpers/wait.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'owner@acme.example';
let shop: Server;
let shopUrl = '';
let world: World;
let brandKey = '';
let snippets = { everyPage: '', orderPage: '', pixel: '' };
const pageErrors: string[] = [];

/** The shop: pages with the tag (landing, product, checkout) and pages without scripts whose server fills the pixel. */
function shopPage(path: string, query: URLSearchParams, cookies: string): { body: string; headers?: Record<string, string> } {
  const page = (title: string, body: string, withTag = true) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${withTag ? snippets.everyPage : ''}</head><body><h1>${title}</h1>${body}</body></html>`;
  switch (path) {
    case '/': {
      // The shop's server keeps the click id of the landing address too, for its pages without scripts.
      const clickId = query.get('clickId');
      return { body: page('Acme shop', '<a href="/product">Sneakers</a> <a href="/plain-thanks">Buy without scripts</a>'), ...(clickId && { headers: { 'set-cookie': `kept_click=${clickId}; Path=/; SameSite=Lax` } }) };
    }
    case '/product':
      return { body: page('Sneakers', '<a href="/checkout">Buy</a>') };
    case '/checkout':
      return { body: page('Thank you', `<p>Order SHOP-1</p>${snippets.orderPage.replace('ORDER_ID', 'SHOP-1').replace('VALUE_IN_CENTS', '15000').replace('CURRENCY', 'BRL')}`) };
    case '/coupon-checkout':
      return { body: page('Thank you', `<p>Order COUPON-1</p><script>affnet('conversion',{orderId:'COUPON-1',value:8000,currency:'BRL',coupon:'ana10'});</script>`) };
    case '/plain-thanks': {
      const clickId = /kept_click=([0-9a-f]{32})/.exec(cookies)?.[1] ?? '';
      const pixel = snippets.pixel.replace('ORDER_ID', 'PIXEL-1').replace('VALUE_IN_CENTS', '5000').replace('CLICK_ID', clickId);
      return { body: page('Thank you', `<p>Order PIXEL-1</p>${pixel}`, false) };
    }
    default:
      return { body: page('Not found', '') };
  }
}

const api = async (method: string, path: string, key: string, body?: object) => {
  const res = await fetch(`${portal.server.url}${path}`, { method, headers: { 'x-api-key': key, ...(body && { 'content-type': 'application/json' }) }, ...(body && { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
};

const portal = portalUnderTest({
  world: false,
  prepare: async (database) => {
    shop = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://shop.localhost');
      const { body, headers } = shopPage(url.pathname, url.searchParams, request.headers.cookie ?? '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://shop.localhost:${(shop.address() as AddressInfo).port}`;

    world = await buildWorld(database);
    // The brand's site is the shop: its short links land there, and its pages may carry the key.
    await database.db.updateTable('brands').set({ site: `${shopUrl}/`, home_url: `${shopUrl}/`, domains: '[]' }).where('id', '=', BRANDS.acme).execute();
    const services = servicesFor(database);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, OWNER, 'owner', PASSWORD);
    brandKey = (await services.access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 })).key;
  },
  alsoClose: async () => {
    shop?.close();
  },
  started: async () => {
    // The key and snippets as the brand's Tag page gives them (made once the server's address is known).
    const made = await fetch(`${portal.server.url}/advertiser/tag/publishable-key`, { method: 'POST', headers: { 'x-api-key': brandKey } });
    assert.equal(made.status, 201);
    snippets = ((await made.json()) as { data: { snippets: typeof snippets } }).data.snippets;
  },
});

async function visitorPage(javaScriptEnabled = true): Promise<Page> {
  const context = await portal.browser.newContext({ locale: 'en-US', javaScriptEnabled });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

async function shortLink(): Promise<string> {
  const res = await fetch(`${portal.server.url}/affiliate/shortener/url`, {
    method: 'POST',
    headers: { 'x-api-key': world.keys.aff1, 'content-type': 'application/json' },
    body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }),
  });
  assert.equal(res.status, 200);
  const channels = (await res.json()) as Array<{ shortUrls: string[] }>;
  return channels.find((c) => c.shortUrls.length > 0)!.shortUrls[0]!;
}

const conversion = async (orderId: string) => api('GET', `/advertiser/conversions/${orderId}`, brandKey);

test('a visitor from a short link buys on the shop: the tag reports the order, the brand’s server corrects it, one order stays', async () => {
  const page = await visitorPage();
  await page.goto(await shortLink());
  assert.equal(new URL(page.url()).origin, shopUrl, 'the short link lands on the shop');
  const clickId = new URL(page.url()).searchParams.get('clickId');
  assert.match(clickId ?? '', /^[0-9a-f]{32}$/);
  await page.getByRole('link', { name: 'Sneakers' }).click();
  await page.getByRole('heading', { name: 'Sneakers' }).waitFor();
  await page.getByRole('link', { name: 'Buy' }).click();
  await page.getByRole('heading', { name: 'Thank you' }).waitFor();

  const reported = (await pollUntil(() => conversion('SHOP-1'), (res) => res.status === 200)).body.data;
  assert.equal(reported.source, 'tag');
  assert.equal(reported.value, 15000);
  assert.equal(reported.clickId, clickId, 'the tag kept the click id across pages');
  assert.equal(reported.affiliateId, 'aff-1');

  const corrected = await api('POST', '/advertiser/conversions', brandKey, { clickId, orderId: 'SHOP-1', value: 14000, items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 14000, categories: 1 }] });
  assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
  const { body } = await conversion('SHOP-1');
  assert.equal(body.data.value, 14000);
  assert.equal(body.data.source, 'api');
  const list = await api('GET', '/advertiser/conversions?orderId=SHOP-1', brandKey);
  assert.equal((list.body.data as unknown as unknown[]).length, 1, 'one order');
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});

test('a shop page without scripts reports through the pixel alone', async () => {
  const page = await visitorPage(false);
  await page.goto(await shortLink());
  await page.getByRole('link', { name: 'Buy without scripts' }).click();
  await page.getByRole('heading', { name: 'Thank you' }).waitFor();
  const reported = (await pollUntil(() => conversion('PIXEL-1'), (res) => res.status === 200)).body.data;
  assert.equal(reported.source, 'pixel');
  assert.equal(reported.value, 5000);
  await page.context().close();
});

test('a customer who never clicked a link buys with an affiliate’s code: the tag’s order lands with that affiliate', async () => {
  const given = await api('PUT', '/advertiser/coupons/ANA10', brandKey, { affiliateId: 'aff-2' });
  assert.ok([200, 201].includes(given.status), JSON.stringify(given.body));
  const page = await visitorPage();
  await page.goto(`${shopUrl}/coupon-checkout`);
  await page.getByRole('heading', { name: 'Thank you' }).waitFor();
  const reported = (await pollUntil(() => conversion('COUPON-1'), (res) => res.status === 200)).body.data;
  assert.equal(reported.source, 'tag');
  assert.equal(reported.attribution, 'coupon');
  assert.equal(reported.affiliateId, 'aff-2');
  assert.equal(reported.clickId, undefined, 'no click: the code alone decided');
  await page.context().close();
});

test('the brand’s tracking page shows the code to paste, the developers’ snippets and what the tag sent, on a desktop and on a phone', async () => {
  for (const width of [1280, 375]) {
    const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/session') && r.request().method() === 'POST'), signInWithPassword(page, OWNER, PASSWORD)]);
    await page.goto('/app/tag');
    await page.getByRole('heading', { name: 'Order tracking', level: 1 }).waitFor();
    await page.getByLabel('Your shop runs on').selectOption({ label: 'Another platform, or a site of my own' });
    const everyPage = await page.getByTestId('snippet-every-page').innerText();
    assert.match(everyPage, /src="[^"]+\/tag\.js\?v=/);
    assert.doesNotMatch(everyPage, /integrity=/, 'a pasted snippet must keep working when the tag is updated');
    await page.getByText('For developers', { exact: true }).click();
    assert.match(await page.getByTestId('snippet-order-page').innerText(), /affnet\('conversion'/);
    assert.ok((await page.getByTestId('tag-report').count()) >= 2, 'the tag’s and the pixel’s reports are listed');
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(scrolls, false, `no sideways scrolling at ${width} px`);
    await page.screenshot({ path: `/tmp/tag-page-${width}.png`, fullPage: true });
    await assertAccessible(page, `the Tag page at ${width} px`);
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});
