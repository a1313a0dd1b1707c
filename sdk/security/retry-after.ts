import type { GuardedFetch, GuardedRequestInit, GuardedResponse } from './guarded-fetch-types.js';

/** The longest Retry-After a handler waits for before retrying; a longer one fails the step. */
export const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * A request that honours a service's 429: waits its Retry-After (seconds, or an HTTP date;
 * at most 30 s) and tries once more. A longer wait, or a second 429, is an error saying
 * when to retry, so the step fails with a reason instead of hammering the service.
 */
export async function fetchHonouringRetryAfter(
  fetch: GuardedFetch,
  url: string,
  /** A function when each attempt must be built anew (an OAuth 1.0a signature takes a fresh nonce). */
  init: GuardedRequestInit | undefined | (() => GuardedRequestInit),
  service: string,
  now: () => number = Date.now,
): Promise<GuardedResponse> {
  const build = () => (typeof init === 'function' ? init() : init);
  const first = await fetch(url, build());
  if (first.status !== 429) return first;
  const wait = retryAfterSeconds(first.headers['retry-after'], now());
  if (wait === null || wait > MAX_RETRY_AFTER_SECONDS)
    throw new Error(`${service} is rate limiting; retry after ${wait === null ? 'a while' : `${wait} s`}`);
  await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  const second = await fetch(url, build());
  if (second.status === 429) throw new Error(`${service} is still rate limiting after waiting ${wait} s`);
  return second;
}

function retryAfterSeconds(header: string | undefined, nowMs: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
