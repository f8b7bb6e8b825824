// The one source of the current time. Everything that asks "what time is it" (click times,
// windows, expiries, order times) asks a Clock handed to it, so tests can move time forward by
// hours or days in a millisecond, and set it on either side of a daylight-saving change.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** The current instant as fixed-width UTC ISO 8601 (`2026-01-31T12:00:00.000Z`). */
  iso(): string;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  iso: () => new Date().toISOString(),
};

/** A clock that moves only when told: for tests, and for replays of a recorded day. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: string | number = Date.now()) {
    this.current = typeof start === 'number' ? start : Date.parse(start);
    if (Number.isNaN(this.current)) throw new Error(`not a time: ${String(start)}`);
  }

  now(): number {
    return this.current;
  }

  iso(): string {
    return new Date(this.current).toISOString();
  }

  /** Moves the clock forward (or back, with a negative amount) by `ms`. */
  advance(ms: number): void {
    this.current += ms;
  }

  set(time: string | number): void {
    this.current = typeof time === 'number' ? time : Date.parse(time);
  }
}
