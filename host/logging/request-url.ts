/**
 * The request line's URL as the request log writes it: the value of every query parameter
 * whose name looks secret is replaced by `[redacted]` (the name stays, so the line still
 * says what was sent). An OAuth callback's `code` and `state`, a `?token=` on a webhook,
 * a presigned URL's signature: query strings end up in logs, log shippers and support
 * tickets, where nothing that authenticates may go.
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

const REDACTED = '[redacted]';

function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A broken escape is compared as written.
  }
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSecretParameter(raw: string): boolean {
  const name = decodedName(raw);
  return SECRET_NAMES.has(name) || SECRET_ENDINGS.some((ending) => name.endsWith(ending));
}

export function loggableUrl(url: string | undefined): string | undefined {
  const at = url?.indexOf('?') ?? -1;
  if (url === undefined || at < 0) return url;
  const parts = url.slice(at + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const equals = part.indexOf('=');
    if (equals < 0 || !isSecretParameter(part.slice(0, equals))) continue;
    parts[i] = `${part.slice(0, equals)}=${REDACTED}`;
    changed = true;
  }
  return changed ? `${url.slice(0, at)}?${parts.join('&')}` : url;
}
