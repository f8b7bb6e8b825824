// Codes of an authenticator app for browser tests. The server takes a code of the current step or
// the one before or after, each step once per user, and only steps later than the last one used:
// so the current step and the next one give two codes at once, and a third waits for the clock.
import { totpCode } from './operators.js';

const STEP_MS = 30_000;
/** The last step a code was made for, per secret (a secret is one user's app). */
const lastStep = new Map<string, number>();
const stepNow = () => Math.floor(Date.now() / STEP_MS);

/**
 * A code for a step after the last one used: the current step or the next. The step before is
 * never used: a request that crosses into the next step would find it too old.
 */
export async function freshCode(secret: string): Promise<string> {
  const wanted = Math.max((lastStep.get(secret) ?? -1) + 1, stepNow());
  while (stepNow() + 1 < wanted) await new Promise((resolve) => setTimeout(resolve, 250));
  lastStep.set(secret, wanted);
  return totpCode(secret, wanted * STEP_MS);
}

/** Six digits that are no code the server would take now. */
export function wrongCode(secret: string): string {
  const near = [-1, 0, 1, 2].map((d) => totpCode(secret, (stepNow() + d) * STEP_MS));
  return ['000000', '111111', '222222', '333333', '444444'].find((code) => !near.includes(code))!;
}
