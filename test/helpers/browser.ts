// Headless Chromium from Debian's packages, driven by playwright-core, for the portal's tests and
// screenshots; and the accessibility check every page must pass (axe: no serious or critical
// violation).
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import axe from 'axe-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/**
 * Fails on any serious or critical accessibility violation of the page as it is now. axe runs in
 * the page itself, loaded once per document: the portal moves between pages within one document,
 * and loading axe's 1.3 MB again for each scan (twice, as @axe-core/playwright does) was most of a
 * scan's cost. The portal has no frames, so the page's own document is all there is to scan. Only
 * violations are asked for.
 */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.evaluate(axe.source);
  const grave = await page.evaluate(async () => {
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  });
  assert.deepEqual(grave, [], `${what}: accessibility violations`);
}

/**
 * Follows an entry of the menu (named in English or Portuguese): one in the menu itself, or one of
 * an affiliate's pages listed under the menu's "Settings and tools" entry. The menu must be in sight
 * (opened, on a phone).
 */
export async function followMenu(page: Page, name: string, { exact = true }: { exact?: boolean } = {}): Promise<void> {
  const menu = page.getByRole('navigation', { name: /^(Main menu|Menu principal)$/ });
  await menu.waitFor();
  const entry = menu.getByRole('link', { name, exact });
  if ((await entry.count()) > 0) return entry.click();
  await menu.getByRole('link', { name: /^(Settings and tools|Configurações e ferramentas)$/ }).click();
  await page.getByRole('main').getByRole('link', { name, exact }).click();
}

/** The requests each page has in flight, watched from its first in-app opening on. */
const inFlight = new WeakMap<Page, Set<Request>>();

function requestsInFlight(page: Page): Set<Request> {
  let requests = inFlight.get(page);
  if (!requests) {
    const held = new Set<Request>();
    page.on('request', (request) => held.add(request));
    page.on('requestfinished', (request) => held.delete(request));
    page.on('requestfailed', (request) => held.delete(request));
    inFlight.set(page, (requests = held));
  }
  return requests;
}

/**
 * Opens `path` of the portal as its own links do: history.pushState, which the router follows,
 * in the app already loaded, as for a person moving between pages (loading the whole app for each
 * page, then waiting for half a second without requests, took half the time of the tests that
 * walk every page). A page already open is loaded afresh by its address. Resolves once the new
 * page's heading is on screen and no request has been in flight for three frames; a page whose
 * heading stays the previous page's element fails here, never passes unseen.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const requests = requestsInFlight(page);
  const moved = await page.evaluate((to) => {
    if (`${location.pathname}${location.search}` === to) return false;
    document.querySelectorAll('main h1').forEach((heading) => heading.setAttribute('data-before-navigation', ''));
    history.pushState(null, '', to);
    return true;
  }, path);
  // Already there: the page is loaded afresh, as it would be by its address, not left as it was.
  if (!moved) await page.goto(path);
  await page
    .locator('main h1:not([data-before-navigation])')
    .first()
    .waitFor()
    .catch((error: Error) => {
      throw new Error(`${path}: no heading of its own appeared (${error.message.split('\n')[0]})`);
    });
  const deadline = Date.now() + 15_000;
  for (let quiet = 0; quiet < 3; ) {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    quiet = requests.size === 0 ? quiet + 1 : 0;
    if (Date.now() > deadline) throw new Error(`${path}: requests still in flight after 15 s: ${[...requests].map((r) => r.url()).join(', ')}`);
  }
}
