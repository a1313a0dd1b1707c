import { apiError } from '../../core/errors/catalogue.js';
import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import { reply } from '../../core/kernel/routes.js';
import type { UsersService } from '../../core/users/service.js';
import { type Authenticator, nonceOf } from '../auth/authenticator.js';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../auth/cookies.js';
import { withResponses } from '../../core/kernel/response-schemas.js';
import { changeOwnPassword } from './own-password.js';
import { sessionResponses } from './responses.js';
import { defineRoute } from '../../sdk/define.js';

/**
 * Cookie sessions for same-origin admin use: log in with a user password, get an
 * HttpOnly SameSite=Lax cookie and a nonce to send as X-WP-Nonce / X-Flowhost-Nonce.
 * Their lifetimes are UsersService's (absolute and idle; the host sets them from its config).
 */
export function sessionSurface(deps: {
  users: UsersService;
  authenticator: Authenticator;
  ttlSeconds: number;
  secureCookies: () => boolean;
}): SurfaceDefinition {
  const secure = (protocol: string) => deps.secureCookies() || protocol === 'https';
  // A new session for the user: its cookie, and the nonce the client sends with it.
  const opened = async (
    user: { user_id: number; login: string; role: string },
    appPasswordId: string | null,
    protocol: string,
    message?: string,
  ) => {
    const session = await deps.users.sessions.open(user.user_id, appPasswordId);
    const hasPassword = await deps.users.hasPassword(user.user_id);
    return reply(
      200,
      {
        success: true,
        ...(message ? { message } : {}),
        data: {
          user_id: user.user_id,
          login: user.login,
          role: user.role,
          has_password: hasPassword,
          nonce: session.nonce,
          expires_at: session.expiresAt.toISOString(),
        },
      },
      { 'Set-Cookie': sessionCookie(session.token, deps.ttlSeconds, secure(protocol)) },
    );
  };
  return withResponses(
    {
      id: 'session',
      routes: [
        defineRoute({
          method: 'POST',
          path: '/session',
          permission: 'public',
          summary: 'Log in with login + password; sets the session cookie and returns its nonce',
          schema: {
            body: {
              type: 'object',
              required: ['login', 'password'],
              additionalProperties: false,
              properties: {
                login: { type: 'string', minLength: 1, maxLength: 200 },
                password: { type: 'string', minLength: 1, maxLength: 1024 },
              },
            },
          },
          async handle(request) {
            const { login, password } = request.body;
            const signIn = await deps.authenticator.guardLogin(request.ip, login, () => deps.users.verifyUserPassword(login, password), {
              challenge: false,
            });
            return opened(signIn.user, signIn.appPasswordId, request.protocol);
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/session',
          // The cookie alone identifies the session here: this is how a client fetches a fresh nonce.
          permission: 'public',
          summary: 'The current cookie session and its nonce',
          async handle(request) {
            const token = readCookie(request.headers.cookie, SESSION_COOKIE);
            // Not a use of the session (the idle timeout runs on): any page can make a browser fetch this.
            const session = token ? await deps.users.sessions.find(token) : null;
            if (!session) throw apiError('rest_not_logged_in');
            const user = await deps.users.get(session.user_id);
            return {
              success: true,
              data: {
                user_id: user.user_id,
                login: user.login,
                role: user.role,
                has_password: user.has_password,
                nonce: session.nonce,
                expires_at: session.expires_at.toISOString(),
              },
            };
          },
        }),
        defineRoute({
          method: 'PUT',
          path: '/session/password',
          permission: 'authenticated',
          summary:
            "Set the signed-in user's own password (the current one too once one exists, its guesses counted as failed logins); ends the user's other sessions",
          schema: {
            body: {
              type: 'object',
              required: ['password'],
              additionalProperties: false,
              properties: {
                password: { type: 'string', minLength: 1, maxLength: 1024 },
                current_password: { type: 'string', minLength: 1, maxLength: 1024 },
              },
            },
          },
          handle: (request) => changeOwnPassword(deps, opened, request),
        }),
        defineRoute({
          method: 'DELETE',
          path: '/session/all',
          permission: 'authenticated',
          summary: 'Sign out everywhere: ends every session of the signed-in user, this one included',
          async handle(request) {
            const ended = await deps.users.sessions.endAll(request.user!.userId);
            return reply(
              200,
              { success: true, message: 'Signed out everywhere.', data: { ended } },
              { 'Set-Cookie': clearedSessionCookie(secure(request.protocol)) },
            );
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/session',
          permission: 'public',
          summary: "Log out: ends the cookie session (with the session's nonce, as every cookie request)",
          async handle(request) {
            const token = readCookie(request.headers.cookie, SESSION_COOKIE);
            const session = token ? await deps.users.sessions.find(token) : null;
            if (token && session) {
              // Without the nonce any page could sign the user out (a cross-site form, an image).
              const nonce = nonceOf(request.headers);
              if (nonce === undefined || !deps.users.sessions.nonceMatches(session, nonce)) throw apiError('rest_cookie_invalid_nonce');
              await deps.users.sessions.end(token);
            }
            return reply(200, { success: true, message: 'Logged out.' }, { 'Set-Cookie': clearedSessionCookie(secure(request.protocol)) });
          },
        }),
      ],
    },
    sessionResponses,
  );
}
