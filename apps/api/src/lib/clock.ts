/** Time comes from a clock so expiry and lockout tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that tests set and advance by hand. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-01-15T10:00:00Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(at: Date | string): void {
    this.t = new Date(at).getTime();
  }
}
