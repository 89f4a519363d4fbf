import type { Clock } from '../../src/core/ports.js';

/** A clock the test moves by hand, so expiry and retries are checked without sleeping. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start = new Date('2026-11-22T10:00:00.000Z')) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
