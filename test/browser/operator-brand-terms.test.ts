/// <reference lib="dom" />
// The network's terms for a brand on the operator's console, in headless Chromium against a real
// server, in pt-BR: the brand's page shows its fee and days to pay; the operator types the fee as
// people write it ("2,5"), gives the reason, and sees the new terms; the brand's owner is mailed,
// the trail keeps before → after. The page fits a phone's screen and a desktop's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { BRANDS } from '../helpers/world.js';
import { assertAccessible } from '../helpers/browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';
import { freshCode } from '../helpers/totp-codes.js';
import { assertFits } from '../helpers/operator-browser.js';

const PASSWORD = 'a long enough password';
const OPERATOR = 'terms@network.example';
const OWNER = 'owner@globex.example';
let operatorToken = '';
const pageErrors: string[] = [];

const portal = portalUnderTest({
  prepare: async (database) => {
    const { users, secondFactors } = servicesFor(database);
    // An operator who has set up an authenticator app, signed in (the sign-in itself is operator-console.test.ts's).
    const operator = (await users.createOperatorWithPassword(OPERATOR, PASSWORD))!;
    operatorToken = (await users.signIn(OPERATOR, PASSWORD))!.sessionToken;
    const who = { userId: operator.id, email: operator.email, sessionToken: operatorToken };
    const { secret } = await secondFactors.startTotp(who);
    await secondFactors.confirmTotp(who, await freshCode(secret));
    await users.createWithPassword({ brandId: BRANDS.globex }, OWNER, 'owner', PASSWORD);
  },
});

async function brandPage(width: number): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'affnet_session', value: operatorToken, url: portal.server.url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`/app/operator/brands/${BRANDS.globex}`);
  await page.getByRole('heading', { name: 'Globex' }).waitFor();
  return page;
}

test('the operator changes a brand’s fee with a reason, typed as people write it, and sees the new terms', async () => {
  const page = await brandPage(1280);
  try {
    const section = page.getByRole('region', { name: 'Condições da rede' });
    await section.getByText('Taxa de 30% sobre cada comissão cobrada; cada extrato vence 15 dias após a emissão.').waitFor();
    const fee = section.getByLabel('Taxa da rede (% de cada comissão)');
    assert.equal(await fee.inputValue(), '30', 'the fee in force, as people type it');

    // A reason is required; a fee that is no percentage is refused before anything is sent.
    await fee.fill('2,5');
    await section.getByRole('button', { name: 'Alterar as condições' }).click();
    await section.getByText('Informe o motivo: os responsáveis recebem por e-mail').waitFor();
    await fee.fill('2,555');
    await section.getByLabel('Motivo da mudança (os responsáveis pela marca recebem por e-mail)').fill('Acordo de volume de novembro');
    await section.getByRole('button', { name: 'Alterar as condições' }).click();
    await section.getByText('Taxa da rede (% de cada comissão): digite uma porcentagem de 0 a 100, como 2,5.').waitFor();
    assert.equal(await section.getByText('Informe o motivo: os responsáveis recebem por e-mail').count(), 0, 'the reason given, its refusal is gone');
    await page.screenshot({ path: '/tmp/operator-brand-terms-refused-1280.png', fullPage: true });

    await fee.fill('2,5');
    await section.getByRole('button', { name: 'Alterar as condições' }).click();
    await section.getByRole('status').getByText('Condições alteradas (eram taxa de 30% e 15 dias para pagar). A marca foi avisada.').waitFor();
    await section.getByText('Taxa de 2,5% sobre cada comissão cobrada; cada extrato vence 15 dias após a emissão.').waitFor();
    assert.equal(await fee.inputValue(), '2,5');
    await assertAccessible(page, 'a brand’s page on the console, its terms changed');
    await assertFits(page, 'a brand’s page at 1280 px');
    await page.screenshot({ path: '/tmp/operator-brand-terms-1280.png', fullPage: true });

    // What the service keeps: the brand's fee, the trail's before → after, the owner's mail.
    const brand = await portal.database.db.selectFrom('brands').select(['fee_basis_points', 'statement_due_days']).where('id', '=', BRANDS.globex).executeTakeFirstOrThrow();
    assert.deepEqual([brand.fee_basis_points, brand.statement_due_days], [250, 15]);
    const [entry] = await portal.database.db.selectFrom('audit_entries').select(['before', 'after', 'reason', 'actor_kind']).where('action', '=', 'brand.terms_changed').execute();
    assert.deepEqual([JSON.parse(entry!.before!), JSON.parse(entry!.after!), entry!.reason, entry!.actor_kind], [{ feeBasisPoints: 3000, dueDays: 15 }, { feeBasisPoints: 250, dueDays: 15 }, 'Acordo de volume de novembro', 'operator']);
    const mail = await portal.database.db.selectFrom('mail_messages').select('template').where('to_address', '=', OWNER).where('template', '=', 'network-terms-changed').execute();
    assert.equal(mail.length, 1);
  } finally {
    await page.context().close();
  }
});

test('on a phone’s screen: the terms and their form fit, and the days to pay change too', async () => {
  const page = await brandPage(375);
  try {
    const section = page.getByRole('region', { name: 'Condições da rede' });
    await section.getByText('Taxa de 2,5% sobre cada comissão cobrada; cada extrato vence 15 dias após a emissão.').waitFor();
    await section.getByLabel('Prazo para pagar um extrato (dias)').fill('30');
    await section.getByLabel('Motivo da mudança (os responsáveis pela marca recebem por e-mail)').fill('Contrato renovado');
    await section.getByRole('button', { name: 'Alterar as condições' }).click();
    await section.getByText('Taxa de 2,5% sobre cada comissão cobrada; cada extrato vence 30 dias após a emissão.').waitFor();
    await assertFits(page, 'a brand’s page at 375 px');
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/operator-brand-terms-375.png', fullPage: true });
    assert.deepEqual(pageErrors, []);
  } finally {
    await page.context().close();
  }
});
