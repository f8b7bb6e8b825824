// npm run screenshots: every page of the portal (every route of portal/src/main.tsx), signed in as
// the demo affiliate and the demo brand, at desktop width and at 375 px, into docs/screenshots/. Runs the built service on a
// fresh demo database of its own (nothing else is touched).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser.js';
import { issueDemoStatements } from '../test/helpers/demo-statements.js';
import { openDatabase } from '../src/storage/database.js';

const OUT = 'docs/screenshots';
const WIDTHS = { desktop: 1280, mobile: 375 } as const;
const MAIN = 'dist/server/main.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dir = await mkdtemp(join(tmpdir(), 'affnet-shots-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`, PUBLIC_URL: base, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '' };
execFileSync(process.execPath, [MAIN, 'migrate'], { env, stdio: 'ignore' });
const seeded = execFileSync(process.execPath, [MAIN, 'seed', '--demo'], { env, encoding: 'utf8' });
const password = /with the password \(shown once\):\n(\S+)/.exec(seeded)?.[1];
if (!password) throw new Error(`no demo password in:\n${seeded}`);
// Statements of the demo's commissions, issued as the network will once they have locked.
const demoDatabase = openDatabase(env.DATABASE_URL);
await issueDemoStatements(demoDatabase);
await demoDatabase.close();
// A person invited to the demo affiliate, for the page where they set their password.
const invited = execFileSync(process.execPath, [MAIN, 'users', 'create', '--affiliate', 'aff-demo-1', '--email', 'invited@aff-demo-1.example'], { env, encoding: 'utf8' });
const inviteLink = new URL(invited.trim().split('\n').at(-1)!);
const setPasswordPath = inviteLink.pathname + inviteLink.search + inviteLink.hash;
const server = spawn(process.execPath, [MAIN, 'serve'], { env, stdio: 'inherit' });
for (let i = 0; i < 100; i++) {
  if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The demo brand's name: the affiliate claims a sale of it, which the brand's claims page then lists. */
async function demoBrandName(): Promise<string> {
  const signedIn = await fetch(`${base}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@brand.example', password }) });
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const profile = (await (await fetch(`${base}/advertiser/brand`, { headers: { cookie } })).json()) as { data: { name: string } };
  return profile.data.name;
}
const claimedBrand = await demoBrandName();

