import type { AppPasswordView, UserView } from '../../core/users/model.js';
import type { CreatedAppPassword } from '../../core/users/service.js';
import { LOCAL_SCHEME } from '../auth/local-scheme.js';
import { CliError, type AdminClient } from './admin-client.js';
import { type LoopbackAnswer, sendToHost } from './loopback-http.js';

/**
 * Through the running host's REST API, authenticated by the local credential the host
 * wrote (0600) in the data directory: the CLI never writes the database behind it.
 */
export function remoteAdmin(options: { url: string; apiBase: string; token: string }): AdminClient {
  const base = options.apiBase;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: LoopbackAnswer;
    try {
      response = await sendToHost(new URL(`${base}${path}`), {
        method,
        headers: {
          Authorization: `${LOCAL_SCHEME} ${options.token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new CliError(`The running host at ${options.url} did not answer: ${(error as Error).message}`);
    }
    const payload = response.json() as { success?: boolean; message?: string; data?: unknown };
    if (!response.ok || payload.success === false) throw new CliError(payload.message ?? `The host answered HTTP ${response.status}`);
    return payload.data as T;
  };
  return {
    via: 'host',
    listUsers: () => call<UserView[]>('GET', '/users'),
    findUser: async (login) => {
      const found = await call<UserView[]>('GET', `/users?login=${encodeURIComponent(login)}`);
      return found[0]!;
    },
    createUser: (input) => call('POST', '/users', input),
    deleteUser: async (id) => void (await call('DELETE', `/users/${id}`)),
    setPassword: async (id, password) => void (await call('PUT', `/users/${id}/password`, { password })),
    endSessions: async (id) => (await call<{ ended: number }>('DELETE', `/users/${id}/sessions`)).ended,
    createAppPassword: (id, name) => call<CreatedAppPassword>('POST', `/users/${id}/application-passwords`, { name }),
    listAppPasswords: (id) => call<AppPasswordView[]>('GET', `/users/${id}/application-passwords`),
    revokeAppPassword: async (id, uuid) => void (await call('DELETE', `/users/${id}/application-passwords/${encodeURIComponent(uuid)}`)),
    close: async () => undefined,
  };
}
