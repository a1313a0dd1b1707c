import { apiError } from '../errors/catalogue.js';
import { safeEqual } from '../security/constant-time.js';
import type { HostVault } from '../security/vault.js';

/** What a token opens: the review link (approve or reject every pending item) or a webhook-mode wait's delivery URL. */
export type TokenPurpose = 'review' | 'webhook';

const CONTEXT = 'job-review-token';
const PURPOSE_CODE: Record<TokenPurpose, string> = { review: 'r', webhook: 'w' };

/**
 * Signed tokens for a waiting job: `v1.<job>.<purpose>.<nonce>.<expires>.<mac>`, the MAC an
 * HMAC-SHA256 of the rest under a key derived from the host's vault key (every host of a
 * cluster has it), compared in constant time. The nonce names the wait (a later wait of
 * the same job has another); its one use is recorded in the store by the caller.
 */
export function reviewTokens(vault: HostVault) {
  const mac = (body: string) => vault.sign(body, CONTEXT).toString('base64url');
  const invalid = () => apiError('review_link_invalid');
  return {
    sign(jobId: number, purpose: TokenPurpose, nonce: string, expires: Date): string {
      const body = `v1.${jobId}.${PURPOSE_CODE[purpose]}.${nonce}.${Math.floor(expires.getTime() / 1000)}`;
      return `${body}.${mac(body)}`;
    },
    /** The token's nonce when it is this job's, for this purpose, unaltered and not expired; otherwise the refusal. */
    verify(token: string, jobId: number, purpose: TokenPurpose, now: Date): { nonce: string } {
      const parts = typeof token === 'string' ? token.split('.') : [];
      if (parts.length !== 6 || parts[0] !== 'v1') throw invalid();
      const [, job, code, nonce, expires, given] = parts as [string, string, string, string, string, string];
      const body = parts.slice(0, 5).join('.');
      // The MAC first, over whatever was sent: a tampered field is the same refusal as a bad MAC.
      if (!safeEqual(given, mac(body))) throw invalid();
      if (job !== String(jobId) || code !== PURPOSE_CODE[purpose]) throw invalid();
      const at = Number(expires);
      if (!Number.isSafeInteger(at) || at <= 0) throw invalid();
      if (at * 1000 <= now.getTime())
        throw apiError('review_link_expired', { data: { job_id: jobId, expired_at: new Date(at * 1000).toISOString() } });
      return { nonce };
    },
  };
}