const browser = await launchBrowser();
await mkdir(OUT, { recursive: true });
try {
  for (const [size, width] of Object.entries(WIDTHS)) {
    const context = await browser.newContext({ baseURL: base, locale: 'en-US', viewport: { width, height: 800 } });
    const page = await context.newPage();
    const shot = async (name: string, ready: () => Promise<unknown>) => {
      await ready();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(OUT, `${name}-${size}.png`), fullPage: true });
      console.log(`${OUT}/${name}-${size}.png`);
    };
    const signIn = async (email: string) => {
      await page.goto('/app/');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const open = (path: string) => page.goto(`/app${path}`);
    await page.goto(setPasswordPath);
    await shot('set-password', () => page.getByRole('button', { name: 'Save and sign in' }).waitFor());
    await page.goto('/app/forgot-password');
    await shot('forgot-password', () => page.getByRole('button', { name: 'Mail me a link' }).waitFor());
    await page.goto('/app/sign-up');
    await shot('sign-up', () => page.getByRole('button', { name: 'Sign up' }).waitFor());
    await page.goto('/app/apply');
    await shot('apply', () => page.getByRole('button', { name: 'Apply' }).waitFor());
    await page.goto('/app/verify?token=from-the-mail');
    await shot('verify', () => page.getByRole('button', { name: 'Confirm my address' }).waitFor());
    await page.goto('/app/');
    await shot('sign-in', () => page.getByRole('heading', { name: 'Sign in' }).waitFor());

    await signIn('demo@aff-demo-1.example');
    await shot('affiliate-overview', () => page.getByTestId('clicks-30d').waitFor());
    await open('/brands');
    await shot('affiliate-brands', () => page.getByRole('table').waitFor());
    await open('/products');
    await shot('affiliate-products', () => page.getByRole('table').waitFor());
    await open('/campaigns');
    await shot('affiliate-campaigns', () => page.locator('.card').first().waitFor());
    await open('/links');
    await page.getByLabel('Brand', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Make links for my channels' }).click();
    await shot('affiliate-links', () => page.locator('.card').first().waitFor());
    await open('/analytics');
    await shot('affiliate-analytics', () => page.getByRole('img').first().waitFor());
    await open('/orders');
    await shot('affiliate-orders', () => page.getByRole('table').last().waitFor());
    await open('/payouts');
    await shot('affiliate-payouts', () => page.getByRole('heading', { name: 'Payouts' }).waitFor());
    await open('/statements');
    await shot('affiliate-statements', () => page.getByTestId('statement-BRL').waitFor());
    await open('/claims');
    await page.getByLabel('Find a brand').fill(claimedBrand);
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: claimedBrand });
    await page.getByLabel('Order number').fill(`DEMO-CLAIM-${size}`);
    await page.getByLabel('Order date').fill(new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel('Order value').fill('149.90');
    await page.getByLabel('Note for the brand').fill('The customer sent me the order confirmation.');
    await page.getByRole('button', { name: 'Send the claim' }).click();
    await shot('affiliate-claims', () => page.getByTestId(`claim-DEMO-CLAIM-${size}`).waitFor());
    await open('/payee');
    await shot('affiliate-payee', () => page.getByRole('heading', { name: 'Enter your payout details' }).waitFor());
    await open('/channels');
    await shot('affiliate-channels', () => page.getByRole('table').waitFor());
    await open('/webhooks');
    await shot('affiliate-webhooks', () => page.getByRole('heading', { name: 'Webhooks' }).waitFor());
    await open('/team');
    await shot('affiliate-team', () => page.getByRole('table').waitFor());
    await open('/keys');
    await shot('affiliate-keys', () => page.getByRole('heading', { name: 'API keys' }).waitFor());
    await signInElsewhere('demo@aff-demo-1.example');
    await open('/security');
    await shot('affiliate-security', () => page.getByRole('button', { name: 'Sign out everywhere else' }).waitFor());
    await page.getByRole('button', { name: 'Set up an app' }).click();
    await shot('affiliate-security-app', () => page.getByTestId('totp-secret').waitFor());
    await signOut(page);

    await signIn('demo@brand.example');
    await shot('brand-overview', () => page.getByRole('img').first().waitFor());
    await open('/conversions');
    await shot('brand-conversions', () => page.getByRole('table').waitFor());
    await page.getByRole('table').getByRole('link').first().click();
    await shot('brand-conversion', () => page.getByRole('heading', { name: 'History' }).waitFor());
    await open('/claims');
    await shot('brand-claims', () => page.getByTestId(`claim-DEMO-CLAIM-${size}`).waitFor());
    await open('/statements');
    await shot('brand-statements', () => page.getByRole('table').waitFor());
    await page.getByRole('table').getByRole('link').first().click();
    await shot('brand-statement', () => page.getByTestId('statement-total').waitFor());
    await open('/analytics');
    await page.getByLabel('Break down by').selectOption({ label: 'Affiliate' });
    await shot('brand-analytics', () => page.getByRole('table').waitFor());
    await open('/catalogue');
    await shot('brand-catalogue', () => page.getByRole('table').last().waitFor());
    await open('/profile');
    await shot('brand-profile', () => page.getByRole('heading', { name: 'Change' }).waitFor());
    await open('/affiliates');
    await shot('brand-affiliates', () => page.getByRole('heading', { name: 'Affiliates' }).waitFor());
    await open('/webhooks');
    await shot('brand-webhooks', () => page.getByRole('heading', { name: 'Webhooks' }).waitFor());
    await open('/team');
    await shot('brand-team', () => page.getByRole('table').waitFor());
    await open('/keys');
    await shot('brand-keys', () => page.getByRole('heading', { name: 'API keys' }).waitFor());
    await open('/security');
    await shot('brand-security', () => page.getByRole('table').waitFor());
    if (size === 'mobile') {
      // The menu, folded on a phone, once open.
      await page.getByRole('button', { name: 'Menu' }).click();
      await shot('brand-menu', () => page.getByRole('button', { name: 'Sign out', exact: true }).waitFor());
      await page.getByRole('button', { name: 'Menu' }).click();
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}

/** The same person signed in on a phone too, so the security page lists more than this browser. */
async function signInElsewhere(email: string): Promise<void> {
  const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const res = await fetch(`${base}/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': phone }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`signing in elsewhere failed: ${res.status} ${await res.text()}`);
}

async function signOut(page: Page): Promise<void> {
  // On a phone sign-out is inside the folded menu.
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}
