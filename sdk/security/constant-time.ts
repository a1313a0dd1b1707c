import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// timingSafeEqual needs equal lengths, and returning early on a length mismatch would
// leak the secret's length. Comparing HMAC digests under a per-process random key makes
// both sides 32 bytes whatever the inputs, and the digests reveal nothing usable.
const key = randomBytes(32);

const digest = (value: string | Buffer): Buffer => createHmac('sha256', key).update(value).digest();

/**
 * Constant-time equality of two secrets (webhook tokens, HMAC signatures, nonces).
 * Returns false, rather than throwing, when a caller passes something that is neither a
 * string nor a Buffer (for example a missing header).
 */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const usable = (v: unknown): v is string | Buffer => typeof v === 'string' || Buffer.isBuffer(v);
  if (!usable(a) || !usable(b)) return false;
  return timingSafeEqual(digest(a), digest(b));
}
