/// <reference lib="dom" />
// Second factors in the portal, in headless Chromium against a real server: a person sets up an
// authenticator app on the Security page (the codes computed here, as the app would), signs out,
// and signing in then asks for a current code; a recovery code works once and is refused the
// second time; a passkey registered with Chromium's virtual authenticator signs in without a
// password. Every page passes the accessibility check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { assertAccessible, followMenu } from '../helpers/browser.js';
import { freshCode, wrongCode } from '../helpers/totp-codes.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';

const PASSWORD = 'a long enough password';
const EMAIL = 'safe@aff1.example';
const PASSKEY_EMAIL = 'keys@aff1.example';
const REQUIRED_EMAIL = 'member@aff2.example';
const RECOVERING_EMAIL = 'perdi.o.celular@aff1.example';
const pageErrors: string[] = [];
/** The Brazilian member's app and codes, set up before the portal starts. */
const recovering = { secret: '', recoveryCodes: [] as string[], resetLink: '' };

const portal = portalUnderTest({
  prepare: async (database) => {
    const services = servicesFor(database);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, EMAIL, 'owner', PASSWORD);
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, PASSKEY_EMAIL, 'member', PASSWORD);
    // aff-2's owner, who has an app, requires a second factor of the team; its member has none.
    const owner = (await services.users.createWithPassword({ affiliateId: 'aff-2' }, 'owner@aff2.example', 'owner', PASSWORD))!;
    await services.users.createWithPassword({ affiliateId: 'aff-2' }, REQUIRED_EMAIL, 'member', PASSWORD);
    const ownerRow = (await database.db.selectFrom('users').selectAll().where('id', '=', owner.id).executeTakeFirst())!;
    const who = { userId: owner.id, email: owner.email, sessionToken: (await services.users.openSession(ownerRow)).sessionToken };
    const { secret } = await services.secondFactors.startTotp(who);
    await services.secondFactors.confirmTotp(who, await freshCode(secret));
    await services.secondFactors.setTeamRequirement({ affiliateId: 'aff-2' }, owner.id, true);
    // A Brazilian member with an app: they lose their phone and come in with a recovery code.
    const member = (await services.users.createWithPassword({ affiliateId: 'aff-1' }, RECOVERING_EMAIL, 'member', PASSWORD))!;
    await services.users.setLanguage(member.id, 'pt-BR');
    const memberRow = (await database.db.selectFrom('users').selectAll().where('id', '=', member.id).executeTakeFirst())!;
    const their = { userId: member.id, email: member.email, sessionToken: (await services.users.openSession(memberRow)).sessionToken };
    recovering.secret = (await services.secondFactors.startTotp(their)).secret;
    recovering.recoveryCodes = (await services.secondFactors.confirmTotp(their, await freshCode(recovering.secret))).recoveryCodes;
    recovering.resetLink = await services.users.resetLink(RECOVERING_EMAIL);
  },
  // Passkeys need a domain name for the relying party: the portal is reached at localhost.
  host: 'localhost',
});

const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  if (process.env.DEBUG_PORTAL) page.on('response', (r) => console.log('#', r.status(), r.request().method(), r.url()));
  if (process.env.DEBUG_PORTAL) page.on('console', (m) => console.log('# console', m.text()));
  return { context, page };
};

