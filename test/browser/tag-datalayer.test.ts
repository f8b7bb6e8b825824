/// <reference lib="dom" />
// A shop that installed only the every-page snippet and made no conversion call: the tag reports
// the purchase event the shop's own analytics push to window.dataLayer (Google Analytics 4 as Google
// Tag Manager and shop platforms push it, or Universal Analytics' older shape), once per order, in
// integer cents. The shop (a server of this test, at shop.localhost) and the network (the built
// server) are two origins, as in a real install. A page that calls affnet('conversion') itself and
// pushes the same order reports the call's order. The brand's tracking page guides a Google Tag
// Manager shop in Portuguese, and a test order sent from it is shown as received, never as an order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from 'playwright-core';
import { redisEnv, servicesFor } from '../helpers/databases.js';
import { buildWorld, BRANDS, type World } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { pollUntil } from '../helpers/wait.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'owner@acme.example';
let shop: Server;
let shopUrl = '';
let world: World;
let brandKey = '';
let everyPage = '';
const pageErrors: string[] = [];

/** GA4's purchase event as Google Tag Manager's ecommerce guide has shops push it: 129,61 + 0,29 = 129,90 BRL. */
const ga4Purchase = (orderId: string) =>
  JSON.stringify({
    event: 'purchase',
    ecommerce: {
      transaction_id: orderId,
      value: 129.9,
      currency: 'BRL',
      coupon: 'ANA10',
      items: [
        { item_id: 'sku-1', item_name: 'Sneakers', price: 129.61, quantity: 1, item_category: 'Shoes' },
        { item_id: 'sku-2', item_name: 'Sticker', price: 0.29, quantity: 1, item_category: 'Gifts' },
      ],
    },
  });

/** Universal Analytics' enhanced ecommerce purchase, as older shop themes still push it. */
const uaPurchase = (orderId: string) =>
  JSON.stringify({
    event: 'purchase',
    ecommerce: { currencyCode: 'BRL', purchase: { actionField: { id: orderId, revenue: '80.00', coupon: 'ANA10' }, products: [{ id: 'sku-3', name: 'Socks', price: '40.00', quantity: 2, category: 'Socks' }] } },
  });

/** The shop's pages: each has the every-page snippet in its head and no affnet('conversion') call unless it says so. */
function shopPage(path: string, query: URLSearchParams): string {
  const page = (title: string, head: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}${everyPage}</head><body><h1>${title}</h1>${body}</body></html>`;
  const order = query.get('order') ?? 'NONE';
  switch (path) {
    case '/':
      return page('Acme shop', '', '<a href="/checkout?order=GA4-1">Checkout</a>');
    case '/checkout':
      // A one-page checkout: confirming pushes the purchase, after the tag has loaded; a second click pushes it again.
      return page(
        'Checkout',
        '',
        `<button type="button" onclick='window.dataLayer=window.dataLayer||[];dataLayer.push({ecommerce:null});dataLayer.push(${ga4Purchase(order)});document.querySelector("output").textContent="Thank you"'>Confirm order</button><output></output>`,
      );
    case '/checkout-call':
      // A one-page checkout whose confirmation pushes the purchase and calls affnet('conversion') in the same handler.
      return page(
        'Checkout',
        '',
        `<button type="button" onclick='dataLayer.push(${ga4Purchase(order)});affnet("conversion",{orderId:"${order}",value:15000,currency:"BRL",coupon:"ANA10"})'>Confirm order</button>`,
      );
    case '/thanks-early':
      // Pushed in the head, before the snippet: the event is in the array before the tag loads.
      return page('Thank you', `<script>window.dataLayer=window.dataLayer||[];dataLayer.push(${ga4Purchase(order)});</script>`, `<p>Order ${order}</p>`);
    case '/thanks-ua':
      return page('Thank you', '', `<p>Order ${order}</p><script>window.dataLayer=window.dataLayer||[];dataLayer.push(${uaPurchase(order)});</script>`);
    case '/thanks-both':
      // The analytics event first, the shop's own call at the page's load: the call's order (150,00) is the one reported.
      return page(
        'Thank you',
        `<script>window.dataLayer=window.dataLayer||[];dataLayer.push(${ga4Purchase(order)});addEventListener('load',function(){affnet('conversion',{orderId:'${order}',value:15000,currency:'BRL',coupon:'ANA10'})});</script>`,
        `<p>Order ${order}</p>`,
      );
    default:
      return page('Not found', '', '');
  }
}

const api = async (method: string, path: string, key: string, body?: object) => {
  const res = await fetch(`${portal.server.url}${path}`, { method, headers: { 'x-api-key': key, ...(body && { 'content-type': 'application/json' }) }, ...(body && { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
};

const portal = portalUnderTest({
  world: false,
  // With TEST_REDIS_URL the network keeps its per-address report limits in Redis, as deployed.
  env: () => redisEnv(),
  prepare: async (database) => {
    shop = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://shop.localhost');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(url.pathname, url.searchParams));
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://shop.localhost:${(shop.address() as AddressInfo).port}`;
    world = await buildWorld(database);
    await database.db.updateTable('brands').set({ site: `${shopUrl}/`, home_url: `${shopUrl}/`, domains: '[]' }).where('id', '=', BRANDS.acme).execute();
    const services = servicesFor(database);
    await services.users.createWithPassword({ brandId: BRANDS.acme }, OWNER, 'owner', PASSWORD);
    brandKey = (await services.access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 })).key;
  },
  alsoClose: async () => {
    shop?.close();
  },
  started: async () => {
    const made = await fetch(`${portal.server.url}/advertiser/tag/publishable-key`, { method: 'POST', headers: { 'x-api-key': brandKey } });
    assert.equal(made.status, 201);
    everyPage = ((await made.json()) as { data: { snippets: { everyPage: string } } }).data.snippets.everyPage;
    const given = await api('PUT', '/advertiser/coupons/ANA10', brandKey, { affiliateId: 'aff-2' });
    assert.ok([200, 201].includes(given.status), JSON.stringify(given.body));
  },
});

