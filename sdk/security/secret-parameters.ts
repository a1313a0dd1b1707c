/**
 * Query parameters whose value authenticates: an OAuth callback's `code` and `state`, a
 * `?token=` on a webhook or a private feed, a presigned URL's signature. One list for the
 * request log (host/logging/request-url.ts writes their values as `[redacted]`) and for
 * handler settings (core/security/url-query-secrets.ts: a URL setting carrying one is
 * sealed, masked and left out of exports like a secret field).
 *
 * A name is compared lowercased with everything but letters and digits dropped
 * (`X-Amz-Signature` → `xamzsignature`, `_wpnonce` → `wpnonce`): secret when it is one of
 * SECRET_NAMES, or ends with one of SECRET_ENDINGS (`access_token`, `client_secret`,
 * `api_key`, `new_password`, `oauth_verifier`...). docs/operations.md lists both.
 */
export const SECRET_NAMES: ReadonlySet<string> = new Set([
  'code',
  'state',
  'sig',
  'pass',
  'pwd',
  'auth',
  'otp',
  'jwt',
  'session',
  'ticket',
  'hmac',
  'assertion',
]);
export const SECRET_ENDINGS: readonly string[] = [
  'token',
  'secret',
  'password',
  'passwd',
  'key',
  'signature',
  'nonce',
  'verifier',
  'credential',
  'credentials',
];

function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A broken escape is compared as written.
  }
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether a query parameter's name (as written in the query, percent-encoded or not) is secret. */
export function isSecretParameter(raw: string): boolean {
  const name = decodedName(raw);
  return SECRET_NAMES.has(name) || SECRET_ENDINGS.some((ending) => name.endsWith(ending));
}