async function signInWithPassword(page: Page, email: string): Promise<void> {
  await page.goto('/app/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

const toSecurity = (page: Page) => followMenu(page, 'Security');

test('an authenticator app: set up on the Security page, then asked for at sign-in; a recovery code works once', async () => {
  const { context, page } = await newPage();
  try {
    await signInWithPassword(page, EMAIL);
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await toSecurity(page);
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    await assertAccessible(page, 'security page');
    await page.getByRole('button', { name: 'Set up an app' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.ok(await page.getByRole('img', { name: 'QR code for the authenticator app' }).isVisible());
    await assertAccessible(page, 'authenticator app being set up');
    await page.getByLabel('Code from the app').fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    const codes = (await page.getByTestId('recovery-codes').locator('code').allTextContents()).map((c) => c.trim());
    assert.equal(codes.length, 10);
    await page.getByText('On: sign-in asks for a code of the app.').waitFor();
    await assertAccessible(page, 'recovery codes shown');
    await signOut(page);

    // The password alone no longer signs in: the app's code does.
    await signInWithPassword(page, EMAIL);
    await page.getByRole('heading', { name: 'Second step' }).waitFor();
    await assertAccessible(page, 'second step');
    await page.getByLabel('Code', { exact: true }).fill(wrongCode(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Code', { exact: true }).fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await signOut(page);

    // A recovery code, once.
    await signInWithPassword(page, EMAIL);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await toSecurity(page);
    await page.getByText('9 of 10 codes left.', { exact: false }).waitFor();
    await signOut(page);
    await signInWithPassword(page, EMAIL);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    const refused = await page.getByRole('alert').textContent();
    assert.match(refused ?? '', /wrong or was used already/);
    assert.equal(await page.getByRole('heading', { name: 'Second step' }).count(), 1, 'still at the second step');
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});

test("a passkey, registered with Chromium's virtual authenticator, signs in without a password", async () => {
  const { context, page } = await newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signInWithPassword(page, PASSKEY_EMAIL);
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await toSecurity(page);
    await page.getByLabel('Name', { exact: true }).fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('row', { name: /Test laptop/ }).waitFor();
    await assertAccessible(page, 'security page with a passkey');
    await signOut(page);

    // No password: the passkey alone.
    // Signed out on the Security page, signed in again there.
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Security' }).or(page.getByRole('alert')).first().waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, (await page.getByRole('alert').allTextContents()).join(' '));
    const row = page.getByRole('row', { name: /Test laptop/ });
    await row.waitFor();
    assert.notEqual((await row.locator('td').nth(1).textContent())?.trim(), '—', 'its last use is shown');
    await signOut(page);

    // With the password, the passkey is the second step.
    await signInWithPassword(page, PASSKEY_EMAIL);
    await page.getByRole('heading', { name: 'Second step' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('a member of a team that requires a second factor is sent to the Security page until they set one up', async () => {
  const { context, page } = await newPage();
  try {
    await signInWithPassword(page, REQUIRED_EMAIL);
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    assert.match((await page.getByRole('alert').first().textContent()) ?? '', /Your team requires a second factor/);
    assert.equal(new URL(page.url()).pathname, '/app/security');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL('**/app/security');
    await assertAccessible(page, 'security page, second factor required');
    await page.getByRole('button', { name: 'Set up an app' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await page.getByLabel('Code from the app').fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders' }).first().waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/orders');
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('in pt-BR: a reset link leads to the second step; after a recovery code, adding a passkey asks to confirm with the app first', async () => {
  const shots = process.env.SECOND_FACTOR_SHOTS;
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    // The link sets the password, then asks for the factor: it does not sign in by itself.
    await page.goto(new URL(recovering.resetLink).pathname + new URL(recovering.resetLink).search);
    await page.getByLabel('Senha').fill('uma senha nova e longa');
    await page.getByRole('button', { name: 'Salvar e entrar' }).click();
    await page.getByRole('heading', { name: 'Segunda etapa' }).waitFor();
    await assertAccessible(page, 'second step after a password link');
    if (shots) await page.screenshot({ path: `${shots}/set-password-second-step-1280.png`, fullPage: true });
    await page.getByRole('button', { name: 'Usar um código de recuperação' }).click();
    await page.getByLabel('Código de recuperação').fill(recovering.recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await followMenu(page, 'Segurança');

    // A recovery code opened the session but confirms no change: adding a passkey asks for the app.
    await page.getByLabel('Nome', { exact: true }).fill('Notebook');
    await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
    const confirm = page.getByRole('group', { name: 'Confirme que é você' });
    await confirm.waitFor();
    assert.equal(await page.getByRole('row', { name: /Notebook/ }).count(), 0, 'nothing added before the confirmation');
    await assertAccessible(page, 'confirm it is you');
    if (shots) await page.screenshot({ path: `${shots}/confirm-factor-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 740 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways at 375 px');
    if (shots) await page.screenshot({ path: `${shots}/confirm-factor-375.png`, fullPage: true });
    await confirm.getByLabel('Código do app').fill(await freshCode(recovering.secret));
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('row', { name: /Notebook/ }).waitFor();
    assert.equal(await confirm.count(), 0, 'the panel is gone once the passkey is added');
  } finally {
    await context.close();
  }
  assert.deepEqual(pageErrors, []);
});