/** A visitor's page, and how many reports its tag sent to the network (the browser does not show a beacon's body). */
async function visitorPage(): Promise<{ page: Page; sent: { reports: number } }> {
  const context = await portal.browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const sent = { reports: 0 };
  page.on('request', (request) => {
    if (isReport(request)) sent.reports += 1;
  });
  return { page, sent };
}

const isReport = (request: Request) => request.url() === `${portal.server.url}/track/conversions`;

let marks = 0;
/**
 * Returns once everything the page's tag was going to send has been seen: after the page's load
 * and the tag's turn after it (when it reports what the dataLayer held), the page fetches a marker
 * address of the shop, and the browser announces a page's requests in the order the page made them.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  const marker = `${shopUrl}/settled?n=${++marks}`;
  await Promise.all([
    page.waitForRequest(marker),
    page.evaluate(async (url) => {
      await new Promise((resolve) => setTimeout(resolve));
      await fetch(url);
    }, marker),
  ]);
}

const conversion = async (orderId: string) => (await pollUntil(() => api('GET', `/advertiser/conversions/${orderId}`, brandKey), (res) => res.status === 200)).body.data;
const ordersNamed = async (orderId: string) => (await api('GET', `/advertiser/conversions?orderId=${orderId}`, brandKey)).body.data as unknown as unknown[];

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

test('a visitor from a short link confirms a one-page checkout: the GA4 purchase is reported once, 129,90 BRL as 12990 cents, with its coupon and lines', async () => {
  const { page, sent } = await visitorPage();
  await page.goto(await shortLink());
  const clickId = new URL(page.url()).searchParams.get('clickId');
  assert.match(clickId ?? '', /^[0-9a-f]{32}$/);
  await page.getByRole('link', { name: 'Checkout' }).click();
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  // The shop's script pushes when the visitor confirms, long after the tag loaded.
  await page.waitForFunction(() => typeof (window as unknown as { affnet: { q?: unknown } }).affnet.q === 'undefined');
  await Promise.all([page.waitForRequest(isReport), page.getByRole('button', { name: 'Confirm order' }).click()]);
  await page.getByRole('button', { name: 'Confirm order' }).click();
  await settled(page);
  assert.equal(sent.reports, 1, 'the same purchase pushed twice is sent once');

  const reported = await conversion('GA4-1');
  assert.equal(reported.source, 'tag');
  assert.equal(reported.value, 12990);
  assert.equal(reported.coupon, 'ANA10');
  assert.equal(reported.clickId, clickId, 'the click id kept from the landing page goes with it');
  assert.deepEqual(reported.items, [
    { id: 'sku-1', name: 'Sneakers', quantity: 1, price: 12961, categories: 0 },
    { id: 'sku-2', name: 'Sticker', quantity: 1, price: 29, categories: 0 },
  ]);

  // A reload pushes it again: the network keeps the first.
  await page.reload();
  await page.getByRole('button', { name: 'Confirm order' }).click();
  await settled(page);
  assert.equal(sent.reports, 2, 'the reloaded page sent it once more');
  assert.equal((await ordersNamed('GA4-1')).length, 1, 'one order');
  assert.equal((await conversion('GA4-1')).value, 12990);
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});

test('an order page that pushes the purchase before the tag loads is reported too', async () => {
  const { page, sent } = await visitorPage();
  await page.goto(`${shopUrl}/thanks-early?order=EARLY-1`);
  await settled(page);
  assert.equal(sent.reports, 1);
  const reported = await conversion('EARLY-1');
  assert.equal(reported.value, 12990);
  assert.equal(reported.coupon, 'ANA10');
  assert.equal(reported.attribution, 'coupon');
  assert.equal(reported.affiliateId, 'aff-2', 'the code alone decided');
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});

test('an order page with Universal Analytics’ purchase shape is reported', async () => {
  const { page, sent } = await visitorPage();
  await page.goto(`${shopUrl}/thanks-ua?order=UA-1`);
  await settled(page);
  assert.equal(sent.reports, 1);
  const reported = await conversion('UA-1');
  assert.equal(reported.value, 8000);
  assert.equal(reported.coupon, 'ANA10');
  assert.deepEqual(reported.items, [{ id: 'sku-3', name: 'Socks', quantity: 2, price: 4000, categories: 0 }]);
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});

test('a page that calls affnet(conversion) and pushes the purchase of the same order reports the call’s order, once', async () => {
  const { page, sent } = await visitorPage();
  await page.goto(`${shopUrl}/thanks-both?order=BOTH-1`);
  await settled(page);
  assert.equal(sent.reports, 1);
  const reported = await conversion('BOTH-1');
  assert.equal(reported.value, 15000, 'the shop’s own call, not the analytics event (12990)');
  assert.equal((await ordersNamed('BOTH-1')).length, 1);
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});

test('a shop owner in Portuguese picks Google Tag Manager, reads its steps, sends a test order from a phone and sees it received, never as an order', async () => {
  for (const width of [1280, 375]) {
    const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto('/app/');
    await page.getByLabel('E-mail').fill(OWNER);
    await page.getByLabel('Senha').fill(PASSWORD);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/session') && r.request().method() === 'POST'), page.getByRole('button', { name: 'Entrar' }).click()]);
    await page.goto('/app/tag');
    await page.getByRole('heading', { name: 'Rastreamento de pedidos', level: 1 }).waitFor();
    await page.getByLabel('Sua loja usa').selectOption({ label: 'Google Tag Manager' });
    const steps = await page.getByTestId('guide-steps').innerText();
    assert.match(steps, /HTML personalizado/);
    assert.match(steps, /Todas as páginas/);
    assert.match(steps, /Google Analytics 4/, 'the purchase event of their analytics is enough');
    assert.match(await page.getByTestId('snippet-every-page').innerText(), /affnet\('init'/);
    assert.equal(await page.getByText('Chave publicável').isVisible(), false, 'the key waits under “Para desenvolvedores”');

    if (width === 375) {
      await page.getByRole('button', { name: 'Enviar um pedido de teste' }).click();
      const [shopPage] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Abrir sua loja pelo link de teste' }).click()]);
      await shopPage.getByRole('heading', { name: 'Acme shop' }).waitFor();
      await page.getByText('Seu código de rastreamento está na loja').waitFor();
      await shopPage.goto(`${shopUrl}/checkout?order=TEST-GA4`);
      await shopPage.waitForFunction(() => typeof (window as unknown as { affnet: { q?: unknown } }).affnet.q === 'undefined');
      await shopPage.getByRole('button', { name: 'Confirm order' }).click();
      const received = page.getByTestId('test-order');
      await received.getByText('Pedido de teste recebido.').waitFor();
      const facts = await received.innerText();
      assert.match(facts, /TEST-GA4/);
      assert.match(facts, /R\$\s129,90/);
      assert.match(facts, /ANA10/);
      assert.match(facts, /2 linhas/);
      assert.deepEqual(await ordersNamed('TEST-GA4'), [], 'a test order is no order of the brand');
      assert.equal((await api('GET', '/affiliate/orders/TEST-GA4', world.keys.aff1)).status, 404);
      await shopPage.close();
    }
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(scrolls, false, `no sideways scrolling at ${width} px`);
    await page.screenshot({ path: `/tmp/tag-guide-${width}.png`, fullPage: true });
    await assertAccessible(page, `the order tracking page at ${width} px`);
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('a one-page checkout that pushes the purchase and calls affnet(conversion) when the visitor confirms reports the call’s order', async () => {
  const { page, sent } = await visitorPage();
  await page.goto(`${shopUrl}/checkout-call?order=CALL-1`);
  await settled(page);
  assert.equal(sent.reports, 0, 'nothing before the visitor confirms');
  await page.getByRole('button', { name: 'Confirm order' }).click();
  await settled(page);
  assert.equal(sent.reports, 1);
  const reported = await conversion('CALL-1');
  assert.equal(reported.value, 15000, 'the shop’s own call, not the analytics event pushed just before it (12990)');
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});
