// The portal: affiliates, brands and the network's operators sign in and work through the public API, in English or
// Brazilian Portuguese. Routes live in the browser under /app; the service answers the same page
// for all of them.
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { QueryClient, QueryClientProvider, QueryCache, MutationCache } from '@tanstack/react-query';
import { Redirect, Route, Router, Switch } from 'wouter-preact';
import { initialLocale, messagesFor, MessagesContext, rememberLocale, useMessages, type Locale } from './i18n/index.js';
import { isSignedOut, saveLanguage, SESSION_KEY, useSession } from './session.js';
import { Layout } from './components/layout.js';
import { SignIn } from './pages/sign-in.js';
import { SetPassword } from './pages/set-password.js';
import { ForgotPassword } from './pages/forgot-password.js';
import { SignUp } from './pages/sign-up.js';
import { Apply } from './pages/apply.js';
import { Verify } from './pages/verify.js';
import { AffiliateOverview } from './pages/affiliate/overview.js';
import { Brands } from './pages/affiliate/brands.js';
import { Links } from './pages/affiliate/links.js';
import { Orders } from './pages/affiliate/orders.js';
import { Channels } from './pages/affiliate/channels.js';
import { Products } from './pages/affiliate/products.js';
import { Campaigns } from './pages/affiliate/campaigns.js';
import { Payouts } from './pages/affiliate/payouts.js';
import { Claims } from './pages/affiliate/claims.js';
import { MyCodes } from './pages/affiliate/coupons.js';
import { Statements } from './pages/affiliate/statements.js';
import { Feeds } from './pages/affiliate/feeds.js';
import { BrandOverview } from './pages/brand/overview.js';
import { Conversions } from './pages/brand/conversions.js';
import { ConversionDetail } from './pages/brand/conversion.js';
import { CommissionRulesEditor } from './pages/brand/commission-rules.js';
import { OrderDetail } from './pages/affiliate/order.js';
import { BrandDetail } from './pages/affiliate/brand.js';
import { Affiliates } from './pages/brand/affiliates.js';
import { BrandProfile } from './pages/brand/profile.js';
import { TagPage } from './pages/brand/tag.js';
import { Catalogue } from './pages/brand/catalogue.js';
import { BrandClaims } from './pages/brand/claims.js';
import { BrandCoupons } from './pages/brand/coupons.js';
import { BrandGroups } from './pages/brand/groups.js';
import { BrandStatements, StatementDetail } from './pages/brand/statements.js';
import { Team } from './pages/account/team.js';
import { ApiKeys } from './pages/account/keys.js';
import { Webhooks } from './pages/account/webhooks.js';
import { Analytics } from './pages/account/analytics.js';
import { Security } from './pages/account/security.js';
import { Payee } from './pages/affiliate/payee.js';
import { SecondFactorGate } from './components/second-factor-gate.js';
import { OperatorApplications } from './pages/operator/applications.js';
import { OperatorAudit } from './pages/operator/audit.js';
import { OperatorHolds } from './pages/operator/holds.js';
import { OperatorStatements } from './pages/operator/statements.js';
import { OperatorPayouts } from './pages/operator/payouts.js';
import { OperatorLedger } from './pages/operator/ledger.js';
import { OperatorMember, OperatorMembers } from './pages/operator/members.js';
import { OperatorFigures } from './pages/operator/figures.js';
import { AccountHistory } from './pages/account/history.js';
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
const queries = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { retry: (count, error) => !isSignedOut(error) && count < 2, refetchOnWindowFocus: false } },
});

