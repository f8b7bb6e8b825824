/// <reference lib="dom" />
// Links made automatically on a creator's own site, in headless Chromium against the built server.
// The creator's blog (a server of this test, at blog.localhost on a port of its own) carries the
// snippet of its site channel and links to two member brands' shops (Acme, public; Initech,
// private and not approving this affiliate, both served by this test at *.localhost) and to an
// unrelated site. Once links.js has loaded, the link to Acme is marked rel="sponsored" and a click
// on it goes through the channel's short link to exactly the page linked, and counts; the other
// two stay plain and lead where they pointed; following Acme's link again uses the same short
// link. Then the creator's "Links automáticos" page, in Portuguese, on a computer and a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from 'playwright-core';
import { redisEnv, servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { pollUntil } from '../helpers/wait.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const OWNER = 'ana@travelblog.example';
const CHANNEL = 'ch-aff1-site';
let blog: Server;
let shops: Server;
let blogUrl = '';
let shopsPort = 0;
let apiKey = '';
let snippet = '';
const pageErrors: string[] = [];

const shop = (host: string, path: string) => `http://${host}.localhost:${shopsPort}${path}`;
const PUBLIC_TARGET = () => shop('shop', '/p/red-sneakers?size=42');
const PRIVATE_TARGET = () => shop('private', '/stapler');
const UNRELATED_TARGET = () => shop('elsewhere', '/a-page');

/** The creator's post: three links, and the snippet at the end of the body, as a theme's footer puts it. */
const post = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Best sneakers</title></head><body>
<h1>Best sneakers of the year</h1>
<p>My favourite: <a id="public" href="${PUBLIC_TARGET()}">red sneakers at Acme</a>.</p>
<p>For the office: <a id="private" href="${PRIVATE_TARGET()}">a stapler at Initech</a>.</p>
<p>Read more <a id="unrelated" href="${UNRELATED_TARGET()}">elsewhere</a>.</p>
${snippet}
</body></html>`;

const get = async (path: string) => {
  const res = await fetch(`${portal.server.url}${path}`, { headers: { 'x-api-key': apiKey } });
  assert.equal(res.status, 200, path);
  return res.json() as Promise<unknown>;
};

const portal = portalUnderTest({
  // With TEST_REDIS_URL the script's limits are counted in Redis, as deployed. The brands' shops
  // on loopback speak plain http: the switch that allows local targets keeps their pages http.
  env: () => ({ ...redisEnv(), CLICK_FLUSH_MS: '100', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' }),
  prepare: async (database) => {
    blog = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(request.url === '/best-sneakers' ? post() : '<!doctype html><title>Blog</title>');
    });
    shops = createServer((request, response) => {
      const host = (request.headers.host ?? '').split(':')[0];
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${host}</title><h1>${host}${request.url}</h1>`);
    });
    await new Promise<void>((resolve) => blog.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => shops.listen(0, '127.0.0.1', resolve));
    blogUrl = `http://blog.localhost:${(blog.address() as AddressInfo).port}`;
    shopsPort = (shops.address() as AddressInfo).port;
    // The brands' shops on loopback: Acme public, Initech private and not approving aff-1.
    await database.db.updateTable('brands').set({ site: shop('shop', '/'), home_url: shop('shop', '/'), domains: '[]' }).where('id', '=', BRANDS.acme).execute();
    await database.db.updateTable('brands').set({ site: shop('private', '/'), home_url: shop('private', '/'), domains: '[]' }).where('id', '=', BRANDS.initech).execute();
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, OWNER, 'owner', PASSWORD);
    apiKey = (await services.access.createApiKey({ affiliateId: 'aff-1', rateLimit: 100_000 })).key;
    await services.channels.update('aff-1', CHANNEL, { site: blogUrl });
    await services.linkScripts.setSites('aff-1', CHANNEL, [blogUrl]);
    await services.linkScripts.replaceKey('aff-1', CHANNEL);
  },
  alsoClose: async () => {
    blog?.close();
    shops?.close();
  },
  started: async () => {
    snippet = ((await get(`/affiliate/link-script/${CHANNEL}`)) as { data: { snippet: string } }).data.snippet;
    assert.match(snippet, /^<script defer src="http:\/\/127\.0\.0\.1:\d+\/links\.js\?v=[0-9a-f]{12}" data-key="aflnk_[0-9A-Za-z]{24}"><\/script>$/);
  },
});

