import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import discovery from '../../../plugins/discovery/index.js';
import { probePlugin } from '../../support/probe-plugin.js';
import { offlineOpenRouter } from '../../support/fake-model-apis.js';

type Err = { code: string; message: string; data: { status: number } };
type Ctx = { t: TestHost; users: Record<string, { login: string; password: string; userId: number }> };
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

const matrix = suite<Ctx>('auth: capability matrix on GET /handlers and /providers');
matrix.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [discovery, probePlugin()], config: { pluginSettings: offlineOpenRouter } });
  ctx.users = {
    subscriber: await ctx.t.createUser('sam', 'subscriber'),
    editor: await ctx.t.createUser('eve', 'editor'),
    author: await ctx.t.createUser('ann', 'author'),
    administrator: await ctx.t.createUser('ada', 'administrator'),
  };
});
matrix.after(async (ctx) => ctx.t.stop());

for (const path of ['/handlers', '/providers']) {
  matrix(`${path}: anonymous 401, subscriber/author/editor 403, administrator 200`, async ({ t, users }) => {
    const anonymous = await t.request<Err>('GET', path, { as: 'anonymous' });
    assert.is(anonymous.status, 401);
    assert.is(anonymous.body.code, 'rest_not_logged_in');
    for (const role of ['subscriber', 'author', 'editor']) {
      const res = await t.request<Err>('GET', path, { as: users[role] });
      assert.is(res.status, 403, role);
      assert.is(res.body.code, 'rest_forbidden');
    }
    const admin = await t.request<{ success: boolean }>('GET', path, { as: users.administrator });
    assert.is(admin.status, 200);
    assert.is(admin.body.success, true);
  });
}

matrix('bad credentials: one generic 401 for unknown login and wrong password', async ({ t, users }) => {
  const wrong = await t.request<Err>('GET', '/handlers', {
    headers: { Authorization: basic(users.editor!.login, 'abcd abcd abcd abcd abcd abcd') },
  });
  const unknown = await t.request<Err>('GET', '/handlers', {
    headers: { Authorization: basic('nobody-here', 'abcd abcd abcd abcd abcd abcd') },
  });
  assert.is(wrong.status, 401);
  assert.is(unknown.status, 401);
  assert.equal(wrong.body, unknown.body);
  assert.is(wrong.body.code, 'rest_invalid_credentials');
  const garbage = await t.request<Err>('GET', '/handlers', { headers: { Authorization: 'Basic !!!notbase64' } });
  assert.is(garbage.status, 401);
});

matrix('application passwords work with or without spaces; a revoked one is refused at once', async ({ t, users }) => {
  const ada = users.administrator!;
  assert.is(
    (await t.request('GET', '/handlers', { headers: { Authorization: basic(ada.login, ada.password.replace(/ /g, '')) } })).status,
    200,
  );
  const created = await t.request<{ data: { uuid: string; password: string } }>('POST', `/users/${ada.userId}/application-passwords`, {
    body: { name: 'second' },
  });
  assert.is(created.status, 201);
  const second = { login: ada.login, password: created.body.data.password };
  assert.is((await t.request('GET', '/handlers', { as: second })).status, 200);
  const listed = await t.request<{ data: Array<{ uuid: string; name: string; last_used_at: string | null }> }>(
    'GET',
    `/users/${ada.userId}/application-passwords`,
  );
  const entry = listed.body.data.find((p) => p.uuid === created.body.data.uuid)!;
  assert.is(entry.name, 'second');
  assert.ok(entry.last_used_at, 'last use is recorded');
  assert.not.match(JSON.stringify(listed.body), new RegExp(second.password.replace(/ /g, '')));
  const revoked = await t.request('DELETE', `/users/${ada.userId}/application-passwords/${created.body.data.uuid}`);
  assert.is(revoked.status, 200);
  const after = await t.request<Err>('GET', '/handlers', { as: second });
  assert.is(after.status, 401);
  assert.is(after.body.code, 'rest_invalid_credentials');
  assert.is((await t.request('GET', '/handlers', { as: ada })).status, 200, 'the other password still works');
});

matrix.run();

