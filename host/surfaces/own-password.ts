import { apiError } from '../../core/errors/catalogue.js';
import type { RouteReply, RouteRequest } from '../../core/kernel/routes.js';
import type { UsersService } from '../../core/users/service.js';
import type { Authenticator } from '../auth/authenticator.js';
import { readCookie, SESSION_COOKIE } from '../auth/cookies.js';

type Opened = (
  user: { user_id: number; login: string; role: string },
  appPasswordId: string | null,
  protocol: string,
  message?: string,
) => Promise<RouteReply>;

/**
 * PUT /session/password: a signed-in user sets their own password. Once one exists the
 * current one is required, and a wrong one counts as a failed login for that login and
 * address (the same budget as POST /session and Basic), so a stolen session cannot guess
 * it; a spent budget refuses even the right one (429) until the window passes. The new
 * password ends the user's other sessions; the one it was set from stays, with its nonce
 * (a client without a cookie session gets a new one, as before).
 */
export async function changeOwnPassword(
  deps: { users: UsersService; authenticator: Authenticator },
  opened: Opened,
  request: RouteRequest<Record<string, unknown>, Record<string, unknown>, { password: string; current_password?: string }>,
): Promise<RouteReply | Record<string, unknown>> {
  const { password, current_password } = request.body;
  const userId = request.user!.userId;
  const user = await deps.users.get(userId);
  if (user.has_password) {
    if (current_password === undefined) throw apiError('incorrect_password');
    await deps.authenticator.guardLogin(
      request.ip,
      user.login,
      async () => ((await deps.users.checkPassword(userId, current_password)) ? true : null),
      { refusal: () => apiError('incorrect_password') },
    );
  }
  const token = request.user!.via === 'cookie' ? readCookie(request.headers.cookie, SESSION_COOKIE) : null;
  await deps.users.setPassword(userId, password, token ?? undefined);
  const kept = token ? await deps.users.sessions.find(token) : null;
  if (!kept) return opened(user, null, request.protocol, 'Password set.');
  return {
    success: true,
    message: 'Password set.',
    data: {
      user_id: user.user_id,
      login: user.login,
      role: user.role,
      has_password: true,
      nonce: kept.nonce,
      expires_at: kept.expires_at.toISOString(),
    },
  };
}