/** A reader of the blog, with a browser's user agent (a headless one would be counted as a bot), and the pages it navigated to. */
async function reader(): Promise<{ page: Page; navigations: string[]; calls: Request[] }> {
  const context = await portal.browser.newContext({ locale: 'en-US', userAgent: BROWSER_UA });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const navigations: string[] = [];
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(request.url());
    if (request.url().startsWith(`${portal.server.url}/links/`)) calls.push(request);
  });
  return { page, navigations, calls };
}

/** Opens the post and waits until links.js has read which links are the brands' (it marks them). */
async function openPost(page: Page): Promise<void> {
  await page.goto(`${blogUrl}/best-sneakers`);
  await page.waitForFunction(() => (document.getElementById('public')?.getAttribute('rel') ?? '').includes('sponsored'));
}

/** The creator signs in to the portal, in Portuguese. */
async function signIn(page: Page): Promise<void> {
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(OWNER);
  await page.getByLabel('Senha').fill(PASSWORD);
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/session') && r.request().method() === 'POST'), page.getByRole('button', { name: 'Entrar' }).click()]);
}

const shortUrlOf = (navigations: string[]) => navigations.find((url) => url.startsWith(`${portal.server.url}/`));

test('a reader follows the link to a member brand: through the channel’s short link to the very page, counted; other links stay plain; the same link the second time', async () => {
  const { page, navigations, calls } = await reader();
  try {
    await openPost(page);
    assert.equal(await page.locator('#public').getAttribute('rel'), 'sponsored');
    assert.equal(await page.locator('#private').getAttribute('rel'), null, 'a private brand without approval is no brand of this affiliate’s');
    assert.equal(await page.locator('#unrelated').getAttribute('rel'), null);
    assert.equal(calls.filter((c) => c.url().includes('/links/domains')).length, 1, 'one request for the brands’ domains');
    assert.equal(calls.filter((c) => c.url().includes('/links/auto')).length, 0, 'no link is made before a reader follows one');

    // The brand's link: through a short link of the network, landing on the page linked with the click's id.
    await page.locator('#public').click();
    await page.waitForURL((url) => url.host === `shop.localhost:${shopsPort}` && url.pathname === '/p/red-sneakers');
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('size'), '42', 'the page linked, as it was');
    assert.match(landed.searchParams.get('clickId') ?? '', /^[0-9a-f]{32}$/, 'the click’s id, for the brand’s tag');
    const first = shortUrlOf(navigations);
    assert.ok(first, `through a short link of the network: ${navigations.join(', ')}`);
    assert.match(first, new RegExp(`^${portal.server.url}/[0-9A-Za-z]{7}$`));
    assert.equal(calls.filter((c) => c.url().includes('/links/auto')).length, 1);

    // The click counts on the link, listed with the affiliate's links.
    const code = first.slice(portal.server.url.length + 1);
    const countOf = async () => {
      const [group] = (await get('/affiliate/shortener/urls?type=Custom')) as Array<{ data: Array<{ urlCode: string; count: number; originalUrl: string; channel: { id: string } }> }>;
      return group!.data.find((l) => l.urlCode === code);
    };
    const listed = await pollUntil(countOf, (link) => link?.count === 1, { timeoutMs: 30_000, everyMs: 200 });
    assert.equal(listed?.count, 1, 'the click counts, as any click through the redirect');
    assert.equal(listed.originalUrl, PUBLIC_TARGET());
    assert.equal(listed.channel.id, CHANNEL);

    // The private brand's link and the unrelated one: plain, where they pointed, nothing asked.
    for (const [id, target] of [
      ['private', PRIVATE_TARGET()],
      ['unrelated', UNRELATED_TARGET()],
    ] as const) {
      await openPost(page);
      navigations.length = 0;
      const made = calls.filter((c) => c.url().includes('/links/auto')).length;
      await page.locator(`#${id}`).click();
      await page.waitForURL(target);
      assert.equal(page.url(), target, `${id}: where it pointed`);
      assert.equal(shortUrlOf(navigations), undefined, `${id}: no short link`);
      assert.equal(calls.filter((c) => c.url().includes('/links/auto')).length, made, `${id}: no link asked for`);
    }

    // Acme's link again, on a new visit: the same short link.
    await openPost(page);
    navigations.length = 0;
    await page.locator('#public').click();
    await page.waitForURL((url) => url.host === `shop.localhost:${shopsPort}`);
    assert.equal(shortUrlOf(navigations), first, 'the same page gives the same short link');
    assert.deepEqual(pageErrors, []);
  } finally {
    await page.context().close();
  }
});

