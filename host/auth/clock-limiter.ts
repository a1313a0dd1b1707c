// Fixed-window counters in memory, on the host's clock. rate-limiter-flexible's memory
// store reads Date.now() and expires keys with a timer each, so a test's fake clock could
// never move a throttle past its window; these compare each counter's end with
// `clock.now()` when it is read. The arithmetic is the library's (MemoryStorage): a window
// starts with a key's first point and counts until it ends.
import { createRequire } from 'node:module';
import type { RateLimiterRes as Res } from 'rate-limiter-flexible';
import type { Clock } from '../../core/kernel/clock.js';
import type { Limiter, LimiterFactory } from '../../core/security/limiter.js';

// The package's index loads every store it supports; its result type is one CommonJS file.
const RateLimiterRes = createRequire(import.meta.url)('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof Res;

interface Counter {
  value: number;
  /** Epoch ms when the window ends; null: never. */
  endsAt: number | null;
}

/** Counters of keys nobody asks about again are dropped by a sweep every this many writes. */
const SWEEP_EVERY = 1000;

export class ClockLimiter implements Limiter {
  private readonly counters = new Map<string, Counter>();
  private writes = 0;

  constructor(
    private readonly name: string,
    private readonly points: number,
    readonly duration: number,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<Res | null> {
    const counter = this.live(key);
    return counter ? this.result(counter, false) : null;
  }

  async consume(key: string, points = 1): Promise<Res> {
    const res = this.add(key, points);
    if (res.consumedPoints > this.points) throw res;
    return res;
  }

  async penalty(key: string, points = 1): Promise<Res> {
    return this.add(key, points);
  }

  async set(key: string, points: number, durationSeconds: number): Promise<Res> {
    return this.start(key, points, durationSeconds);
  }

  async delete(key: string): Promise<boolean> {
    return this.counters.delete(this.keyOf(key));
  }

  private keyOf(key: string): string {
    return `${this.name}:${key}`;
  }

  /** The key's counter if its window has not ended. */
  private live(key: string): Counter | null {
    const counter = this.counters.get(this.keyOf(key));
    if (!counter) return null;
    if (counter.endsAt !== null && counter.endsAt <= this.clock.now().getTime()) {
      this.counters.delete(this.keyOf(key));
      return null;
    }
    return counter;
  }

  private add(key: string, points: number): Res {
    const counter = this.live(key);
    if (!counter) return this.start(key, points, this.duration);
    counter.value += points;
    return this.result(counter, false);
  }

  private start(key: string, points: number, durationSeconds: number): Res {
    const now = this.clock.now().getTime();
    const counter: Counter = { value: points, endsAt: durationSeconds > 0 ? now + durationSeconds * 1000 : null };
    this.counters.set(this.keyOf(key), counter);
    if (++this.writes % SWEEP_EVERY === 0) this.sweep(now);
    return this.result(counter, true);
  }

  private result(counter: Counter, first: boolean): Res {
    const msBeforeNext = counter.endsAt === null ? -1 : Math.max(0, counter.endsAt - this.clock.now().getTime());
    return new RateLimiterRes(Math.max(this.points - counter.value, 0), msBeforeNext, counter.value, first);
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.counters) if (counter.endsAt !== null && counter.endsAt <= now) this.counters.delete(key);
  }
}

/** The memory limiters of a host (embedded store), on its clock. */
export function clockLimiters(clock: Clock): LimiterFactory {
  return (name, points, durationSeconds) => new ClockLimiter(name, points, durationSeconds, clock);
}
