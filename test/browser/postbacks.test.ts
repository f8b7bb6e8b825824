/// <reference lib="dom" />
// The affiliate's postbacks in the portal, in Portuguese, in headless Chromium against a real
// server and a tracker on loopback: an address with a macro that does not exist is refused with
// its place (the macro selected in the field), the macros are clicked into the address, the
// events chosen in words, one brand found by name; a test answered 200, then 500; what was sent
// in the log; the postback paused, then deleted. The page fits a phone; screenshots at 1280 and
// 375 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const PASSWORD = 'a long enough password';
const pageErrors: string[] = [];
let tracker: Receiver;
let shots = '';

const portal = portalUnderTest({
  prepare: async (database) => {
    await servicesFor(database).users.createWithPassword({ affiliateId: 'aff-1' }, 'owner@aff1.example', 'owner', PASSWORD);
  },
  // The tracker listens on loopback: the switch that lets outbound requests reach it, as in the API tests.
  env: { WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' },
});
before(async () => {
  tracker = await startReceiver();
});
after(async () => {
  await tracker.close();
});

/** Screenshots at 1280 and 375 px; at 375 and 320 px nothing may scroll sideways. */
async function shoot(page: Page, name: string): Promise<void> {
  shots ||= await mkdtemp(join(tmpdir(), 'affnet-postbacks-'));
  await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true });
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (width === 375) {
      await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true });
      // And in pieces a person's screen tall, to look at closely.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, piece = 1; y < height; y += 1200, piece++) {
        await page.screenshot({ path: join(shots, `${name}-375-${piece}.png`), fullPage: true, clip: { x: 0, y, width: 375, height: Math.min(1200, height - y) } });
      }
    }
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow} px at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an affiliate adds its tracker’s postback with macros clicked in, is told where a wrong macro is, sends tests and reads what was sent', async () => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
  try {
    await page.goto('/app/');
    await page.getByLabel('E-mail').fill('owner@aff1.example');
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await followMenu(page, 'Postbacks');
    await page.getByRole('heading', { name: 'Postbacks', exact: true }).waitFor();
    await page.getByText('Nenhum postback ainda').waitFor();

    // A macro the network does not fill in: refused, saying where, the macro selected in the field.
    const address = page.getByLabel('Endereço de postback do seu rastreador');
    await page.getByLabel(/^Nome/).fill('voluum');
    const wrong = `${tracker.url}?cid={clickid}`;
    await address.fill(wrong);
    await page.getByRole('button', { name: 'Salvar postback' }).click();
    const position = wrong.indexOf('{');
    await page.getByRole('alert').filter({ hasText: `{clickid}, depois de ${position} caracteres do endereço, não é uma macro que preenchemos` }).waitFor();
    assert.deepEqual(await address.evaluate((field: HTMLTextAreaElement) => [field.selectionStart, field.selectionEnd]), [position, position + '{clickid}'.length]);
    await shoot(page, 'refused');

    // The macros clicked in where the cursor is.
    await address.fill(`${tracker.url}?cid=`);
    const macro = (name: string) => page.getByRole('button', { name, exact: true });
    await macro('{click_id}').click();
    await address.press('End');
    await address.pressSequentially('&payout=');
    await macro('{commission}').click();
    await address.press('End');
    await address.pressSequentially('&sub=');
    await macro('{sub1}').click();
    assert.equal(await macro('{sub1}').getAttribute('aria-describedby'), 'macro-sub1');
    await page.locator('#macro-sub1').getByText('Sub-ID 1 do clique').waitFor();
    assert.equal(await address.inputValue(), `${tracker.url}?cid={click_id}&payout={commission}&sub={sub1}`);
    await page.getByLabel('A comissão dela é paga').check();
    await page.getByLabel('Só conversões destas marcas:').check();
    await page.getByLabel('Buscar uma marca').fill('Acme');
    await page.getByLabel('Escolha uma marca', { exact: true }).selectOption({ label: 'Acme' });
    await page.getByRole('button', { name: 'Incluir', exact: true }).click();
    await page.getByRole('button', { name: 'Salvar postback' }).click();
    await page.getByRole('status').filter({ hasText: 'Postback voluum salvo.' }).waitFor();
    const row = page.getByTestId('postback-voluum');
    await row.getByText('Uma conversão é registrada · A comissão dela é aprovada · A comissão dela é paga').waitFor();
    await row.getByText('Acme').waitFor();
    await row.getByText('Enviando').waitFor();

    // A test: what the tracker answered and said; then a tracker failing.
    let before = tracker.received.length;
    await row.getByRole('button', { name: 'Enviar um teste de voluum' }).click();
    const outcome = page.getByTestId('postback-test');
    await outcome.getByText(/Seu rastreador respondeu 200 em \d+ ms: está funcionando\./).waitFor();
    await outcome.getByText('ok', { exact: true }).waitFor();
    assert.equal(tracker.received.slice(before)[0]!.url, '/hooks?cid=test-click&payout=12.90&sub=test-sub1');
    tracker.answers.push(500);
    before = tracker.received.length;
    await row.getByRole('button', { name: 'Enviar um teste de voluum' }).click();
    await outcome.getByText(/Seu rastreador respondeu 500 em \d+ ms\./).waitFor();
    assert.equal(tracker.received.length, before + 1);

    await row.getByRole('button', { name: 'O que foi enviado para voluum' }).click();
    const log = page.getByTestId('postback-deliveries');
    await log.locator('tbody tr').nth(1).waitFor();
    assert.deepEqual(await log.locator('tbody tr td:nth-child(3) .badge').allInnerTexts(), ['Falhou', 'Entregue']);
    await log.getByText('respondeu 500').waitFor();
    await log.getByText('/hooks?cid=test-click&payout=12.90&sub=test-sub1').first().waitFor();
    await assertAccessible(page, 'the postbacks page');
    await shoot(page, 'postbacks');

    // Paused, then deleted.
    await row.getByRole('button', { name: 'Alterar voluum' }).click();
    await page.getByRole('heading', { name: 'Alterar o postback voluum' }).waitFor();
    assert.equal(await address.inputValue(), `${tracker.url}?cid={click_id}&payout={commission}&sub={sub1}`);
    await page.getByLabel('Ativo: enviar').uncheck();
    await page.getByRole('button', { name: 'Salvar postback' }).click();
    await row.getByText('Pausado').waitFor();
    await page.getByRole('heading', { name: 'Novo postback' }).waitFor();
    await row.getByRole('button', { name: 'Excluir voluum' }).click();
    await page.getByText('Nenhum postback ainda').waitFor();
    assert.deepEqual(pageErrors, []);
    console.log(`screenshots in ${shots}`);
  } finally {
    await context.close();
  }
});