test('the creator’s “Links automáticos” page in Portuguese: the code to copy, where it works, the links it made; on a computer and a phone', async () => {
  for (const width of [1280, 375]) {
    const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.server.url });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      await signIn(page);
      if (width === 1280) await followMenu(page, 'Links automáticos');
      else await page.goto('/app/auto-links');
      await page.getByRole('heading', { name: 'Links automáticos', level: 1 }).waitFor();

      const code = page.getByTestId('auto-links-snippet');
      assert.equal(await code.innerText(), snippet, 'the code to paste, whole');
      await page.getByRole('heading', { name: 'Onde funciona' }).waitFor();
      assert.deepEqual(await page.getByTestId('auto-links-site').locator('span').allInnerTexts(), [blogUrl]);
      const made = page.locator('[data-testid^="auto-link-"]');
      await made.first().waitFor();
      const row = await made.first().innerText();
      assert.match(row, /Acme/);
      assert.ok(row.includes(PUBLIC_TARGET()), row);

      if (width === 1280) {
        await page.getByRole('button', { name: 'Copiar: O código para colar' }).click();
        await page.getByText('Copiado', { exact: true }).waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
        // A site of another domain is refused, saying which and why; one of the blog's is added, then removed.
        await page.getByLabel('Adicionar um endereço do seu site').fill('www.acme.com');
        await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
        const refusal = await page.getByRole('alert').innerText();
        assert.match(refusal, /https:\/\/www\.acme\.com não está em blog\.localhost/);
        await page.getByLabel('Adicionar um endereço do seu site').fill(`www.blog.localhost:${new URL(blogUrl).port}`);
        await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
        await page.getByTestId('auto-links-site').nth(1).waitFor();
        await page.getByRole('button', { name: `Remover https://www.blog.localhost:${new URL(blogUrl).port}` }).click();
        await page.getByTestId('auto-links-site').nth(1).waitFor({ state: 'detached' });
      }
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, `no sideways scrolling at ${width} px`);
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/auto-links-${width}.png`, fullPage: true });
      await assertAccessible(page, `the automatic links page at ${width} px`);
    } finally {
      await context.close();
    }
  }
  assert.deepEqual(pageErrors, []);
});

test('a new code: the old one stops working at once, and the blog’s links stay plain until the new one is pasted', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR' });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  try {
    await signIn(page);
    await page.goto('/app/auto-links');
    const code = page.getByTestId('auto-links-snippet');
    assert.equal(await code.innerText(), snippet);
    await page.getByRole('button', { name: 'Criar um novo código' }).click();
    await page.waitForFunction((old) => document.querySelector('[data-testid="auto-links-snippet"]')?.textContent !== old, snippet);
    const renewed = await code.innerText();
    assert.match(renewed, /data-key="aflnk_/);
  } finally {
    await context.close();
  }
  // The blog still has the old code: the reader goes to the plain link.
  const { page: visit, navigations } = await reader();
  try {
    await visit.goto(`${blogUrl}/best-sneakers`);
    await visit.locator('#public').click();
    await visit.waitForURL(PUBLIC_TARGET());
    assert.equal(shortUrlOf(navigations), undefined, 'the old code makes no links');
  } finally {
    await visit.context().close();
  }
});
