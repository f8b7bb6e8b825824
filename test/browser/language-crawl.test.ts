/// <reference lib="dom" />
// Every page in the person's language. An affiliate, a brand and an operator sign in, in Brazilian
// Portuguese, open every page of their menus (each route of their side), and submit each form of
// the affiliate's and the brand's pages empty and then with nonsense in every field; the same walk
// in English follows. Any visible text (and placeholder, label or title) that belongs to the other
// language fails the test, listing page, element and text: a word of the English catalogue that no
// Portuguese message uses (or the reverse), an API field name (camelCase) or an error code shown
// alone (snake_case). Code the person is meant to copy (<code>, <pre>) and what they typed are not
// read. The operator's forms act on members (suspend, pay), so the console's pages are only read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { servicesFor } from '../helpers/databases.js';
import { issueDemoStatements } from '../helpers/demo-statements.js';
import { openInApp } from '../helpers/browser.js';
import { enrolApp, signInWithApp } from '../helpers/operator-browser.js';
import { portalUnderTest } from '../helpers/portal-under-test.js';
import { DEMO_AFFILIATE_USER, DEMO_BRAND_USER, seedDemo } from '../../src/seed/demo.js';
import { en } from '../../portal/src/i18n/en.js';
import { ptBR } from '../../portal/src/i18n/pt-BR.js';

const PASSWORD = 'a long enough password';
const OPERATOR = 'ops@network.example';
type Language = 'pt-BR' | 'en';

/** The words of a catalogue's messages, their ICU arguments and plural selectors left out. */
function wordsOf(messages: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const message of messages) {
    const text = message.replace(/\{[a-zA-Z]+(?:, (?:plural|select|number|date)[^{}]*)?\}?/g, ' ');
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) words.add(word);
  }
  return words;
}
const EN_WORDS = wordsOf(Object.values(en));
const PT_WORDS = wordsOf(Object.values(ptBR));
/** Words only one catalogue uses, long enough to tell the language (short ones like "a", "de" or "per" are names, units or both). */
const ONLY: Record<Language, Set<string>> = {
  'pt-BR': new Set([...EN_WORDS].filter((w) => w.length >= 4 && !PT_WORDS.has(w))),
  en: new Set([...PT_WORDS].filter((w) => w.length >= 4 && !EN_WORDS.has(w))),
};

/** Each side's routes, read from its routes file, with the address this test opens for a route with a parameter. */
async function routesOf(file: string): Promise<string[]> {
  const source = await readFile(new URL(`../../portal/src/routes/${file}`, import.meta.url), 'utf8');
  return [...source.matchAll(/<Route path="([^"]+)"/g)].map(([, path]) => path!);
}
const LIST_OF: Record<string, string> = { '/conversions/:orderId': '/conversions', '/statements/:id': '/statements', '/orders/:id': '/orders', '/brands/:id': '/brands', '/operator/affiliates/:id': '/operator/members', '/operator/brands/:id': '/operator/members' };

const portal = portalUnderTest({
  world: false,
  prepare: async (database) => {
    const services = servicesFor(database);
    await seedDemo(services, () => {}, { userPassword: PASSWORD, activityOn: database });
    await issueDemoStatements(database);
    await services.users.createOperatorWithPassword(OPERATOR, PASSWORD);
  },
  started: async () => {
    // The members' own names (brands, affiliates, channels, products, campaigns, order numbers, codes) are their data, in whatever language they chose;
    // a short link's code and a key's shown prefix (afn_ and four random characters) are random letters too, now and then one that looks like a field name.
    const { db } = portal.database;
    const names = await Promise.all([
      db.selectFrom('brands').select('name').execute(),
      db.selectFrom('affiliates').select('name').execute(),
      db.selectFrom('affiliate_channels').select('name').execute(),
      db.selectFrom('products').select('name').execute(),
      db.selectFrom('campaigns').select('name').execute(),
      db.selectFrom('orders').select('order_id as name').execute(),
      db.selectFrom('coupons').select('code as name').execute(),
      db.selectFrom('short_links').select('code as name').execute(),
      db.selectFrom('api_keys').select('key_prefix as name').execute(),
      db.selectFrom('postback_tokens').select('token_prefix as name').execute(),
    ]);
    dataNames = [...new Set(names.flat().map((row) => row.name).filter((name) => name.length > 1))].sort((a, b) => b.length - a.length);
  },
});
let dataNames: string[] = [];

