import type { Principal } from '../../core/kernel/principal.js';
import { safeEqual } from '../../core/security/constant-time.js';
import { UserPrincipal } from '../../core/users/principal.js';
import type { UsersService } from '../../core/users/service.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import { LOCAL_SCHEME } from './local-scheme.js';
import { BASIC_CHALLENGE, BEARER_CHALLENGE } from './challenges.js';
import type { LoginThrottle } from './login-throttle.js';
import { apiError } from '../../core/errors/catalogue.js';
import { parseBearerToken } from '../../core/users/bearer-token.js';

export const NONCE_HEADERS = ['x-flowhost-nonce', 'x-wp-nonce'] as const;
/** `X-Flowhost-Background: 1`: a request no person asked for (a timed refresh); it does not keep its session from idling out. */
export const BACKGROUND_HEADER = 'x-flowhost-background';
export { LOCAL_SCHEME } from './local-scheme.js';

/**
 * One answer for every bad credential: it must not tell a wrong login from a wrong password.
 * The challenge (of the scheme the request used) goes only to requests that sent credentials
 * in a header: on a sign-in form's POST /session it would make the browser hold the request
 * and ask for a Basic login.
 */
export const invalidCredentials = (challenge: string | false = BASIC_CHALLENGE) =>
  apiError('rest_invalid_credentials', { headers: challenge ? { 'WWW-Authenticate': challenge } : {} });

export interface AuthInput {
  headers: Readonly<Record<string, string | undefined>>;
  ip: string;
  /** A page a browser navigates to: the session cookie counts without a nonce. */
  navigation?: boolean;
}

/**
 * Works out who is calling: HTTP Basic with an application password, a bearer token (an
 * application password on its own), the host's local CLI credential, or a cookie session
 * that counts only with its nonce header.
 */
export class Authenticator {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: LoginThrottle,
    private readonly localToken: () => string | null,
  ) {}

  async authenticate(input: AuthInput): Promise<Principal | null> {
    const authorization = input.headers.authorization;
    if (authorization) {
      const space = authorization.indexOf(' ');
      const scheme = space > 0 ? authorization.slice(0, space) : authorization;
      const value = space > 0 ? authorization.slice(space + 1).trim() : '';
      if (scheme.toLowerCase() === 'basic') return this.basic(value, input.ip);
      if (scheme.toLowerCase() === 'bearer') return this.bearer(value, input.ip);
      if (scheme === LOCAL_SCHEME) return this.local(value);
    }
    const token = readCookie(input.headers.cookie, SESSION_COOKIE);
    if (token) return this.cookie(token, input.headers, input.navigation === true);
    return null;
  }

  /**
   * Login + password check shared by Basic auth, POST /session and the current-password
   * check of PUT /session/password, throttled per address and login: one budget of guesses
   * whichever door they knock on. `refusal`: the error of a wrong password (default: the
   * generic 401, with the Basic challenge, or `challenge`'s, none when false).
   */
  async guardLogin<T>(
    ip: string,
    login: string,
    attempt: () => Promise<T | null>,
    options: { challenge?: string | false; refusal?: () => Error } = {},
  ): Promise<T> {
    const seen = await this.throttle.check(ip, login);
    const result = await attempt();
    if (result === null) {
      await this.throttle.failed(ip, login);
      throw options.refusal ? options.refusal() : invalidCredentials(options.challenge ?? BASIC_CHALLENGE);
    }
    await this.throttle.succeeded(ip, login, seen);
    return result;
  }

  private async basic(value: string, ip: string): Promise<Principal> {
    let decoded: string;
    try {
      decoded = Buffer.from(value, 'base64').toString('utf8');
    } catch {
      throw invalidCredentials();
    }
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw invalidCredentials();
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    return this.guardLogin(ip, login, () => this.users.verifyAppPassword(login, password));
  }

  /**
   * A bearer token, throttled as a login: its failures count in the address's budget
   * (shared with Basic and the sign-in form) and in a budget of their own keyed by the
   * token's lookup id (`bearer:<id>`; a colon no login holds), so guessing one token's
   * secret is slowed as guessing one login's password is.
   */
  private bearer(value: string, ip: string): Promise<Principal> {
    const parsed = parseBearerToken(value);
    return this.guardLogin(ip, `bearer:${parsed?.tokenId ?? ''}`, () => this.users.verifyBearerToken(value), {
      challenge: BEARER_CHALLENGE,
    });
  }

  private local(value: string): Principal {
    const expected = this.localToken();
    if (!expected || !safeEqual(value, expected)) throw invalidCredentials();
    return new UserPrincipal(0, 'flowhost-cli', 'system', [], 'local', 'cli');
  }

  private async cookie(token: string, headers: AuthInput['headers'], navigation: boolean): Promise<Principal | null> {
    const session = await this.users.sessions.find(token);
    if (!session) return null;
    if (!navigation) {
      const nonce = nonceOf(headers);
      // Without a nonce a cookie proves nothing (it may be a cross-site request): anonymous.
      if (nonce === undefined) return null;
      if (!this.users.sessions.nonceMatches(session, nonce)) throw apiError('rest_cookie_invalid_nonce');
    }
    // Only a use the session proved counts against the idle timeout, and not a page's own
    // timed refresh (it says so): a console left open on a live view must still time out.
    if (headers[BACKGROUND_HEADER] !== '1') await this.users.sessions.used(session);
    return this.users.principalFor(session.user_id, 'cookie');
  }
}

/** The nonce a request sent with its cookie (X-Flowhost-Nonce or X-WP-Nonce), if any. */
export function nonceOf(headers: AuthInput['headers']): string | undefined {
  return NONCE_HEADERS.map((h) => headers[h]).find((v) => v !== undefined);
}
