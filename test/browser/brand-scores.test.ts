/// <reference lib="dom" />
// The affiliate's brand list shows each brand's network scores as the server computed them (its
// brand-scores task runs when it starts), and "Not enough data yet" for a brand without any; a
// brand's own page shows its scores with its EPC and median time to decision; at 1280 and 375 px,
// never scrolling sideways on the phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { pollUntil } from '../helpers/wait.js';
import { DEMO_AFFILIATE_USER, seedDemo } from '../../src/seed/demo.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const NEW_BRAND = 'e0000000-0000-4000-8000-0000000000aa';
const NAMES = { approval: 'Approval', commission: 'Commission', conversion: 'Conversion', popularity: 'Popularity', validation: 'Validation speed' } as const;
const BITS = { approval: 1, commission: 2, conversion: 4, popularity: 8, validation: 16 } as const;

const portal = portalUnderTest({
  world: false,
  prepare: async (database) => {
    const services = servicesFor(database);
    await seedDemo(services, () => {}, { userPassword: PASSWORD, activityOn: database });
    // A public brand with no orders at all, first by name: it has no scores (the server scores every
    // brand with an order, SCORES_MIN_ORDERS=1, so the demo's first page has brands with scores).
    await services.imports.upsertBrand(brandInput({ id: NEW_BRAND, name: 'AAA Brand Just Arrived', slug: 'aaa-just-arrived', site: 'https://www.aaa-just-arrived.example' }));
  },
  env: { SCHEDULE_POLL_MS: '200', SCORES_MIN_ORDERS: '1' },
});

test('brand rows show the computed scores, or "Not enough data yet"; they fit at 1280 and 375 px', async () => {
  // The service's first brand-scores run judges every brand.
  await pollUntil(async () => (await portal.database.db.selectFrom('brands').select('id').where('scores_computed_at', 'is', null).execute()).length, (left) => left === 0, { timeoutMs: 30_000 });
  const rows = await portal.database.db.selectFrom('brands').select(['id', 'ratings_absent', 'rating_approval', 'rating_commission', 'rating_conversion', 'rating_popularity', 'rating_validation']).execute();
  const shots = await mkdtemp(join(tmpdir(), 'brand-scores-'));
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => assert.fail(`uncaught error: ${error.message}`));
  try {
    await page.goto('/app/');
    await page.getByLabel('E-mail').fill(DEMO_AFFILIATE_USER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'detached' });
    await page.goto('/app/brands');
    await page.getByTestId(`brand-${NEW_BRAND}`).waitFor().catch(async (error: unknown) => {
      await page.screenshot({ path: join(shots, 'failed.png'), fullPage: true });
      throw new Error(`${String(error)} (page: ${join(shots, 'failed.png')})`);
    });
    let scored = 0;
    let unscored = 0;
    for (const testId of await page.locator('[data-testid^="brand-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))) {
      const row = rows.find((r) => `brand-${r.id}` === testId)!;
      const cell = page.getByTestId(testId).locator('td').nth(2);
      const text = (await cell.innerText()).replace(/\s+/g, ' ').trim();
      if (Number(row.ratings_absent) === 31) {
        unscored++;
        assert.equal(text, 'Not enough data yet', testId);
        continue;
      }
      scored++;
      const shown = Object.entries(NAMES)
        .filter(([name]) => (Number(row.ratings_absent) & BITS[name as keyof typeof BITS]) === 0)
        .map(([name, label]) => `${label} ${row[`rating_${name}` as 'rating_approval']}`)
        .join(' ');
      assert.equal(text, shown, testId);
    }
    assert.ok(unscored >= 1, 'a brand without scores is on the page');
    assert.ok(scored >= 1, 'a brand with scores is on the page (the demo has enough orders for some)');
    await page.screenshot({ path: join(shots, 'brands-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByTestId(`brand-${NEW_BRAND}`).waitFor();
    await page.screenshot({ path: join(shots, 'brands-375.png'), fullPage: true });
    await page.getByTestId(`brand-${NEW_BRAND}`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'brands-375-first-cards.png') });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll at 375 px');

    // A scored brand's own page: its scores, EPC and median days to decision as the API gives them.
    const scoredRow = rows.find((r) => Number(r.ratings_absent) !== 31)!;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const [response] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(`/affiliate/brands/${scoredRow.id}`)),
        page.goto(`/app/brands/${scoredRow.id}`),
      ]);
      const detail = ((await response.json()) as { data: unknown }).data as { currency: string; network: { rating: Record<string, number | undefined>; epc?: number; medianDaysToDecision?: number } };
      const section = page.getByTestId('brand-scores');
      await section.waitFor();
      const text = (await section.innerText()).replace(/\s+/g, ' ');
      for (const [name, label] of Object.entries(NAMES)) {
        const value = detail.network.rating[name];
        if (value !== undefined) assert.ok(text.includes(`${label} ${value} of 5`), `${label} ${value} of 5 in "${text}"`);
      }
      assert.ok(detail.network.epc !== undefined && detail.network.medianDaysToDecision !== undefined, 'the scored brand has an EPC and a median time to decision');
      const epc = new Intl.NumberFormat('en-US', { style: 'currency', currency: detail.currency }).format(detail.network.epc / 100);
      assert.ok(text.includes(`Commission per 100 clicks ${epc}`), `EPC ${epc} in "${text}"`);
      assert.ok(text.includes(`Median time to approve or cancel an order ${detail.network.medianDaysToDecision} days`), text);
      await page.screenshot({ path: join(shots, `brand-detail-${width}.png`), fullPage: true });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `the brand's page does not scroll sideways at ${width} px`);
    }
    console.log(`screenshots in ${shots}`);
  } finally {
    await context.close();
  }
});
