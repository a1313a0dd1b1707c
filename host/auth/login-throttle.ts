import type { RateLimiterRes } from 'rate-limiter-flexible';
import { apiError } from '../../core/errors/catalogue.js';
import type { Limiter, LimiterFactory } from '../../core/security/limiter.js';

export interface ThrottleLimits {
  /** Failures per (login, address) in the window: that address is refused for that login. */
  maxFailures: number;
  /** Failures per address (any login) in the window: that address is refused for every login. */
  maxFailuresPerIp: number;
  /**
   * Failures per login from every address in the window: past it, the login is refused from
   * addresses it has never signed in from (a guesser spreading over many addresses), while
   * addresses it signed in from before keep their own budget, so a stranger cannot lock a
   * user out from everywhere (OWASP's account-lockout guidance: lock per client, not per account).
   */
  maxFailuresPerLogin: number;
  windowSeconds: number;
  /** How long a successful sign-in keeps its address known for that login. */
  knownAddressSeconds: number;
}

/** Builds the limiters: memory ones on the host's clock, or MongoDB's shared across hosts. */
export type { LimiterFactory };

/** What `check` read, so that `succeeded` writes only what changes. */
export interface LoginCheck {
  /** The (login, address) counter holds failures to clear. */
  readonly failures: boolean;
  /** Milliseconds the address stays known for the login (0: not known). */
  readonly knownMs: number;
}

/**
 * A known address is written again on a sign-in only once its record is this old (or a
 * tenth of the window, if that is shorter): an address stays known for the window after its
 * last sign-in give or take a minute, and a client sending Basic credentials on every
 * request costs reads only, not two writes a request (on MongoDB, two round trips more).
 */
const KNOWN_REFRESH_MS = 60_000;

/**
 * Failed-login throttle, per (login, address), per address and per login. Only failures
 * count, so a user who types the password right is never slowed down by others' attempts
 * on the same login from elsewhere; the per-login budget spares addresses the login has
 * signed in from before.
 */
export class LoginThrottle {
  private readonly perLoginIp: Limiter;
  private readonly perIp: Limiter;
  private readonly perLogin: Limiter;
  private readonly known: Limiter;

  constructor(
    private readonly limits: ThrottleLimits,
    factory: LimiterFactory,
  ) {
    this.perLoginIp = factory('login_fail_login_ip', limits.maxFailures, limits.windowSeconds);
    this.perIp = factory('login_fail_ip', limits.maxFailuresPerIp, limits.windowSeconds);
    this.perLogin = factory('login_fail_login', limits.maxFailuresPerLogin, limits.windowSeconds);
    this.known = factory('login_known_ip', 1, limits.knownAddressSeconds);
  }

  /** Throws 429 with Retry-After when a budget that applies to this address is spent. */
  async check(ip: string, login: string): Promise<LoginCheck> {
    // All four reads at once: the known-address record decides a spent per-login budget
    // and whether a sign-in must refresh it.
    const key = loginKey(ip, login);
    const [byLoginIp, byIp, byLogin, known] = await Promise.all([
      this.perLoginIp.get(key),
      this.perIp.get(ip),
      this.perLogin.get(login.toLowerCase()),
      this.known.get(key),
    ]);
    const spent = (res: RateLimiterRes | null, max: number): res is RateLimiterRes => !!res && res.consumedPoints >= max;
    const blocked = [
      spent(byLoginIp, this.limits.maxFailures) ? byLoginIp : null,
      spent(byIp, this.limits.maxFailuresPerIp) ? byIp : null,
    ].filter((r): r is RateLimiterRes => r !== null);
    const knownMs = known && known.consumedPoints > 0 ? Math.max(known.msBeforeNext, 1) : 0;
    if (spent(byLogin, this.limits.maxFailuresPerLogin) && knownMs === 0) blocked.push(byLogin);
    if (blocked.length) {
      const wait = Math.max(...blocked.map((res) => res.msBeforeNext)) / 1000;
      throw apiError('rest_too_many_requests', {
        message: 'Too many failed login attempts. Try again later.',
        data: { retry_after: wait },
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(wait))) },
      });
    }
    return { failures: !!byLoginIp && byLoginIp.consumedPoints > 0, knownMs };
  }

  async failed(ip: string, login: string): Promise<void> {
    await Promise.all([
      this.perLoginIp.penalty(loginKey(ip, login), 1),
      this.perIp.penalty(ip, 1),
      this.perLogin.penalty(login.toLowerCase(), 1),
    ]);
  }

  /**
   * Clears the address's failures and marks it known for the login. Given what `check`
   * read, it skips what would not change: no failures to clear, an address marked known
   * within the last minute.
   */
  async succeeded(ip: string, login: string, seen?: LoginCheck): Promise<void> {
    const key = loginKey(ip, login);
    const windowMs = this.known.duration * 1000;
    const refreshAfter = Math.min(KNOWN_REFRESH_MS, windowMs / 10);
    const writes: Promise<unknown>[] = [];
    if (!seen || seen.failures) writes.push(this.perLoginIp.delete(key));
    if (!seen || seen.knownMs === 0 || windowMs - seen.knownMs >= refreshAfter) writes.push(this.known.set(key, 1, this.known.duration));
    await Promise.all(writes);
  }
}

function loginKey(ip: string, login: string): string {
  return `${login.toLowerCase()}|${ip}`;
}
