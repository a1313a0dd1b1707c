/**
 * The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header) on
 * the webhook trigger: a sender that sends one asks that a retry of the same delivery
 * answer the first one's job instead of starting another run.
 */
import { createHash } from 'node:crypto';
import { apiError } from '../errors/catalogue.js';

/** The longest key accepted (Stripe's limit; a UUID is 36). */
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long a key is remembered on a flow that has not set its own duplicate window. */
export const DEFAULT_IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/** Visible ASCII without the double quote: what can be logged and stored as it came. */
const KEY = /^[\x21\x23-\x7e]+$/;

const invalid = (why: string) =>
  apiError('invalid_idempotency_key', {
    message: `Invalid Idempotency-Key header: ${why}. Send one key of 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (no spaces or commas), e.g. a UUID.`,
  });

/**
 * The key a request carries, or null when it sends none. The draft sends it as a
 * structured-field string (`"abc"`); most senders send it bare (`abc`): both are the key
 * `abc`. Throws 400 `invalid_idempotency_key` on an empty, too long, repeated or
 * non-ASCII one; the bad value is never echoed.
 */
export function readIdempotencyKey(headers: Readonly<Record<string, string | string[] | undefined>>): string | null {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return null;
  // Node joins repeated headers it does not know with ", ": a comma means two keys were sent.
  if (Array.isArray(raw) || raw.includes(',')) throw invalid('it was sent more than once');
  const trimmed = raw.trim();
  const key = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
  if (key.length === 0) throw invalid('it is empty');
  if (key.length > IDEMPOTENCY_KEY_MAX) throw invalid(`it is ${key.length} characters long`);
  if (!KEY.test(key)) throw invalid('it holds a space, a quote or a character outside visible ASCII');
  return key;
}

/** What a repeat's body must match: a key sent again with another body is a sender's mistake. */
export function bodyFingerprint(rawBody: Buffer | string | undefined): string {
  return createHash('sha256')
    .update(rawBody ?? '')
    .digest('base64url');
}
