import { Route, Switch } from 'wouter-preact';
import type { User } from '../session.js';
import { AffiliateOverview } from '../pages/affiliate/overview.js';
import { Brands } from '../pages/affiliate/brands.js';
import { Links } from '../pages/affiliate/links.js';
import { Orders } from '../pages/affiliate/orders.js';
import { Channels } from '../pages/affiliate/channels.js';
import { Products } from '../pages/affiliate/products.js';
import { Campaigns } from '../pages/affiliate/campaigns.js';
import { Payouts } from '../pages/affiliate/payouts.js';
import { Claims } from '../pages/affiliate/claims.js';
import { MyCodes } from '../pages/affiliate/coupons.js';
import { Statements } from '../pages/affiliate/statements.js';
import { Feeds } from '../pages/affiliate/feeds.js';
import { AutoLinks } from '../pages/affiliate/auto-links.js';
import { Postbacks } from '../pages/affiliate/postbacks.js';
import { Tools } from '../pages/affiliate/tools.js';
import { OrderDetail } from '../pages/affiliate/order.js';
import { BrandDetail } from '../pages/affiliate/brand.js';
import { Team } from '../pages/account/team.js';
import { ApiKeys } from '../pages/account/keys.js';
import { Webhooks } from '../pages/account/webhooks.js';
import { Analytics } from '../pages/account/analytics.js';
import { Security } from '../pages/account/security.js';
import { Payee } from '../pages/affiliate/payee.js';
import { AccountHistory } from '../pages/account/history.js';

/** An affiliate's pages, loaded once an affiliate signs in. */
export default function AffiliateRoutes({ user }: { user: User }) {
  return (
    <Switch>
      <Route path="/">{() => <AffiliateOverview me={user} />}</Route>
      <Route path="/tools">{() => <Tools me={user} />}</Route>
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
      <Route path="/auto-links" component={AutoLinks} />
      <Route path="/postbacks" component={Postbacks} />
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
  );
}
