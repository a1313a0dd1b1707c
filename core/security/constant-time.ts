import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Digests under a per-process key make both sides the same length, so the comparison
// takes the same time whatever the inputs' lengths (timingSafeEqual needs equal lengths).
const key = randomBytes(32);

/** Constant-time equality of two secrets (tokens, signatures, nonces). */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const da = createHmac('sha256', key).update(a).digest();
  const db = createHmac('sha256', key).update(b).digest();
  return timingSafeEqual(da, db);
}
