import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import { reply } from '../../core/kernel/routes.js';
import type { UsersService } from '../../core/users/service.js';
import { appPasswordNameSchema, createUserBody, loginSchema, passwordSchema } from '../../core/users/schemas.js';
import { withResponses } from '../../core/kernel/response-schemas.js';
import { userAdminResponses } from './responses.js';
import { apiError } from '../../core/errors/catalogue.js';
import { defineRoute } from '../../sdk/define.js';
import { readCookie, SESSION_COOKIE } from '../auth/cookies.js';

const admin = { capability: 'manage_options' } as const;
const userIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * User and application-password administration (WordPress-like). The CLI uses these
 * when a running host holds the data directory.
 */
export function userAdminSurface(users: UsersService): SurfaceDefinition {
  return withResponses(
    {
      id: 'user-admin',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/users',
          permission: admin,
          summary: 'List users (optionally one login)',
          schema: { query: { type: 'object', properties: { login: loginSchema } } },
          async handle(request) {
            const { login } = request.query;
            if (login) {
              const user = await users.findByLogin(login);
              if (!user) throw apiError('user_not_found', { message: `No user with login '${login}'` });
              return { success: true, data: [user], total: 1 };
            }
            const list = await users.list();
            return { success: true, data: list, total: list.length };
          },
        }),
        defineRoute({
          method: 'POST',
          path: '/users',
          permission: admin,
          summary: 'Create a user and a first application password (shown once)',
          schema: { body: createUserBody },
          async handle(request) {
            const body = request.body;
            const user = await users.create(body);
            const appPassword = await users.createAppPassword(user.user_id, body.app_password_name ?? 'flowhost-cli');
            return reply(201, { success: true, data: { user, application_password: appPassword } });
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/users/{id}',
          permission: admin,
          summary: 'Delete a user with their sessions and application passwords',
          schema: { params: userIdParams },
          async handle(request) {
            const user = await users.delete(request.params.id);
            return { success: true, data: { deleted: true, previous: user } };
          },
        }),
        defineRoute({
          method: 'PUT',
          path: '/users/{id}/password',
          permission: admin,
          summary: 'Set the login password used for cookie sessions',
          schema: {
            params: userIdParams,
            body: { type: 'object', required: ['password'], additionalProperties: false, properties: { password: passwordSchema } },
          },
          async handle(request) {
            // The user's sessions end with it; an administrator setting their own keeps the one they use.
            const own = request.user!.userId === request.params.id && request.user!.via === 'cookie';
            const token = own ? readCookie(request.headers.cookie, SESSION_COOKIE) : null;
            await users.setPassword(request.params.id, request.body.password, token ?? undefined);
            return { success: true, message: 'Password updated.' };
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/users/{id}/sessions',
          permission: admin,
          summary: 'End every cookie session of a user (their application passwords keep working)',
          schema: { params: userIdParams },
          async handle(request) {
            const user = await users.get(request.params.id);
            const ended = await users.sessions.endAll(user.user_id);
            return { success: true, message: `Ended ${ended} session${ended === 1 ? '' : 's'}.`, data: { user_id: user.user_id, ended } };
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/users/{id}/application-passwords',
          permission: admin,
          summary: 'List application passwords (names and dates, never the secrets)',
          schema: { params: userIdParams },
          async handle(request) {
            const list = await users.listAppPasswords(request.params.id);
            return { success: true, data: list, total: list.length };
          },
        }),
        defineRoute({
          method: 'POST',
          path: '/users/{id}/application-passwords',
          permission: admin,
          summary: 'Create an application password (the password is in this answer only)',
          schema: {
            params: userIdParams,
            body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: appPasswordNameSchema } },
          },
          async handle(request) {
            const created = await users.createAppPassword(request.params.id, request.body.name);
            return reply(201, { success: true, data: created });
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/users/{id}/application-passwords/{uuid}',
          permission: admin,
          summary: 'Revoke an application password',
          schema: {
            params: {
              ...userIdParams,
              required: ['id', 'uuid'],
              properties: { ...userIdParams.properties, uuid: { type: 'string', format: 'uuid' } },
            },
          },
          async handle(request) {
            const { id, uuid } = request.params;
            const revoked = await users.revokeAppPassword(id, uuid);
            return { success: true, data: { revoked: true, previous: revoked } };
          },
        }),
      ],
    },
    userAdminResponses,
  );
}
