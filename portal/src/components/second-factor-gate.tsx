import type { ComponentChildren } from 'preact';
import { Redirect, useLocation } from 'wouter-preact';
import { useSecondFactors } from '../pages/account/second-factors-data.js';

/** While the team requires a second factor the person has not set up, every page but /security sends them there. */
export function SecondFactorGate({ children }: { children: ComponentChildren }) {
  const [location] = useLocation();
  const status = useSecondFactors();
  if (status.data?.enrolmentRequired && location !== '/security') return <Redirect to="/security" />;
  return <>{children}</>;
}
