import { notLoggedIn } from '../../core/errors.js';
import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import { reply } from '../../core/kernel/routes.js';
import type { UsersService } from '../../core/users/service.js';
import { loginSchema } from '../../core/users/schemas.js';
import type { Authenticator } from '../auth/authenticator.js';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../auth/cookies.js';
import { withResponses } from '../../core/kernel/response-schemas.js';
import { sessionResponses } from './responses.js';

/**
 * Cookie sessions for same-origin admin use: log in with a user password, get an
 * HttpOnly SameSite=Lax cookie and a nonce to send as X-WP-Nonce / X-Flowhost-Nonce.
 */
export function sessionSurface(deps: { users: UsersService; authenticator: Authenticator; ttlSeconds: number; secureCookies: () => boolean }): SurfaceDefinition {
  return withResponses({
    id: 'session',
    routes: [
      {
        method: 'POST',
        path: '/session',
        permission: 'public',
        summary: 'Log in with login + password; sets the session cookie and returns its nonce',
        schema: {
          body: {
            type: 'object',
            required: ['login', 'password'],
            additionalProperties: false,
            properties: { login: { type: 'string', minLength: 1, maxLength: 200 }, password: { type: 'string', minLength: 1, maxLength: 1024 } },
          },
        },
        async handle(request) {
          const { login, password } = request.body as { login: string; password: string };
          const user = await deps.authenticator.guardLogin(request.ip, login, () => deps.users.verifyUserPassword(login, password));
          const session = await deps.users.createSession(user.user_id, deps.ttlSeconds);
          return reply(
            200,
            { success: true, data: { user_id: user.user_id, login: user.login, role: user.role, nonce: session.nonce, expires_at: session.expiresAt.toISOString() } },
            { 'Set-Cookie': sessionCookie(session.token, deps.ttlSeconds, deps.secureCookies() || request.protocol === 'https') },
          );
        },
      },
      {
        method: 'GET',
        path: '/session',
        // The cookie alone identifies the session here: this is how a client fetches a fresh nonce.
        permission: 'public',
        summary: 'The current cookie session and its nonce',
        async handle(request) {
          const token = readCookie(request.headers.cookie, SESSION_COOKIE);
          const session = token ? await deps.users.findSession(token) : null;
          if (!session) throw notLoggedIn();
          const user = await deps.users.get(session.user_id);
          return { success: true, data: { user_id: user.user_id, login: user.login, role: user.role, nonce: session.nonce, expires_at: session.expires_at.toISOString() } };
        },
      },
      {
        method: 'DELETE',
        path: '/session',
        permission: 'public',
        summary: 'Log out: ends the cookie session',
        async handle(request) {
          const token = readCookie(request.headers.cookie, SESSION_COOKIE);
          if (token) await deps.users.destroySession(token);
          return reply(200, { success: true, message: 'Logged out.' }, { 'Set-Cookie': clearedSessionCookie(deps.secureCookies() || request.protocol === 'https') });
        },
      },
    ],
  }, sessionResponses);
}
