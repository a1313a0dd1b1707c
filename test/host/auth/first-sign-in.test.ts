// A newcomer signs in to the console with what the first start wrote (an application
// password), is told they have no password yet, sets one, and from then on only that
// password opens a session.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';

type Session = { success: boolean; message?: string; data: { user_id: number; login: string; has_password: boolean; nonce: string } };
type Err = { code: string; message: string };

const test = suite<{ t: TestHost }>('auth: first sign-in with an application password, then a password of ones own');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
});
test.after(async (ctx) => ctx.t.stop());

const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

test('a user without a password opens a session with an application password; has_password is false', async ({ t }) => {
  const bob = await t.createUser('bob', 'editor');
  const res = await t.request<Session>('POST', '/session', { as: 'anonymous', body: { login: 'bob', password: bob.password } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.data.has_password, false);
  const cookie = cookieOf(res);
  const again = await t.request<Session>('GET', '/session', { as: 'anonymous', headers: { Cookie: cookie } });
  assert.is(again.body.data.has_password, false);

  // Setting one: the session it was set from stays (same cookie, same nonce); others would end.
  const set = await t.request<Session>('PUT', '/session/password', {
    as: 'anonymous',
    headers: { Cookie: cookie, 'X-WP-Nonce': res.body.data.nonce },
    body: { password: 'a long enough secret' },
  });
  assert.is(set.status, 200, JSON.stringify(set.body));
  assert.is(set.body.data.has_password, true);
  assert.is(set.body.data.nonce, res.body.data.nonce, 'the same session answers');
  assert.is((await t.request<Session>('GET', '/session', { as: 'anonymous', headers: { Cookie: cookie } })).body.data.has_password, true);

  // Now the application password no longer opens a session (it still works for the API).
  const viaApp = await t.request<Err>('POST', '/session', { as: 'anonymous', body: { login: 'bob', password: bob.password } });
  assert.is(viaApp.status, 401);
  assert.is(viaApp.body.code, 'rest_invalid_credentials');
  assert.is((await t.request('GET', '/users/me', { as: bob })).status, 200);
  assert.is(
    (await t.request<Session>('POST', '/session', { as: 'anonymous', body: { login: 'bob', password: 'a long enough secret' } })).status,
    200,
  );
});

test('changing an existing password needs the current one; a weak one is refused and nothing changes', async ({ t }) => {
  const carol = await t.createUser('carol', 'author');
  await t.host.users.setPassword(carol.userId, 'first password here');
  const login = await t.request<Session>('POST', '/session', {
    as: 'anonymous',
    body: { login: 'carol', password: 'first password here' },
  });
  const headers = { Cookie: cookieOf(login), 'X-WP-Nonce': login.body.data.nonce };
  const missing = await t.request<Err>('PUT', '/session/password', {
    as: 'anonymous',
    headers,
    body: { password: 'second password here' },
  });
  assert.is(missing.status, 400);
  assert.is(missing.body.code, 'incorrect_password');
  const wrong = await t.request<Err>('PUT', '/session/password', {
    as: 'anonymous',
    headers,
    body: { password: 'second password here', current_password: 'nope nope' },
  });
  assert.is(wrong.body.code, 'incorrect_password');
  const weak = await t.request<Err>('PUT', '/session/password', {
    as: 'anonymous',
    headers,
    body: { password: 'short', current_password: 'first password here' },
  });
  assert.is(weak.status, 400);
  assert.is(weak.body.code, 'weak_password');
  assert.is((await t.request('GET', '/session', { as: 'anonymous', headers })).status, 200, 'refusals end no session');
  const ok = await t.request<Session>('PUT', '/session/password', {
    as: 'anonymous',
    headers,
    body: { password: 'second password here', current_password: 'first password here' },
  });
  assert.is(ok.status, 200);
  assert.is(ok.body.message, 'Password set.');
  assert.is(
    (await t.request('POST', '/session', { as: 'anonymous', body: { login: 'carol', password: 'second password here' } })).status,
    200,
  );
});

test('anonymous: 401, and a wrong application password counts as a failed login', async ({ t }) => {
  const res = await t.request<Err>('PUT', '/session/password', { as: 'anonymous', body: { password: 'whatever whatever' } });
  assert.is(res.status, 401);
  const bad = await t.request<Err>('POST', '/session', {
    as: 'anonymous',
    body: { login: 'admin', password: 'abcd abcd abcd abcd abcd abcd' },
  });
  assert.is(bad.status, 401);
  assert.is(bad.body.code, 'rest_invalid_credentials');
  // No Basic challenge on a form's login: a browser would hold the request and ask for a Basic login.
  assert.is(bad.headers.get('www-authenticate'), null);
  const basic = await t.request<Err>('GET', '/handlers', { as: { login: 'admin', password: 'abcd abcd abcd abcd abcd abcd' } });
  assert.is(basic.headers.get('www-authenticate'), 'Basic realm="flowhost"', 'API clients sending Basic still get the challenge');
});

test.run();
