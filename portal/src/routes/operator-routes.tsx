import { Redirect, Route, Switch } from 'wouter-preact';
import type { User } from '../session.js';
import { Security } from '../pages/account/security.js';
import { OperatorApplications } from '../pages/operator/applications.js';
import { OperatorAudit } from '../pages/operator/audit.js';
import { OperatorHolds } from '../pages/operator/holds.js';
import { OperatorStatements } from '../pages/operator/statements.js';
import { OperatorPayouts } from '../pages/operator/payouts.js';
import { OperatorLedger } from '../pages/operator/ledger.js';
import { OperatorMember, OperatorMembers } from '../pages/operator/members.js';
import { OperatorFigures } from '../pages/operator/figures.js';

/** The operator's console: its pages load with it, never for a member. */
export default function OperatorRoutes({ user }: { user: User }) {
  return (
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
  );
}
