import { Route, Switch } from 'wouter-preact';
import type { User } from '../session.js';
import { BrandOverview } from '../pages/brand/overview.js';
import { Conversions } from '../pages/brand/conversions.js';
import { ConversionDetail } from '../pages/brand/conversion.js';
import { CommissionRulesEditor } from '../pages/brand/commission-rules.js';
import { Affiliates } from '../pages/brand/affiliates.js';
import { BrandProfile } from '../pages/brand/profile.js';
import { TagPage } from '../pages/brand/tag.js';
import { Reconciliation } from '../pages/brand/reconciliation.js';
import { Catalogue } from '../pages/brand/catalogue.js';
import { BrandClaims } from '../pages/brand/claims.js';
import { BrandCoupons } from '../pages/brand/coupons.js';
import { BrandCampaigns } from '../pages/brand/campaigns.js';
import { BrandGroups } from '../pages/brand/groups.js';
import { BrandStatements, StatementDetail } from '../pages/brand/statements.js';
import { Team } from '../pages/account/team.js';
import { ApiKeys } from '../pages/account/keys.js';
import { Webhooks } from '../pages/account/webhooks.js';
import { Analytics } from '../pages/account/analytics.js';
import { Security } from '../pages/account/security.js';
import { AccountHistory } from '../pages/account/history.js';

/** A brand's pages, loaded once a brand signs in. */
export default function BrandRoutes({ user }: { user: User }) {
  return (
    <Switch>
      <Route path="/" component={BrandOverview} />
      <Route path="/conversions" component={Conversions} />
      <Route path="/reconciliation" component={Reconciliation} />
      <Route path="/affiliates" component={Affiliates} />
      <Route path="/claims" component={BrandClaims} />
      <Route path="/coupons" component={BrandCoupons} />
      <Route path="/campaigns" component={BrandCampaigns} />
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
  );
}
