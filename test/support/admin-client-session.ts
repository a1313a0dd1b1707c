// The original admin client's transport (compat/admin-client.md), for suites that replay it:
// a cookie session with its nonce, PUT/PATCH/DELETE sent as POST with X-HTTP-Method-Override,
// and `_locale=user` on every URL.
import type { TestHost } from '../../sdk/testing/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- replayed calls read arbitrary JSON

export type AdminClientCall = (
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string | number>,
) => Promise<{ status: number; body: Body }>;

/** Signs the test host's administrator in with a console password and calls as the client does. */
export async function adminClientSession(t: TestHost): Promise<AdminClientCall> {
  const admin = await t.host.users.findByLogin('admin');
  await t.host.users.setPassword(admin!.user_id, 'admin session pw');
  const login = await t.request<{ data: { nonce: string } }>('POST', '/session', {
    as: 'anonymous',
    body: { login: 'admin', password: 'admin session pw' },
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const nonce = login.body.data.nonce;
  return async (method, path, body, query = {}) => {
    const override: Record<string, string> = method === 'GET' || method === 'POST' ? {} : { 'X-HTTP-Method-Override': method };
    const res = await t.request<Body>(method === 'GET' ? 'GET' : 'POST', path, {
      as: 'anonymous',
      headers: { Cookie: cookie, 'X-WP-Nonce': nonce, ...override },
      query: { ...query, _locale: 'user' },
      body,
    });
    return { status: res.status, body: res.body };
  };
}
