import { createRequire } from 'node:module';
import type { RateLimiterAbstract, RateLimiterMemory as MemoryLimiter, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../../core/errors.js';

// The package's index loads every store it supports (Redis, Mongo, SQL, DynamoDB...), 36
// modules; a host on memory counters needs one. The package has no exports map, so its
// file can be required directly (it is CommonJS).
const RateLimiterMemory = createRequire(import.meta.url)('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof MemoryLimiter;

export interface ThrottleLimits {
  maxFailures: number;
  maxFailuresPerIp: number;
  windowSeconds: number;
}

/** Builds the two limiters; the MongoDB store swaps in limiters shared across hosts. */
export type LimiterFactory = (name: string, points: number, durationSeconds: number) => RateLimiterAbstract;

export const memoryLimiters: LimiterFactory = (name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration });

/**
 * Failed-login throttle, per (login, address) and per address. Only failures count, so
 * a user who types the password right is never slowed down by others' attempts on the
 * same login from elsewhere.
 */
export class LoginThrottle {
  private readonly perLogin: RateLimiterAbstract;
  private readonly perIp: RateLimiterAbstract;

  constructor(private readonly limits: ThrottleLimits, factory: LimiterFactory = memoryLimiters) {
    this.perLogin = factory('login_fail_login_ip', limits.maxFailures, limits.windowSeconds);
    this.perIp = factory('login_fail_ip', limits.maxFailuresPerIp, limits.windowSeconds);
  }

  /** Throws 429 with Retry-After when either budget is spent. */
  async check(ip: string, login: string): Promise<void> {
    const [byLogin, byIp] = await Promise.all([this.perLogin.get(loginKey(ip, login)), this.perIp.get(ip)]);
    const blocked = [
      [byLogin, this.limits.maxFailures],
      [byIp, this.limits.maxFailuresPerIp],
    ].filter(([res, max]) => res && (res as RateLimiterRes).consumedPoints >= (max as number)) as Array<[RateLimiterRes, number]>;
    if (blocked.length) {
      const wait = Math.max(...blocked.map(([res]) => res.msBeforeNext)) / 1000;
      throw tooManyRequests('Too many failed login attempts. Try again later.', wait);
    }
  }

  async failed(ip: string, login: string): Promise<void> {
    await Promise.all([
      this.perLogin.penalty(loginKey(ip, login), 1),
      this.perIp.penalty(ip, 1),
    ]);
  }

  async succeeded(ip: string, login: string): Promise<void> {
    await this.perLogin.delete(loginKey(ip, login));
  }
}

function loginKey(ip: string, login: string): string {
  return `${login.toLowerCase()}|${ip}`;
}
