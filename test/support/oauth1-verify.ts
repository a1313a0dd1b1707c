// An independent OAuth 1.0a (RFC 5849, HMAC-SHA1) verifier, written from the RFC for the
// fakes: it shares no code with the `oauth-1.0a` library the handlers sign with.
import { createHmac, timingSafeEqual } from 'node:crypto';

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The oauth_* parameters of an `Authorization: OAuth ...` header. */
export function parseOAuthHeader(header: string | undefined): Record<string, string> {
  if (!header?.startsWith('OAuth ')) return {};
  const out: Record<string, string> = {};
  for (const part of header.slice(6).split(',')) {
    const match = /^\s*([^=]+)="([^"]*)"\s*$/.exec(part);
    if (match) out[decodeURIComponent(match[1]!)] = decodeURIComponent(match[2]!);
  }
  return out;
}

/**
 * Whether the request's signature is right for these secrets. `url` is the full request
 * URL (its query takes part), `form` the form-encoded body parameters (a JSON body does not).
 */
export function verifyOAuth1(input: {
  method: string;
  url: string;
  header: string | undefined;
  form?: Record<string, string>;
  consumerSecret: string;
  tokenSecret?: string;
}): { ok: boolean; params: Record<string, string>; reason?: string } {
  const params = parseOAuthHeader(input.header);
  if (params.oauth_signature_method !== 'HMAC-SHA1') return { ok: false, params, reason: 'not HMAC-SHA1' };
  if (!params.oauth_signature || !params.oauth_nonce || !params.oauth_timestamp || !params.oauth_consumer_key)
    return { ok: false, params, reason: 'missing oauth parameters' };
  const url = new URL(input.url);
  const pairs: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(params)) if (k !== 'oauth_signature' && k !== 'realm') pairs.push([k, v]);
  for (const [k, v] of url.searchParams) pairs.push([k, v]);
  for (const [k, v] of Object.entries(input.form ?? {})) pairs.push([k, v]);
  const normalized = pairs
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const baseUrl = `${url.protocol}//${url.host}${url.pathname}`;
  const base = [input.method.toUpperCase(), rfc3986(baseUrl), rfc3986(normalized)].join('&');
  const key = `${rfc3986(input.consumerSecret)}&${rfc3986(input.tokenSecret ?? '')}`;
  const expected = Buffer.from(createHmac('sha1', key).update(base).digest('base64'));
  const given = Buffer.from(params.oauth_signature);
  const ok = expected.length === given.length && timingSafeEqual(expected, given);
  return ok ? { ok, params } : { ok, params, reason: 'bad signature' };
}
