import type { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * What Flowhost's throttles (failed logins, webhook triggers) use of a rate limiter:
 * rate-limiter-flexible's counters, narrowed to the calls made. The memory counters
 * (host/auth/clock-limiter.ts) read the host's clock; MongoDB's are the library's own.
 */
export interface Limiter {
  /** The window, in seconds. */
  readonly duration: number;
  /** The key's counter now, or null when it has none (or its window has passed). */
  get(key: string): Promise<RateLimiterRes | null>;
  /** Counts points; rejects with the counter (a RateLimiterRes) once more than the budget are used. */
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  /** Counts points, never rejecting. */
  penalty(key: string, points?: number): Promise<RateLimiterRes>;
  /** Sets the counter to `points` for `durationSeconds` (0: no expiry). */
  set(key: string, points: number, durationSeconds: number): Promise<RateLimiterRes>;
  delete(key: string): Promise<boolean>;
}

/** Builds a limiter named `name` allowing `points` per `durationSeconds`. */
export type LimiterFactory = (name: string, points: number, durationSeconds: number) => Limiter;
