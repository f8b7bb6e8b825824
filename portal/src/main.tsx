// The portal: affiliates, brands and the network's operators sign in and work through the public API, in English or
// Brazilian Portuguese. Routes live in the browser under /app; the service answers the same page
// for all of them.
import { render, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { QueryClientProvider, QueryCache, MutationCache } from '@tanstack/react-query';
import { PortalQueryClient } from './query-client.js';
import { Route, Router, Switch } from 'wouter-preact';
import { initialLocale, loadCatalogue, messagesFor, MessagesContext, rememberLocale, useMessages, type Locale } from './i18n/index.js';
import { isSignedOut, saveLanguage, SESSION_KEY, useSession, type User } from './session.js';
import { Layout } from './components/layout.js';
import { SignIn } from './pages/sign-in.js';
import { SetPassword } from './pages/set-password.js';
import { ForgotPassword } from './pages/forgot-password.js';
import { SignUp } from './pages/sign-up.js';
import { Apply } from './pages/apply.js';
import { Verify } from './pages/verify.js';
import { SecondFactorGate } from './components/second-factor-gate.js';
import { isViewEnded, ViewAsBanner, viewerOf } from './pages/operator/view-as.js';
import './styles.css';

let sessionEnded = false;
// Any 401 means the session ended: forget everything and ask who is there again.
const onError = (error: unknown) => {
  // An operator's view as a member ended (expired, or the member ended it): back to their own pages.
  if (isViewEnded(error)) return void queries.invalidateQueries({ queryKey: SESSION_KEY });
  if (!isSignedOut(error)) return;
  sessionEnded = true;
  queries.setQueryData(SESSION_KEY, null);
};
const queries = new PortalQueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { retry: (count, error) => !isSignedOut(error) && count < 2, refetchOnWindowFocus: false } },
});

function App() {
  const [messages, setMessages] = useState(() => messagesFor(firstLocale, firstCatalogue));
  const changeLocale = (next: Locale) => {
    rememberLocale(next);
    void loadCatalogue(next).then((catalogue) => setMessages(messagesFor(next, catalogue)));
  };
  return (
    <MessagesContext.Provider value={messages}>
      <Router base="/app">
        <Switch>
          <Route path="/set-password" component={SetPassword} />
          <Route path="/forgot-password" component={ForgotPassword} />
          <Route path="/sign-up" component={SignUp} />
          <Route path="/apply" component={Apply} />
          <Route path="/verify" component={Verify} />
          <Route>
            <Pages onLocale={changeLocale} />
          </Route>
        </Switch>
      </Router>
    </MessagesContext.Provider>
  );
}

/**
 * The pages of the signed-in person's side, each side its own chunk: an affiliate's browser never
 * loads the brand's or the operator's pages, which keeps the first load small.
 */
const ROLE_PAGES = {
  operator: () => import('./routes/operator-routes.js'),
  affiliate: () => import('./routes/affiliate-routes.js'),
  brand: () => import('./routes/brand-routes.js'),
} satisfies Record<string, () => Promise<{ default: ComponentType<{ user: User }> }>>;

function RolePages({ user }: { user: User }) {
  const { t } = useMessages();
  const side = user.role === 'operator' ? 'operator' : user.affiliateId ? 'affiliate' : 'brand';
  const [loaded, setLoaded] = useState<{ side: string; Pages: ComponentType<{ user: User }> }>();
  useEffect(() => {
    void ROLE_PAGES[side]().then((module) => setLoaded({ side, Pages: module.default }));
  }, [side]);
  if (loaded?.side !== side) return <p role="status">{t('common.loading')}</p>;
  return <loaded.Pages user={user} />;
}

function Pages({ onLocale }: { onLocale: (locale: Locale) => void }) {
  const session = useSession();
  const { t, locale } = useMessages();
  const viewing = session.data?.viewingAs;
  // While an operator views as a member, the member's pages are drawn for its owner (read-only: the service refuses changes).
  const user = session.data && viewing ? viewerOf(session.data.user, viewing) : session.data?.user;
  // The person's language is kept with them (their mail is written in it): the portal follows it,
  // and tells the one this browser shows to someone who has none yet.
  useEffect(() => {
    if (!user) return;
    if (user.language && user.language !== locale) onLocale(user.language);
    else if (!user.language) void saveLanguage(locale);
  }, [user?.id]);
  if (session.isPending) return <p role="status">{t('common.loading')}</p>;
  if (!user) return <SignIn expired={sessionEnded} />;
  const changeLocale = (next: Locale) => {
    onLocale(next);
    void saveLanguage(next);
  };
  return (
    <Layout user={user} onLocale={changeLocale}>
      {viewing && <ViewAsBanner view={viewing} />}
      <SecondFactorGate>
      <RolePages user={user} />
      </SecondFactorGate>
    </Layout>
  );
}

const firstLocale = initialLocale();
const firstCatalogue = await loadCatalogue(firstLocale);
document.documentElement.lang = firstLocale;
render(
  <QueryClientProvider client={queries}>
    <App />
  </QueryClientProvider>,
  document.getElementById('app')!,
);
