import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';

/** An OAuth 1.0a signer (HMAC-SHA1, the `oauth-1.0a` library) for a consumer key and secret. */
export function oauth1Signer(consumerKey: string, consumerSecret: string): OAuth {
  return new OAuth({
    consumer: { key: consumerKey, secret: consumerSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
}

/**
 * The Authorization header of a request signed with OAuth 1.0a. `data` are form or query
 * parameters that take part in the signature; a JSON body does not (the microblog API
 * signs JSON requests without it).
 */
export function oauth1Header(
  signer: OAuth,
  request: { url: string; method: string; data?: Record<string, string> },
  token?: { key: string; secret: string },
): string {
  return signer.toHeader(signer.authorize({ url: request.url, method: request.method, data: request.data }, token)).Authorization;
}

/** One signed request's Authorization header, for handlers (consumer keys and the account's token). */
export function oauth1Authorization(
  consumer: { key: string; secret: string },
  request: { url: string; method: string; data?: Record<string, string> },
  token?: { key: string; secret: string },
): string {
  return oauth1Header(oauth1Signer(consumer.key, consumer.secret), request, token);
}
