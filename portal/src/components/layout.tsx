import type { ComponentChildren } from 'preact';
import { Link, useLocation } from 'wouter-preact';
import { useQueryClient } from '@tanstack/react-query';
import { LOCALES, useMessages, type Locale } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { api } from '../api.js';
import { SESSION_KEY, type User } from '../session.js';

const AFFILIATE_PAGES: Array<[string, MessageKey]> = [
  ['/', 'nav.overview'],
  ['/brands', 'nav.brands'],
  ['/products', 'nav.products'],
  ['/campaigns', 'nav.campaigns'],
  ['/links', 'nav.links'],
  ['/analytics', 'nav.analytics'],
  ['/orders', 'nav.orders'],
  ['/payouts', 'nav.payouts'],
  ['/channels', 'nav.channels'],
  ['/webhooks', 'nav.webhooks'],
  ['/team', 'nav.team'],
];
const BRAND_PAGES: Array<[string, MessageKey]> = [
  ['/', 'nav.overview'],
  ['/conversions', 'nav.conversions'],
  ['/affiliates', 'nav.affiliates'],
  ['/analytics', 'nav.analytics'],
  ['/catalogue', 'nav.catalogue'],
  ['/profile', 'nav.profile'],
  ['/webhooks', 'nav.webhooks'],
  ['/team', 'nav.team'],
];

/** The frame of every signed-in page: the menu of the user's side, the language, sign-out. */
export function Layout({ user, onLocale, children }: { user: User; onLocale: (locale: Locale) => void; children: ComponentChildren }) {
  const { t, locale } = useMessages();
  const [location] = useLocation();
  const queries = useQueryClient();
  // Keys are an owner's to manage; members do not see the page.
  const pages = [...(user.affiliateId ? AFFILIATE_PAGES : BRAND_PAGES), ...(user.role === 'owner' ? ([['/keys', 'nav.keys']] as Array<[string, MessageKey]>) : [])];
  const signOut = async () => {
    await api.DELETE('/session');
    // Nothing of this user stays in memory for the next one.
    queries.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    queries.setQueryData(SESSION_KEY, null);
  };
  return (
    <div class="frame">
      <header class="top">
        <strong class="brand">{t('app.name')}</strong>
        <nav aria-label={t('nav.main')}>
          <ul>
            {pages.map(([path, key]) => (
              <li key={path}>
                <Link href={path} aria-current={location === path ? 'page' : undefined}>
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
          <select id="language" value={locale} onChange={(e) => onLocale((e.currentTarget).value as Locale)}>
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
      </header>
      <main>{children}</main>
    </div>
  );
}
