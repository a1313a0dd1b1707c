/** The limits on a secret the sender chose, and the warning a short one earns. */
import { apiError } from '../../errors/catalogue.js';

/**
 * A secret the sender chose (GitHub, Stripe... pick their own): any non-empty one up to
 * 1,024 bytes is accepted, since refusing it would only stop the user from connecting the
 * service; a short one is accepted with a warning.
 */
export const senderSecret = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const MAX_SECRET_BYTES = 1024;
const ADVISED_SECRET_LENGTH = 16;

export function secretWarnings(secret: string | undefined): string[] {
  if (secret === undefined) return [];
  if (Buffer.byteLength(secret, 'utf8') > MAX_SECRET_BYTES) {
    throw apiError('rest_invalid_param', {
      message: `Invalid parameter(s): secret must be at most ${MAX_SECRET_BYTES} bytes`,
      data: { params: { secret: `must be at most ${MAX_SECRET_BYTES} bytes` } },
    });
  }
  return secret.length < ADVISED_SECRET_LENGTH
    ? [
        `The secret is shorter than ${ADVISED_SECRET_LENGTH} characters: anyone who guesses it can start this flow. Use a longer one where the sender allows it.`,
      ]
    : [];
}

export const withWarnings = (warnings: string[]) => (warnings.length ? { warnings } : {});
