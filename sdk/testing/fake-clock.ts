import type { Clock } from '../kernel/clock.js';

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(time: Date | string | number): void {
    this.current = new Date(time).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
