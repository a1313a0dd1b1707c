// Logs need view_logs, not manage_options: administrators have it, others when granted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type RequestOptions, type TestHost } from '../../../sdk/testing/index.js';

type Who = NonNullable<RequestOptions['as']>;
const test = suite<{ t: TestHost; editor: Who; viewer: Who; subscriberViewer: Who }>('host: logs permissions');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  const { login, password } = await ctx.t.createUser('eddie', 'editor');
  ctx.editor = { login, password };
  const viewer = await ctx.t.createUser('vera', 'editor', ['view_logs']);
  ctx.viewer = { login: viewer.login, password: viewer.password };
  const sub = await ctx.t.createUser('sam', 'subscriber', ['view_logs']);
  ctx.subscriberViewer = { login: sub.login, password: sub.password };
});
test.after(async (ctx) => ctx.t.stop());

const routes: Array<[string, string]> = [
  ['GET', '/logs'],
  ['GET', '/logs/metadata'],
  ['DELETE', '/logs'],
];

test('anonymous: 401 rest_not_logged_in on every logs route', async ({ t }) => {
  for (const [method, path] of routes) {
    const res = await t.request<{ code: string }>(method, path, { as: 'anonymous' });
    assert.is(res.status, 401, `${method} ${path}`);
    assert.is(res.body.code, 'rest_not_logged_in');
  }
});

test('editor without view_logs: 403 rest_forbidden, before any validation', async ({ t, editor }) => {
  for (const [method, path] of routes) {
    const res = await t.request<{ code: string }>(method, path, { as: editor });
    assert.is(res.status, 403, `${method} ${path}`);
    assert.is(res.body.code, 'rest_forbidden');
  }
  assert.is((await t.request('GET', '/logs', { as: editor, query: { per_page: 501 } })).status, 403);
});

test('editor or subscriber granted view_logs, and the administrator: 200', async ({ t, viewer, subscriberViewer }) => {
  for (const who of [viewer, subscriberViewer, 'admin' as const]) {
    for (const [method, path] of routes) {
      const res = await t.request<{ success: boolean }>(method, path, { as: who });
      assert.is(res.status, 200, `${method} ${path} as ${JSON.stringify(who)}`);
      assert.is(res.body.success, true);
    }
  }
});

test('view_logs is not manage_options: a view_logs editor still cannot list users', async ({ t, viewer }) => {
  assert.is((await t.request('GET', '/users', { as: viewer })).status, 403);
});

test.run();
