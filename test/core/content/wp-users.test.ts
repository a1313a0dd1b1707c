// wp/v2 users as WP_REST_Users_Controller answers them, on every store: /users/me for
// whoever is logged in, the list and single user with WordPress's visibility rule (a
// stranger sees only users with published posts), the view/edit/embed contexts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Creds = { login: string; password: string };
type WpUser = Record<string, unknown> & { id: number; name: string; slug: string; link: string };
type WpError = { code: string; message: string; data: { status: number } };

for (const store of testStores('content: wp/v2 users')) {
  const test = suite<{ t: TestHost; editor: Creds; author: Creds; quiet: Creds; ids: Record<string, number> }>(
    `content: wp/v2 users (${store.label})`,
  );

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], builtins: false, config: store.config() });
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.author = await ctx.t.createUser('ann', 'author');
    ctx.quiet = await ctx.t.createUser('quinn', 'author');
    const users = await ctx.t.request<{ data: Array<{ user_id: number; login: string }> }>('GET', '/users');
    ctx.ids = Object.fromEntries(users.body.data.map((u) => [u.login, u.user_id]));
    // ann publishes; quinn only has a draft: strangers may see ann, not quinn.
    const post = await ctx.t.request('POST', '/posts', { namespace: 'wp/v2', as: ctx.author, body: { title: 'Hello', status: 'publish' } });
    assert.is(post.status, 201);
    const draft = await ctx.t.request('POST', '/posts', { namespace: 'wp/v2', as: ctx.quiet, body: { title: 'Not yet', status: 'draft' } });
    assert.is(draft.status, 201);
  });
  test.after(async (ctx) => ctx.t.stop());

  test('GET /users/me answers the logged-in user; 401 rest_not_logged_in for a stranger', async ({ t, author, ids }) => {
    const me = await t.request<WpUser>('GET', '/users/me', { namespace: 'wp/v2', as: author });
    assert.is(me.status, 200);
    assert.is(me.body.id, ids.ann);
    assert.is(me.body.name, 'ann');
    assert.is(me.body.slug, 'ann');
    assert.is(me.body.link, `${t.url}/?author=${ids.ann}`);
    assert.not.ok('username' in me.body, 'username is edit context only');
    const edit = await t.request<WpUser>('GET', '/users/me', { namespace: 'wp/v2', as: author, query: { context: 'edit' } });
    assert.is(edit.status, 200);
    assert.is(edit.body.username, 'ann');
    assert.equal(edit.body.roles, ['author']);
    assert.is((edit.body.capabilities as Record<string, boolean>).publish_posts, true);
    const anonymous = await t.request<WpError>('GET', '/users/me', { namespace: 'wp/v2', as: 'anonymous' });
    assert.is(anonymous.status, 401);
    assert.is(anonymous.body.code, 'rest_not_logged_in');
  });

  test('GET /users: strangers and users without list_users see only authors of published posts', async ({ t, editor, ids }) => {
    for (const as of ['anonymous', editor] as const) {
      const list = await t.request<WpUser[]>('GET', '/users', { namespace: 'wp/v2', as });
      assert.is(list.status, 200);
      assert.equal(
        list.body.map((u) => u.id),
        [ids.ann],
      );
      assert.is(list.headers.get('x-wp-total'), '1');
      assert.not.ok('roles' in list.body[0]!);
    }
    const all = await t.request<WpUser[]>('GET', '/users', { namespace: 'wp/v2', query: { context: 'edit', per_page: 100 } });
    assert.is(all.status, 200);
    assert.equal(all.body.map((u) => u.name).sort(), [t.admin.login, 'ann', 'eddie', 'quinn'].sort());
    const edit = await t.request<WpError>('GET', '/users', { namespace: 'wp/v2', as: editor, query: { context: 'edit' } });
    assert.is(edit.status, 403);
    assert.is(edit.body.code, 'rest_forbidden_context');
    const roles = await t.request<WpError>('GET', '/users', { namespace: 'wp/v2', as: 'anonymous', query: { roles: 'administrator' } });
    assert.is(roles.status, 401);
    assert.is(roles.body.code, 'rest_user_cannot_view');
  });

  test('GET /users/{id}: an author of published posts is public; others 401/403; unknown 404', async ({ t, editor, quiet, ids }) => {
    const ann = await t.request<WpUser>('GET', `/users/${ids.ann}`, { namespace: 'wp/v2', as: 'anonymous' });
    assert.is(ann.status, 200);
    assert.is(ann.body.name, 'ann');
    const embed = await t.request<WpUser>('GET', `/users/${ids.ann}`, { namespace: 'wp/v2', as: 'anonymous', query: { context: 'embed' } });
    assert.equal(Object.keys(embed.body).sort(), ['_links', 'description', 'id', 'link', 'name', 'slug', 'url']);
    const hidden = await t.request<WpError>('GET', `/users/${ids.quinn}`, { namespace: 'wp/v2', as: 'anonymous' });
    assert.is(hidden.status, 401);
    assert.is(hidden.body.code, 'rest_user_cannot_view');
    const byEditor = await t.request<WpError>('GET', `/users/${ids.quinn}`, { namespace: 'wp/v2', as: editor });
    assert.is(byEditor.status, 403);
    const self = await t.request<WpUser>('GET', `/users/${ids.quinn}`, { namespace: 'wp/v2', as: quiet, query: { context: 'edit' } });
    assert.is(self.status, 200, 'one may always read oneself');
    const admin = await t.request<WpUser>('GET', `/users/${ids.quinn}`, { namespace: 'wp/v2', query: { context: 'edit' } });
    assert.is(admin.status, 200);
    assert.equal(admin.body.roles, ['author']);
    const missing = await t.request<WpError>('GET', '/users/9999', { namespace: 'wp/v2' });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'rest_user_invalid_id');
  });

  test.run();
}
