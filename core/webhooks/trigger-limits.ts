import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { Limiter, LimiterFactory } from '../security/limiter.js';
import { apiError } from '../errors/catalogue.js';
import type { ApiError } from '../errors.js';

/** Builds a limiter (memory on the embedded store; MongoDB-backed when hosts share a database). */
export type TriggerLimiterFactory = LimiterFactory;

/** Failed attempts one client address may make, over every flow, in the window. */
export const FAILURES_PER_ADDRESS = 20;
/** Failed attempts one client address may make on one flow in the window (guessing one flow's secret). */
export const FAILURES_PER_FLOW_AND_ADDRESS = 10;
export const FAILURE_WINDOW_SECONDS = 300;

/** Every failure budget, as docs/api.md and docs/operations.md state them (test/docs/webhook-limits.test.ts). */
export const FAILURE_BUDGETS = [
  { scope: 'per client address, over every flow', points: FAILURES_PER_ADDRESS, windowSeconds: FAILURE_WINDOW_SECONDS },
  { scope: 'per (flow, client address)', points: FAILURES_PER_FLOW_AND_ADDRESS, windowSeconds: FAILURE_WINDOW_SECONDS },
] as const;

const tooMany = (res: RateLimiterRes) =>
  apiError('rest_too_many_requests', { headers: { 'Retry-After': String(Math.max(1, Math.ceil(res.msBeforeNext / 1000))) } });

/**
 * The trigger's budgets: accepted requests per flow (the flow's own limit), and failed
 * attempts per client address and per (flow, client address). Failures are counted per
 * client only (the address read through trusted proxies), so one client's failures never
 * refuse a correctly authenticated delivery from another, and a stranger cannot spend a
 * flow's quota. They are counted after verification and decide only how a failure is
 * answered: a delivery that verifies is never refused for earlier failures (a sender that
 * fixed its secret is not locked out for the window).
 */
export class TriggerLimits {
  private readonly perFlow = new Map<string, Limiter>();
  private readonly failures: Limiter;
  private readonly flowFailures: Limiter;

  constructor(private readonly factory: TriggerLimiterFactory) {
    this.failures = factory('webhook_fail_ip', FAILURES_PER_ADDRESS, FAILURE_WINDOW_SECONDS);
    this.flowFailures = factory('webhook_fail_flow_ip', FAILURES_PER_FLOW_AND_ADDRESS, FAILURE_WINDOW_SECONDS);
  }

  /**
   * Counts a failed attempt (one write per counter, in the store on MongoDB, so every host
   * counts together). Null while this client is within both budgets (answer 401); past
   * either, the 429 to answer, with the longer wait of the two that are spent.
   */
  async failed(ip: string, flowId: number): Promise<ApiError | null> {
    const [any, thisFlow] = await Promise.all([this.failures.penalty(ip, 1), this.flowFailures.penalty(`${flowId}|${ip}`, 1)]);
    const spent = [
      any.consumedPoints > FAILURES_PER_ADDRESS ? any : null,
      thisFlow.consumedPoints > FAILURES_PER_FLOW_AND_ADDRESS ? thisFlow : null,
    ]
      .filter((res): res is RateLimiterRes => res !== null)
      .sort((x, y) => y.msBeforeNext - x.msBeforeNext);
    return spent[0] ? tooMany(spent[0]) : null;
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
