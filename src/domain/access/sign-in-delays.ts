// Guessing passwords: instead of shutting an account after so many failures (which anyone who knows
// the e-mail could do to its owner), failed sign-ins make the next try wait, longer each time. A
// few failures are free; past them each try holds the next one back 1 s, then 2 s, 4 s … up to a
// cap, and a try made during the hold is answered 429 with Retry-After without looking at the
// password (nor counting). Failures are counted per account and per client address, in a window that starts with
// the first one. A browser that has signed in to the account before (its "known device" cookie) is
// counted apart, on its own counter for that account: a stranger hammering an account slows down
// the stranger, never its owner at their usual device. Counts go through the window counters of
// failed-key-throttle.ts (Redis when configured, this instance's own otherwise).
import type { WindowCounter } from './failed-key-throttle.js';

export interface DelayRule {
  /** Failures in the window that hold nothing back. */
  free: number;
  /** The hold after the first failure past the free ones; each further one doubles it. */
  firstMs: number;
  /** The longest hold. */
  maxMs: number;
  /** Failures are forgotten this long after the first of them. */
  windowMs: number;
}

const MINUTE = 60_000;

export const SIGN_IN_RULES = {
  /** One account from any browser that is not known to it. */
  account: { free: 5, firstMs: 1000, maxMs: MINUTE, windowMs: 60 * MINUTE },
  /** One client address, whatever the account. */
  address: { free: 20, firstMs: 1000, maxMs: 5 * MINUTE, windowMs: 60 * MINUTE },
  /** One known device of one account: its owner's own typos only. */
  device: { free: 5, firstMs: 1000, maxMs: MINUTE, windowMs: 60 * MINUTE },
} as const satisfies Record<string, DelayRule>;

/** The hold after `failures` failures in the window (0 while they are free). */
export function holdAfter(failures: number, rule: DelayRule): number {
  if (failures <= rule.free) return 0;
  return Math.min(rule.maxMs, rule.firstMs * 2 ** Math.min(30, failures - rule.free - 1));
}

/**
 * Growing holds for the keys of one rule (`name` keeps the rules' counters apart). A try is counted
 * when it is let in, before its password is checked, and given back when it succeeds: so tries sent
 * all at once each get a count of their own, and past the free ones only the first of them is let
 * in (it claims the hold; the others are refused and not counted).
 */
export class GrowingDelays {
  constructor(
    private readonly counter: WindowCounter,
    private readonly name: string,
    readonly rule: DelayRule,
  ) {}

  /** Failures of `key` in its window, without counting. */
  async failures(key: string): Promise<number> {
    return (await this.counter(`${this.name}:${key}`, this.rule.windowMs, 0)).count;
  }

  /** Lets a try of `key` in (0) or says how long it must wait, in milliseconds. */
  async admit(key: string): Promise<number> {
    const { count } = await this.counter(`${this.name}:${key}`, this.rule.windowMs);
    if (count <= this.rule.free) return 0;
    const hold = await this.counter(`${this.name}:hold:${key}`, holdAfter(count, this.rule));
    if (hold.count === 1) return 0;
    await this.giveBack(key);
    return Math.max(1, hold.resetInMs);
  }

  /** Takes back the count of a try that succeeded (or was refused). */
  async giveBack(key: string): Promise<void> {
    await this.counter(`${this.name}:${key}`, this.rule.windowMs, -1);
  }
}

export interface SignInAttempt {
  /** The e-mail tried, as written (compared in lower case). */
  email: string;
  /** The client address. */
  address: string;
  /** The hash of the browser's device token when the browser is known to this account. */
  knownDevice?: string | undefined;
}

export class SignInDelays {
  private readonly account: GrowingDelays;
  private readonly address: GrowingDelays;
  private readonly device: GrowingDelays;

  constructor(counter: WindowCounter, rules: Record<keyof typeof SIGN_IN_RULES, DelayRule> = SIGN_IN_RULES) {
    this.account = new GrowingDelays(counter, 'sign-in-account', rules.account);
    this.address = new GrowingDelays(counter, 'sign-in-address', rules.address);
    this.device = new GrowingDelays(counter, 'sign-in-device', rules.device);
  }

  private counted(attempt: SignInAttempt): Array<[GrowingDelays, string]> {
    const account = attempt.email.trim().toLowerCase();
    if (attempt.knownDevice) return [[this.device, `${attempt.knownDevice}:${account}`]];
    return [
      [this.address, attempt.address],
      [this.account, account],
    ];
  }

  /**
   * Lets the attempt be checked (0), counting it as failed until `succeeded`, or says how long it
   * must wait (then it counts nowhere).
   */
  async admit(attempt: SignInAttempt): Promise<number> {
    const admitted: Array<[GrowingDelays, string]> = [];
    for (const [delays, key] of this.counted(attempt)) {
      const waitMs = await delays.admit(key);
      if (waitMs > 0) {
        await Promise.all(admitted.map(([d, k]) => d.giveBack(k)));
        return waitMs;
      }
      admitted.push([delays, key]);
    }
    return 0;
  }

  /**
   * Whether the attempt's failure (counted already) was the first one held back on its account or
   * device: the moment to tell the person that someone is guessing their password.
   */
  async startedHolding(attempt: SignInAttempt): Promise<boolean> {
    const [delays, key] = this.counted(attempt).at(-1)!;
    return (await delays.failures(key)) === delays.rule.free + 1;
  }

  /** The attempt signed in: it does not count as a failure. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await Promise.all(this.counted(attempt).map(([delays, key]) => delays.giveBack(key)));
  }
}
