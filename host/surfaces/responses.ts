/** The bodies the host's session and user administration routes answer (see docs/api.md). */
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import { bool, errorBody, int, isoDate, list, named, nullable, obj, str, successBody } from '../../core/kernel/response-schemas.js';

const session = named('Session', obj({ user_id: int, login: str, role: str, has_password: bool, nonce: str, expires_at: isoDate }));

export const sessionResponses: Record<string, Record<number, JsonSchema>> = {
  'POST /session': { 200: successBody({ data: session }), 401: errorBody('rest_invalid_credentials') },
  'GET /session': { 200: successBody({ data: session }), 401: errorBody('rest_not_logged_in'), 404: errorBody('user_not_found') },
  'DELETE /session': { 200: successBody({ message: str }) },
  'DELETE /session/all': { 200: successBody({ message: str, data: obj({ ended: int }) }) },
  'PUT /session/password': {
    200: successBody({ message: str, data: session }),
    400: errorBody('weak_password', 'incorrect_password'),
    401: errorBody('rest_not_logged_in'),
  },
};

const user = named('User', obj({ user_id: int, login: str, role: str, capabilities: list(str), has_password: bool, created_at: isoDate }));
const appPassword = named(
  'ApplicationPassword',
  obj({
    uuid: str,
    user_id: int,
    name: str,
    bearer: { type: 'boolean', description: 'Usable as a bearer token (false: created before bearer tokens; Basic only)' },
    created_at: isoDate,
    last_used_at: nullable(isoDate),
  }),
);
const createdAppPassword = named(
  'NewApplicationPassword',
  obj({
    ...(appPassword.properties as Record<string, JsonSchema>),
    password: { type: 'string', description: 'Shown once' },
    token: { type: 'string', pattern: '^fh_[0-9a-f]{16}_[A-Za-z0-9]{24}$', description: 'The same password as a bearer token; shown once' },
  }),
);
const userNotFound = errorBody('user_not_found');

export const userAdminResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /users': { 200: successBody({ data: list(user), total: int }), 404: userNotFound },
  'POST /users': {
    201: successBody({ data: obj({ user, application_password: createdAppPassword }) }),
    400: errorBody('invalid_login', 'invalid_role', 'invalid_capability', 'weak_password', 'invalid_name'),
    409: errorBody('user_exists'),
  },
  'DELETE /users/{id}': {
    200: successBody({ data: obj({ deleted: { const: true }, previous: user }) }),
    404: userNotFound,
    409: errorBody('last_administrator'),
  },
  'DELETE /users/{id}/sessions': { 200: successBody({ message: str, data: obj({ user_id: int, ended: int }) }), 404: userNotFound },
  'PUT /users/{id}/password': { 200: successBody({ message: str }), 400: errorBody('weak_password'), 404: userNotFound },
  'GET /users/{id}/application-passwords': { 200: successBody({ data: list(appPassword), total: int }), 404: userNotFound },
  'POST /users/{id}/application-passwords': {
    201: successBody({ data: createdAppPassword }),
    400: errorBody('invalid_name'),
    404: userNotFound,
  },
  'DELETE /users/{id}/application-passwords/{uuid}': {
    200: successBody({ data: obj({ revoked: { const: true }, previous: appPassword }) }),
    404: errorBody('application_password_not_found'),
  },
};
