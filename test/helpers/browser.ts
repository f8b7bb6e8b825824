// Headless Chromium from Debian's packages, driven by playwright-core, for the portal's tests and
// screenshots; and the accessibility check every page must pass (axe: no serious or critical
// violation).
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/**
 * Fails on any serious or critical accessibility violation of the page as it is now. axe runs in
 * the page itself (its "legacy" mode): the portal has no frames from other origins, for which the
 * default opens a blank page to gather each scan's results, two thirds of a scan's time. Only
 * violations are reported in full.
 */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] }).analyze();
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    grave.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `${what}: accessibility violations`,
  );
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
