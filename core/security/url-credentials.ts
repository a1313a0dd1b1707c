/**
 * Credentials written into a URL (`https://user:password@host/feed`): a feed or API address
 * given that way carries a password as surely as an `app_password` field, so handler
 * settings seal, mask and export it as one (core/flows/handler-secrets.ts).
 */

export interface UrlCredentials {
  /** Up to and including `://`. */
  before: string;
  /** `user:password` as written (percent-encoded or not), or a sealed value. */
  userinfo: string;
  /** From the host on. */
  after: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** The userinfo of a string that is a URL with one; null for anything else. */
export function urlCredentials(value: string): UrlCredentials | null {
  if (typeof value !== 'string' || !value.includes('@') || !URL.canParse(value)) return null;
  const scheme = value.indexOf('://');
  if (scheme <= 0 || !SCHEME.test(value.slice(0, scheme))) return null;
  const start = scheme + 3;
  // The authority ends at the first '/', '?' or '#' (or '\', which special schemes read as '/').
  let end = value.length;
  for (const stop of ['/', '?', '#', '\\']) {
    const at = value.indexOf(stop, start);
    if (at !== -1 && at < end) end = at;
  }
  const at = value.lastIndexOf('@', end - 1);
  if (at <= start) return null;
  return { before: value.slice(0, start), userinfo: value.slice(start, at), after: value.slice(at + 1) };
}

/** The same URL with another userinfo (`''` drops it and its `@`). */
export function withUserinfo(parts: UrlCredentials, userinfo: string): string {
  return userinfo === '' ? `${parts.before}${parts.after}` : `${parts.before}${userinfo}@${parts.after}`;
}