const cookies = suite<{ t: TestHost; cookie: string; nonce: string }>('auth: cookie session with nonce');
cookies.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [discovery] });
  const user = await ctx.t.host.users.findByLogin('admin');
  await ctx.t.host.users.setPassword(user!.user_id, 'correct horse battery');
  const login = await fetch(`${ctx.t.url}/api/automation/v1/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: 'admin', password: 'correct horse battery' }),
  });
  assert.is(login.status, 200);
  const setCookie = login.headers.get('set-cookie') ?? '';
  assert.match(setCookie, /flowhost_session=/);
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Lax/);
  ctx.cookie = setCookie.split(';')[0]!;
  ctx.nonce = ((await login.json()) as { data: { nonce: string } }).data.nonce;
});
cookies.after(async (ctx) => ctx.t.stop());

cookies('cookie + right nonce (X-WP-Nonce or X-Flowhost-Nonce) is logged in', async ({ t, cookie, nonce }) => {
  assert.is((await t.request('GET', '/handlers', { as: 'anonymous', headers: { Cookie: cookie, 'X-WP-Nonce': nonce } })).status, 200);
  assert.is((await t.request('GET', '/handlers', { as: 'anonymous', headers: { Cookie: cookie, 'X-Flowhost-Nonce': nonce } })).status, 200);
});

cookies('cookie without nonce counts as anonymous: 401', async ({ t, cookie }) => {
  const res = await t.request<Err>('GET', '/handlers', { as: 'anonymous', headers: { Cookie: cookie } });
  assert.is(res.status, 401);
  assert.is(res.body.code, 'rest_not_logged_in');
});

cookies('cookie with a wrong nonce: 403 rest_cookie_invalid_nonce; GET /session gives the nonce again', async ({ t, cookie, nonce }) => {
  const res = await t.request<Err>('GET', '/handlers', { as: 'anonymous', headers: { Cookie: cookie, 'X-WP-Nonce': 'deadbeef' } });
  assert.is(res.status, 403);
  assert.is(res.body.code, 'rest_cookie_invalid_nonce');
  const again = await t.request<{ data: { nonce: string } }>('GET', '/session', { as: 'anonymous', headers: { Cookie: cookie } });
  assert.is(again.status, 200);
  assert.is(again.body.data.nonce, nonce);
});

cookies('wrong session password is the generic 401', async ({ t }) => {
  const res = await t.request<Err>('POST', '/session', { as: 'anonymous', body: { login: 'admin', password: 'nope nope nope' } });
  assert.is(res.status, 401);
  assert.is(res.body.code, 'rest_invalid_credentials');
  const missing = await t.request<Err>('POST', '/session', { as: 'anonymous', body: { login: 'admin' } });
  assert.is(missing.body.code, 'rest_missing_callback_param');
});

cookies('logout ends the session (with its nonce)', async ({ t, cookie, nonce }) => {
  const out = await t.request<{ success: boolean }>('DELETE', '/session', {
    as: 'anonymous',
    headers: { Cookie: cookie, 'X-WP-Nonce': nonce },
  });
  assert.is(out.status, 200);
  assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
  const res = await t.request<Err>('GET', '/handlers', { as: 'anonymous', headers: { Cookie: cookie, 'X-WP-Nonce': nonce } });
  assert.is(res.status, 401);
});

cookies.run();

const throttle = suite('auth: failed logins are throttled');
throttle('after the limit, 429 with Retry-After, also for the right password', async () => {
  const t = await createTestHost({ plugins: [discovery], config: { loginMaxFailures: 3 } });
  try {
    for (let i = 0; i < 3; i++) {
      const res = await t.request('GET', '/handlers', { headers: { Authorization: basic('admin', `wrong-${i}`) } });
      assert.is(res.status, 401);
    }
    const blocked = await t.request<Err>('GET', '/handlers', { headers: { Authorization: basic('admin', 'wrong-again') } });
    assert.is(blocked.status, 429);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    const right = await t.request('GET', '/handlers');
    assert.is(right.status, 429, 'the login is locked for this address until the window passes');
    const other = await t.createUser('other', 'administrator');
    assert.is((await t.request('GET', '/handlers', { as: other })).status, 200, 'other logins are unaffected');
  } finally {
    await t.stop();
  }
});
throttle.run();
