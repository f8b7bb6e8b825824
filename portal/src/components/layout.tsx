import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { useQueryClient } from '@tanstack/react-query';
import { LOCALES, useMessages, type Locale } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { api } from '../api.js';
import { SESSION_KEY, type User } from '../session.js';
import { useCellLabels } from './cell-labels.js';

/** The affiliate's everyday pages, in the menu itself. */
const AFFILIATE_PAGES: Array<[string, MessageKey]> = [
  ['/', 'nav.overview'],
  ['/brands', 'nav.brands'],
  ['/products', 'nav.products'],
  ['/links', 'nav.links'],
  ['/orders', 'nav.orders'],
  ['/payouts', 'nav.payouts'],
];
/** The affiliate's other pages, listed on the settings and tools page (its one entry in the menu), in groups. */
export const AFFILIATE_TOOLS: Array<[MessageKey, Array<[string, MessageKey, MessageKey]>]> = [
  [
    'tools.promote',
    [
      ['/channels', 'nav.channels', 'tools.channelsHint'],
      ['/campaigns', 'nav.campaigns', 'tools.campaignsHint'],
      ['/codes', 'nav.myCodes', 'tools.myCodesHint'],
      ['/feeds', 'nav.feeds', 'tools.feedsHint'],
      ['/auto-links', 'nav.autoLinks', 'tools.autoLinksHint'],
      ['/postbacks', 'nav.postbacks', 'tools.postbacksHint'],
      ['/analytics', 'nav.analytics', 'tools.analyticsHint'],
    ],
  ],
  [
    'tools.money',
    [
      ['/payee', 'nav.payee', 'tools.payeeHint'],
      ['/statements', 'nav.statements', 'tools.statementsHint'],
      ['/claims', 'nav.claims', 'tools.claimsHint'],
    ],
  ],
  [
    'tools.account',
    [
      ['/team', 'nav.team', 'tools.teamHint'],
      ['/security', 'nav.security', 'tools.securityHint'],
      ['/history', 'nav.history', 'tools.historyHint'],
      ['/keys', 'nav.keys', 'tools.keysHint'],
      ['/webhooks', 'nav.webhooks', 'tools.webhooksHint'],
    ],
  ],
];
export const TOOLS_PATH = '/tools';
const BRAND_PAGES: Array<[string, MessageKey]> = [
  ['/', 'nav.overview'],
  ['/conversions', 'nav.conversions'],
  ['/claims', 'nav.claims'],
  ['/statements', 'nav.statements'],
  ['/affiliates', 'nav.affiliates'],
  ['/campaigns', 'nav.campaigns'],
  ['/coupons', 'nav.coupons'],
  ['/analytics', 'nav.analytics'],
  ['/catalogue', 'nav.catalogue'],
  ['/commission-rules', 'nav.commissionRules'],
  ['/groups', 'nav.groups'],
  ['/tag', 'nav.tag'],
  ['/profile', 'nav.profile'],
  ['/webhooks', 'nav.webhooks'],
  ['/team', 'nav.team'],
];

const OPERATOR_PAGES: Array<[string, MessageKey]> = [
  ['/operator', 'nav.applications'],
  ['/operator/members', 'nav.members'],
  ['/operator/figures', 'nav.figures'],
  ['/operator/holds', 'nav.holds'],
  ['/operator/statements', 'nav.statements'],
  ['/operator/payouts', 'nav.payouts'],
  ['/operator/ledger', 'nav.ledger'],
  ['/operator/audit', 'nav.audit'],
];

/** The menu of the user's side; keys are an owner's to manage (members do not see the page). */
function pagesOf(user: User): Array<[string, MessageKey]> {
  const security: [string, MessageKey] = ['/security', 'nav.security'];
  if (user.role === 'operator') return [...OPERATOR_PAGES, security];
  // An affiliate's other pages are one entry away, on the settings and tools page.
  if (user.affiliateId) return [...AFFILIATE_PAGES, [TOOLS_PATH, 'nav.tools']];
  const keys: Array<[string, MessageKey]> = user.role === 'owner' ? [['/keys', 'nav.keys']] : [];
  return [...BRAND_PAGES, ['/history', 'nav.history'], ...keys, security];
}

/** Whether a page is one of the affiliate's settings and tools (their entry is then the current one). */
const isToolPage = (location: string) => AFFILIATE_TOOLS.some(([, pages]) => pages.some(([path]) => path === location));

/** How the menu marks the entry of the page shown: the page itself, or the settings and tools entry for one of its pages. */
function currentOf(path: string, location: string, user: User): 'page' | 'true' | undefined {
  if (location === path) return 'page';
  return path === TOOLS_PATH && user.affiliateId && isToolPage(location) ? 'true' : undefined;
}

/**
 * The frame of every signed-in page: the menu of the user's side, the account, the language,
 * sign-out. On a narrow screen all of it folds behind one menu button, so a page starts with its
 * content; following a link folds it again.
 */
export function Layout({ user, onLocale, children }: { user: User; onLocale: (locale: Locale) => void; children: ComponentChildren }) {
  const { t, locale } = useMessages();
  const [location] = useLocation();
  const queries = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  // Following a link folds the menu; so does a page change made any other way.
  useEffect(() => setMenuOpen(false), [location]);
  const main = useRef<HTMLElement>(null);
  useCellLabels(main);
  const pages = pagesOf(user);
  const signOut = async () => {
    await api.DELETE('/session');
    // Nothing of this user stays in memory for the next one.
    queries.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    queries.setQueryData(SESSION_KEY, null);
  };
  return (
    <div class="frame">
      <header class="top">
        <div class="masthead">
          <strong class="brand">{t('app.name')}</strong>
          <button type="button" class="menu-button secondary" aria-expanded={menuOpen} aria-controls="menu" onClick={() => setMenuOpen(!menuOpen)}>
            {t('nav.menu')}
          </button>
        </div>
        <div id="menu" class={menuOpen ? 'menu open' : 'menu'}>
          <nav aria-label={t('nav.main')}>
            <ul>
              {pages.map(([path, key]) => (
                <li key={path}>
                  <Link href={path} aria-current={currentOf(path, location, user)} onClick={() => setMenuOpen(false)}>
                    {t(key)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div class="account">
            <span class="who">{user.email}</span>
            <label for="language" class="visually-hidden">
              {t('nav.language')}
            </label>
            <select id="language" value={locale} onChange={(e) => onLocale(e.currentTarget.value as Locale)}>
              {Object.entries(LOCALES).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => void signOut()}>
              {t('nav.signOut')}
            </button>
          </div>
        </div>
      </header>
      <main ref={main}>{children}</main>
    </div>
  );
}