function App() {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const messages = useMemo(() => messagesFor(locale), [locale]);
  const changeLocale = (next: Locale) => {
    rememberLocale(next);
    setLocale(next);
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
      {user.role === 'operator' ? (
        <Switch>
          <Route path="/operator" component={OperatorApplications} />
          <Route path="/operator/audit" component={OperatorAudit} />
          <Route path="/operator/members" component={OperatorMembers} />
          <Route path="/operator/holds" component={OperatorHolds} />
          <Route path="/operator/statements" component={OperatorStatements} />
          <Route path="/operator/payouts" component={OperatorPayouts} />
          <Route path="/operator/ledger" component={OperatorLedger} />
          <Route path="/operator/figures" component={OperatorFigures} />
          <Route path="/operator/affiliates/:id">{(params) => <OperatorMember kind="affiliate" id={decodeURIComponent(params.id)} />}</Route>
          <Route path="/operator/brands/:id">{(params) => <OperatorMember kind="brand" id={decodeURIComponent(params.id)} />}</Route>
          <Route path="/security">{() => <Security me={user} />}</Route>
          <Route>
            <Redirect to="/operator" />
          </Route>
        </Switch>
      ) : user.affiliateId ? (
        <Switch>
          <Route path="/" component={AffiliateOverview} />
          <Route path="/brands" component={Brands} />
          <Route path="/brands/:id">{(params) => <BrandDetail id={decodeURIComponent(params.id)} />}</Route>
          <Route path="/products" component={Products} />
          <Route path="/campaigns" component={Campaigns} />
          <Route path="/codes" component={MyCodes} />
          <Route path="/links" component={Links} />
          <Route path="/orders" component={Orders} />
          <Route path="/orders/:id">{(params) => <OrderDetail id={decodeURIComponent(params.id)} />}</Route>
          <Route path="/payouts" component={Payouts} />
          <Route path="/statements" component={Statements} />
          <Route path="/feeds" component={Feeds} />
          <Route path="/claims" component={Claims} />
          <Route path="/payee">{() => <Payee me={user} />}</Route>
          <Route path="/channels" component={Channels} />
          <Route path="/team">{() => <Team side="affiliate" me={user} />}</Route>
          <Route path="/history">{() => <AccountHistory side="affiliate" />}</Route>
          <Route path="/keys">{() => <ApiKeys side="affiliate" />}</Route>
          <Route path="/webhooks">{() => <Webhooks side="affiliate" />}</Route>
          <Route path="/analytics">{() => <Analytics side="affiliate" />}</Route>
          <Route path="/security">{() => <Security me={user} />}</Route>
        </Switch>
      ) : (
        <Switch>
          <Route path="/" component={BrandOverview} />
          <Route path="/conversions" component={Conversions} />
          <Route path="/affiliates" component={Affiliates} />
          <Route path="/claims" component={BrandClaims} />
          <Route path="/coupons" component={BrandCoupons} />
          <Route path="/statements" component={BrandStatements} />
          <Route path="/statements/:id">{(params) => <StatementDetail id={decodeURIComponent(params.id)} />}</Route>
          <Route path="/profile" component={BrandProfile} />
          <Route path="/commission-rules" component={CommissionRulesEditor} />
          <Route path="/groups" component={BrandGroups} />
          <Route path="/tag" component={TagPage} />
          <Route path="/catalogue" component={Catalogue} />
          <Route path="/conversions/:orderId">{(params) => <ConversionDetail orderId={decodeURIComponent(params.orderId)} />}</Route>
          <Route path="/team">{() => <Team side="brand" me={user} />}</Route>
          <Route path="/history">{() => <AccountHistory side="brand" />}</Route>
          <Route path="/keys">{() => <ApiKeys side="brand" />}</Route>
          <Route path="/webhooks">{() => <Webhooks side="brand" />}</Route>
          <Route path="/analytics">{() => <Analytics side="brand" />}</Route>
          <Route path="/security">{() => <Security me={user} />}</Route>
        </Switch>
      )}
      </SecondFactorGate>
    </Layout>
  );
}

document.documentElement.lang = initialLocale();
render(
  <QueryClientProvider client={queries}>
    <App />
  </QueryClientProvider>,
  document.getElementById('app')!,
);
