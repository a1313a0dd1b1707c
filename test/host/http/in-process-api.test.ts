// services.api on every store: a GET in process answers what the same GET over HTTP
// answers the same user (status and body), for successes and for each kind of refusal.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { services, type ActingUser, type ApiClient } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

import { roleCapabilities } from '../../../core/users/roles.js';

// The editor role's own capabilities, so the in-process caller and the HTTP one are the same user.
const EDITOR_CAPS: string[] = [...roleCapabilities.editor];

for (const store of testStores('in-process api')) {
  type Ctx = { t: TestHost; api: ApiClient; admin: ActingUser; editor: ActingUser; editorCreds: { login: string; password: string } };
  const test = suite<Ctx>(`in-process api (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.api = await ctx.t.host.services.get(services.api, 'host');
    const adminView = (await ctx.t.host.users.findByLogin(ctx.t.admin.login))!;
    ctx.admin = {
      userId: adminView.user_id,
      login: adminView.login,
      capabilities: adminView.capabilities,
      can: (c) => adminView.capabilities.includes(c),
    };
    const created = await ctx.t.createUser('inproc-editor', 'editor');
    ctx.editorCreds = { login: created.login, password: created.password };
    ctx.editor = { userId: created.userId, login: created.login, capabilities: EDITOR_CAPS, can: (c) => EDITOR_CAPS.includes(c) };
    await ctx.t.host.content.createPost({ title: 'A draft', status: 'draft', content: 'x' });
  });
  test.after(async ({ t }) => {
    await t.stop();
  });

  /** The same GET over HTTP, by full path under the API prefix. */
  const overHttp = (t: TestHost, path: string, as: 'admin' | 'anonymous' | { login: string; password: string }) =>
    t.request<Body>('GET', `${t.host.config.apiPrefix}${path}`, { as, absolute: true });

  test('answers as HTTP does: success, no route, not logged in, forbidden, invalid query, invalid escape', async ({
    t,
    api,
    editor,
    editorCreds,
  }) => {
    const cases: Array<[string, ActingUser | null, 'anonymous' | { login: string; password: string }, number]> = [
      ['/wp/v2/posts?status=draft', editor, editorCreds, 200],
      ['/automation/v1/flows', editor, editorCreds, 403],
      ['/automation/v1/flows', null, 'anonymous', 401],
      ['/wp/v2/posts?per_page=500', editor, editorCreds, 400],
      ['/wp/v2/posts?status=draft', null, 'anonymous', 400],
      ['/no/such/route', editor, editorCreds, 404],
      ['/automation/v1/execute', editor, editorCreds, 404],
      ['/wp/v2/posts/%E0%A4%A', editor, editorCreds, 400],
    ];
    for (const [path, user, as, status] of cases) {
      const inProcess = await api.get(path, { user });
      const http = await overHttp(t, path, as);
      assert.is(http.status, status, `${path} over HTTP: ${JSON.stringify(http.body)}`);
      assert.is(inProcess.status, status, `${path} in process: ${JSON.stringify(inProcess.body)}`);
      assert.equal(inProcess.body, http.body, path);
    }
  });

  test('a path without a namespace is the core namespace; static segments win over parameters; query merges', async ({ t, api, admin }) => {
    const flows = await api.get('/flows', { user: admin, query: { per_page: 1 } });
    assert.is(flows.status, 200, JSON.stringify(flows.body));
    assert.equal(flows.body, (await t.request<Body>('GET', '/flows', { query: { per_page: 1 } })).body);
    // /chat/sessions, not /chat/{session_id} (whose pattern 'sessions' would fail).
    const sessions = await api.get('/chat/sessions?limit=1', { user: admin });
    assert.is(sessions.status, 200, JSON.stringify(sessions.body));
    assert.ok(Array.isArray((sessions.body as Body).data.sessions));
    assert.is((await api.get('flows', { user: admin })).status, 404);
  });

  test.run();
}
