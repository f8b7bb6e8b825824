// Guessing a second factor's code: whoever knows the password (or holds a session) could otherwise
// ask for ticket after ticket and try codes without end. Wrong codes — of the authenticator app or
// recovery codes, at the second step of a sign-in or confirming a change — count per account and
// per client address, across tickets and sessions: 10 per account and 30 per address in 15 minutes
// (from the first), then every try answers 429 until the window ends, without the code being
// looked at. A right password resets nothing, and a right code takes back only its own count. Like
// sign-in's holds, a try is counted when it is let in and given back when it is right, so tries
// sent all at once get no more checks than tries one after the other. The counts go through the
// window counters (Redis with several instances).
import { tooMany } from '../errors.js';
import type { WindowCounter } from './failed-key-throttle.js';

const MINUTE = 60_000;

export const CODE_LIMITS = { perAccount: 10, perAddress: 30, windowMs: 15 * MINUTE } as const;

/** A code let in to be checked: `right()` takes its count back. */
export interface CodeTry {
  right(): Promise<void>;
}

export class CodeGuesses {
  constructor(
    private readonly counter: WindowCounter,
    private readonly limits: { perAccount: number; perAddress: number; windowMs: number } = CODE_LIMITS,
  ) {}

  /** Lets a code of `userId`'s, tried from `address`, be checked (counted as wrong until it is right); 429 too_many_codes past a limit. */
  async admit(userId: string, address: string | undefined): Promise<CodeTry> {
    const keys: Array<[string, number]> = [[`code-account:${userId}`, this.limits.perAccount]];
    if (address) keys.push([`code-address:${address}`, this.limits.perAddress]);
    const counted: string[] = [];
    for (const [key, limit] of keys) {
      const { count, resetInMs } = await this.counter(key, this.limits.windowMs);
      counted.push(key);
      if (count > limit) {
        await this.giveBack(counted);
        throw tooMany('too_many_codes', resetInMs, ({ minutes }) => `Too many wrong codes for this account or from this address: try again in ${minutes} min (a passkey, if you have one, works meanwhile)`);
      }
    }
    return { right: () => this.giveBack(counted) };
  }

  private async giveBack(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.counter(key, this.limits.windowMs, -1)));
  }
}