interface Finding {
  page: string;
  element: string;
  text: string;
  why: string;
}

/** The visible texts of the page (text, placeholders, labels, titles), each with the element it is in. */
function visibleTexts(page: Page): Promise<Array<{ element: string; text: string }>> {
  return page.evaluate(() => {
    const out: Array<{ element: string; text: string }> = [];
    function describe(el: Element): string {
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''}`;
    }
    function skipped(el: Element | null): boolean {
      return !el || el.closest('code, pre, script, style, noscript') !== null || !el.checkVisibility({ visibilityProperty: true });
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && !skipped(node.parentElement)) out.push({ element: describe(node.parentElement!), text });
    }
    for (const el of Array.from(document.querySelectorAll('[placeholder], [aria-label], [title], img[alt]'))) {
      if (skipped(el)) continue;
      for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = el.getAttribute(name)?.trim();
        if (value) out.push({ element: `${describe(el)}@${name}`, text: value });
      }
    }
    out.push({ element: 'title', text: document.title });
    return out;
  });
}

/** What on the page belongs to another language, or is the API's own name for a thing. */
async function findings(page: Page, language: Language, where: string): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const { element, text } of await visibleTexts(page)) {
    // Addresses, e-mail addresses and the members' names are their own data, not words.
    let words = text.replace(/\b[A-Z0-9]+(?:[-_][A-Z0-9]+)+\b/g, ' ').replace(/\b(?:https?:\/\/|www\.)\S+/g, ' ').replace(/\S+@\S+/g, ' ').replace(/\b[\w-]+\.(?:example|com|com\.br|net|org)\b/g, ' ');
    for (const name of dataNames) if (words.includes(name)) words = words.split(name).join(' ');
    for (const token of words.match(/[\p{L}\p{N}_]+/gu) ?? []) {
      // Tokens with digits are ids and codes of the members' own (a short link's code, a key's prefix).
      if (/\p{N}/u.test(token)) continue;
      if (/^[a-z]+(?:_[a-z]+)+$/.test(token)) found.push({ page: where, element, text, why: `an error code or field shown as it is: ${token}` });
      else if (/^[a-z]+(?:[A-Z][a-z]+)+$/.test(token)) found.push({ page: where, element, text, why: `an API field name: ${token}` });
      else for (const word of token.split('_')) if (ONLY[language].has(word.toLowerCase())) found.push({ page: where, element, text, why: `“${word}” is ${language === 'pt-BR' ? 'English' : 'Portuguese'}` });
    }
  }
  return found;
}

/** The page has its heading and nothing more to load. */
/** Nothing on the page says it is still loading. */
async function loaded(page: Page): Promise<void> {
  await page.getByText(/^(Loading…|Carregando…)$/).first().waitFor({ state: 'detached' });
}

async function addressOf(page: Page, route: string): Promise<string> {
  const list = LIST_OF[route];
  if (!list) return route;
  await openInApp(page, `/app${list}`);
  await loaded(page);
  const first = page.locator(`main a[href^="/app${route.split('/:')[0]}/"]`).first();
  return (await first.count()) > 0 ? (await first.getAttribute('href'))!.replace(/^\/app/, '') : `${list}/no-such-one`;
}

/** Submits each form of the page, empty and then with nonsense in its fields, reading the page after each. */
async function provoke(page: Page, language: Language, where: string, found: Finding[]): Promise<void> {
  const forms = await page.locator('main form').count();
  for (let i = 0; i < forms; i++) {
    for (const pass of ['empty', 'nonsense'] as const) {
      const form = page.locator('main form').nth(i);
      if ((await form.count()) === 0 || !(await form.isVisible())) continue;
      // The browser's own checks (required fields) would stop the form before the service sees it.
      await form.evaluate((el) => ((el as HTMLFormElement).noValidate = true));
      const fields = form.locator('input:visible:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=file]), textarea:visible');
      for (let f = 0; f < (await fields.count()); f++) {
        const field = fields.nth(f);
        if (!(await field.isEditable())) continue;
        await field.fill(pass === 'empty' ? '' : (await field.getAttribute('type')) === 'number' ? '-1' : '@@ x');
      }
      const submit = form.locator('button[type=submit]:visible, button:not([type]):visible').first();
      if ((await submit.count()) === 0 || !(await submit.isEnabled())) continue;
      await submit.click();
      await page.waitForLoadState('networkidle');
      found.push(...(await findings(page, language, `${where} (form ${i + 1} sent ${pass})`)));
    }
  }
}

async function walk(page: Page, language: Language, routes: string[], withForms: boolean): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const route of routes) {
    const address = await addressOf(page, route);
    await openInApp(page, `/app${address}`);
    await loaded(page);
    // The walk reads the page signed in, in the language it checks, or it proves nothing.
    assert.equal(await page.locator('select#language').count(), 1, `${address} is a page of the signed-in person`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), language, `${address} is in ${language}`);
    found.push(...(await findings(page, language, address)));
    if (withForms) await provoke(page, language, address, found);
  }
  return found;
}

/** A page of a new context: the test's compiler names the functions it sends the page through a helper the page lacks. */
async function newPage(locale: string): Promise<Page> {
  const context = await portal.browser.newContext({ baseURL: portal.server.url, locale, viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  return context.newPage();
}

async function signedIn(language: Language, email: string): Promise<Page> {
  const page = await newPage(language);
  await page.goto('/app/');
  await page.evaluate((locale) => localStorage.setItem('affnet.locale', locale), language);
  await page.reload();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(language === 'en' ? 'Password' : 'Senha').fill(PASSWORD);
  await page.getByRole('button', { name: language === 'en' ? 'Sign in' : 'Entrar', exact: true }).click();
  // The person's language is theirs, kept by the network: the walk chooses it as a person would.
  await page.locator('select#language').selectOption(language);
  return page;
}

/** Fails listing each finding once: page, element, why, and the text it is in. */
function assertNone(found: Finding[]): void {
  const lines = [...new Set(found.map((f) => `${f.page} · ${f.element}: ${f.why} — “${f.text.slice(0, 160)}”`))];
  assert.equal(lines.length, 0, `${lines.length} texts in another language:\n${lines.join('\n')}`);
}

for (const language of ['pt-BR', 'en'] as const) {
  test(`in ${language}, an affiliate and a brand meet no word of the other language on any page, nor when their forms are refused`, async () => {
    const found: Finding[] = [];
    for (const [email, file] of [
      [DEMO_AFFILIATE_USER, 'affiliate-routes.tsx'],
      [DEMO_BRAND_USER, 'brand-routes.tsx'],
    ] as const) {
      const page = await signedIn(language, email);
      found.push(...(await walk(page, language, await routesOf(file), language === 'pt-BR')));
      await page.context().close();
    }
    assertNone(found);
  });
}

test('in pt-BR and in English, the operator’s console speaks the person’s language on every page', async () => {
  const page = await newPage('en-US');
  const secret = await enrolApp(page, OPERATOR, PASSWORD);
  await signInWithApp(page, OPERATOR, PASSWORD, secret);
  const found: Finding[] = [];
  for (const language of ['pt-BR', 'en'] as const) {
    await page.locator('select#language').selectOption(language);
    found.push(...(await walk(page, language, await routesOf('operator-routes.tsx'), false)));
  }
  await page.context().close();
  assertNone(found);
});
