export const SESSION_COOKIE = 'flowhost_session';

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * Lax, not Strict: an OAuth provider sends the administrator's browser back to
 * /flowhost-auth/{slug}/ from its own site, a cross-site navigation that carries a Lax
 * cookie (top-level GET) and not a Strict one, so with Strict the callback arrived signed
 * out. Lax still keeps the cookie off cross-site subrequests and POSTs, and the API counts
 * a cookie only with its nonce; the one page route that takes the cookie alone is that
 * callback, whose single-use state is bound to the user who started the flow.
 */
const SAME_SITE = 'Lax';

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=${SAME_SITE}; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=${SAME_SITE}; Max-Age=0${secure ? '; Secure' : ''}`;
}
