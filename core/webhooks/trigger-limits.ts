import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';

/** Builds a limiter (memory on the embedded store; MongoDB-backed when hosts share a database). */
export type TriggerLimiterFactory = (name: string, points: number, durationSeconds: number) => RateLimiterAbstract;

const FAILURES_PER_ADDRESS = 20;
const FAILURE_WINDOW_SECONDS = 300;

const tooMany = (res: RateLimiterRes) =>
  new ApiError('rest_too_many_requests', 'Too many requests.', 429, {}, { 'Retry-After': String(Math.max(1, Math.ceil(res.msBeforeNext / 1000))) });

/**
 * The trigger's two budgets: accepted requests per flow (the flow's own limit), and failed
 * attempts per remote address, counted apart so a stranger cannot spend a flow's quota.
 */
export class TriggerLimits {
  private readonly perFlow = new Map<string, RateLimiterAbstract>();
  private readonly failures: RateLimiterAbstract;

  constructor(private readonly factory: TriggerLimiterFactory) {
    this.failures = factory('webhook_fail_ip', FAILURES_PER_ADDRESS, FAILURE_WINDOW_SECONDS);
  }

  /** Throws 429 when this address has failed too often lately. */
  async checkAddress(ip: string): Promise<void> {
    const res = await this.failures.get(ip);
    if (res && res.consumedPoints >= FAILURES_PER_ADDRESS) throw tooMany(res);
  }

  async failed(ip: string): Promise<void> {
    await this.failures.penalty(ip, 1);
  }

  /** Takes one request from the flow's budget; throws 429 when it is spent. */
  async take(flowId: number, limit: { max: number; window_seconds: number }): Promise<void> {
    const key = `${limit.max}/${limit.window_seconds}`;
    let limiter = this.perFlow.get(key);
    if (!limiter) {
      limiter = this.factory(`webhook_flow_${limit.max}_${limit.window_seconds}`, limit.max, limit.window_seconds);
      this.perFlow.set(key, limiter);
    }
    try {
      await limiter.consume(`flow:${flowId}`);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      throw tooMany(rejection as RateLimiterRes);
    }
  }
}
