// Who may read, edit, publish and delete which post on wp/v2, on every store, as WordPress's
// roles and map_meta_cap answer it (issue 30): authors only their own posts, contributors
// not publishing, editors everyone's; 401 for strangers, 403 for users, WordPress's codes.
// Driven over HTTP with fetch and application passwords, as a WordPress REST client does.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHost, type InjectTestHost, type RequestOptions } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WordPress JSON read freely
type Creds = { login: string; password: string; userId: number };
interface Ctx {
  t: InjectTestHost;
  editor: Creds;
  ann: Creds;
  bob: Creds;
  carl: Creds;
  /** Posts of the administrator: a draft, a private post, a published one. */
  adminDraft: number;
  adminPrivate: number;
  adminPublished: number;
}

const wp = (t: InjectTestHost, method: string, path: string, options: RequestOptions = {}) =>
  t.request<Body>(method, path, { namespace: 'wp/v2', ...options });

for (const store of testStores('content: wp/v2 permissions')) {
  const test = suite<Ctx>(`content: wp/v2 permissions (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await startTestHost({ plugins: [], config: store.config() });
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.ann = await ctx.t.createUser('ann', 'author');
    ctx.bob = await ctx.t.createUser('bob', 'author');
    ctx.carl = await ctx.t.createUser('carl', 'contributor');
    const make = async (title: string, status: string) =>
      (await wp(ctx.t, 'POST', '/posts', { body: { title, content: 'admin only', status } })).body.id as number;
    ctx.adminDraft = await make('Admin draft', 'draft');
    ctx.adminPrivate = await make('Admin private', 'private');
    ctx.adminPublished = await make('Admin published', 'publish');
  });
  test.after(async (ctx) => ctx.t.stop());

  test("an author cannot read, edit, publish or delete an administrator's posts", async ({
    t,
    ann,
    adminDraft,
    adminPrivate,
    adminPublished,
  }) => {
    for (const id of [adminDraft, adminPrivate]) {
      const read = await wp(t, 'GET', `/posts/${id}`, { as: ann });
      assert.is(read.status, 403, JSON.stringify(read.body));
      assert.is(read.body.code, 'rest_forbidden');
      const anonymous = await wp(t, 'GET', `/posts/${id}`, { as: 'anonymous' });
      assert.is(anonymous.status, 401);
      assert.is(anonymous.body.code, 'rest_forbidden');
    }
    const publish = await wp(t, 'POST', `/posts/${adminDraft}`, { as: ann, body: { status: 'publish' } });
    assert.is(publish.status, 403, JSON.stringify(publish.body));
    assert.is(publish.body.code, 'rest_cannot_edit');
    assert.is(publish.body.message, 'Sorry, you are not allowed to edit this post.');
    assert.is(publish.body.data.status, 403);
    for (const id of [adminPrivate, adminPublished]) {
      const edit = await wp(t, 'PATCH', `/posts/${id}`, { as: ann, body: { title: 'Mine now' } });
      assert.is(edit.status, 403);
      assert.is(edit.body.code, 'rest_cannot_edit');
      const remove = await wp(t, 'DELETE', `/posts/${id}`, { as: ann, query: { force: 'true' } });
      assert.is(remove.status, 403);
      assert.is(remove.body.code, 'rest_cannot_delete');
    }
    const editContext = await wp(t, 'GET', `/posts/${adminPublished}`, { as: ann, query: { context: 'edit' } });
    assert.is(editContext.status, 403);
    assert.is(editContext.body.code, 'rest_forbidden_context');
    // Stored state: nothing moved.
    assert.is((await t.host.content.getPost(adminDraft))!.status, 'draft');
    assert.is((await t.host.content.getPost(adminPrivate))!.title, 'Admin private');
    assert.is((await t.host.content.getPost(adminPublished))!.status, 'publish');
    // Strangers are not logged in: 401 before any post is looked at.
    const stranger = await wp(t, 'POST', `/posts/${adminDraft}`, { as: 'anonymous', body: { status: 'publish' } });
    assert.is(stranger.status, 401);
  });

  test('an author writes, publishes, reads and deletes their own posts', async ({ t, ann }) => {
    const draft = await wp(t, 'POST', '/posts', { as: ann, body: { title: 'Ann draft' } });
    assert.is(draft.status, 201);
    assert.is(draft.body.status, 'draft');
    assert.is((await wp(t, 'GET', `/posts/${draft.body.id}`, { as: ann, query: { context: 'edit' } })).status, 200);
    const published = await wp(t, 'POST', `/posts/${draft.body.id}`, { as: ann, body: { status: 'publish' } });
    assert.is(published.status, 200, JSON.stringify(published.body));
    assert.is(published.body.status, 'publish');
    const privately = await wp(t, 'POST', '/posts', { as: ann, body: { title: 'Ann private', status: 'private' } });
    assert.is(privately.status, 201);
    assert.is((await wp(t, 'GET', `/posts/${privately.body.id}`, { as: ann })).status, 200);
    const trashed = await wp(t, 'DELETE', `/posts/${published.body.id}`, { as: ann });
    assert.is(trashed.status, 200, JSON.stringify(trashed.body));
    assert.is((await t.host.content.getPost(published.body.id))!.status, 'trash');
  });

  test("one author cannot touch another author's posts; an editor can", async ({ t, ann, bob, editor }) => {
    const bobs = (await wp(t, 'POST', '/posts', { as: bob, body: { title: 'Bob published', status: 'publish' } })).body;
    const bobsDraft = (await wp(t, 'POST', '/posts', { as: bob, body: { title: 'Bob draft' } })).body;
    assert.is((await wp(t, 'PATCH', `/posts/${bobs.id}`, { as: ann, body: { title: 'Ann was here' } })).body.code, 'rest_cannot_edit');
    assert.is((await wp(t, 'DELETE', `/posts/${bobs.id}`, { as: ann })).body.code, 'rest_cannot_delete');
    assert.is((await wp(t, 'GET', `/posts/${bobsDraft.id}`, { as: ann })).status, 403);
    const editorEdits = await wp(t, 'PATCH', `/posts/${bobsDraft.id}`, { as: editor, body: { title: 'Edited by the editor' } });
    assert.is(editorEdits.status, 200);
    assert.is((await t.host.content.getPost(bobs.id))!.title, 'Bob published');
  });

  test("editors edit, publish, read and delete everyone else's posts, private ones too", async ({
    t,
    editor,
    adminDraft,
    adminPrivate,
  }) => {
    assert.is((await wp(t, 'GET', `/posts/${adminPrivate}`, { as: editor, query: { context: 'edit' } })).status, 200);
    const edited = await wp(t, 'PATCH', `/posts/${adminPrivate}`, { as: editor, body: { excerpt: 'by the editor' } });
    assert.is(edited.status, 200);
    const published = await wp(t, 'POST', `/posts/${adminDraft}`, { as: editor, body: { status: 'publish' } });
    assert.is(published.status, 200);
    assert.is((await t.host.content.getPost(adminDraft))!.status, 'publish');
    // Back to a draft for the list test below.
    await t.host.content.updatePost(adminDraft, { status: 'draft' });
  });

  test('lists: an author sees their own drafts and private posts only, and totals agree', async ({ t, ann, editor }) => {
    const own = (await wp(t, 'POST', '/posts', { as: ann, body: { title: 'Listed own draft' } })).body;
    for (const status of ['draft', 'private', 'draft,private', 'any']) {
      const res = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', as: ann, query: { status, per_page: 100 } });
      assert.is(res.status, 200);
      const authors = new Set(res.body.map((p) => p.author));
      for (const post of res.body) {
        assert.ok(
          post.status === 'publish' || post.author === ann.userId,
          `${status}: ${post.title.rendered} (${post.status}) is not ann's`,
        );
      }
      assert.is(res.headers.get('x-wp-total'), String(res.body.length), status);
      if (status !== 'private')
        assert.ok(
          res.body.some((p) => p.id === own.id),
          status,
        );
      assert.ok(authors.size >= 1);
    }
    const editorDrafts = await wp(t, 'GET', '/posts', { as: editor, query: { status: 'draft', per_page: 100 } });
    assert.ok(
      editorDrafts.body.some((p: Body) => p.title.rendered === 'Admin draft'),
      "editors see everyone's drafts",
    );
  });

  test('contributors write drafts but cannot publish; nobody writes as someone else without edit_others_posts', async ({
    t,
    carl,
    ann,
    editor,
  }) => {
    for (const status of ['publish', 'private']) {
      const res = await wp(t, 'POST', '/posts', { as: carl, body: { title: `Carl ${status}`, status } });
      assert.is(res.status, 403, status);
      assert.is(res.body.code, 'rest_cannot_publish');
    }
    const pending = await wp(t, 'POST', '/posts', { as: carl, body: { title: 'Carl pending', status: 'pending' } });
    assert.is(pending.status, 201);
    const publish = await wp(t, 'POST', `/posts/${pending.body.id}`, { as: carl, body: { status: 'publish' } });
    assert.is(publish.status, 403);
    assert.is(publish.body.code, 'rest_cannot_publish');
    assert.is(publish.body.message, 'Sorry, you are not allowed to publish posts in this post type.');
    assert.is((await t.host.content.getPost(pending.body.id))!.status, 'pending');
    assert.is((await wp(t, 'POST', `/posts/${pending.body.id}`, { as: carl, body: { title: 'Carl pending, retitled' } })).status, 200);
    const asAnn = await wp(t, 'POST', '/posts', { as: carl, body: { title: 'As Ann', author: ann.userId } });
    assert.is(asAnn.status, 403);
    assert.is(asAnn.body.code, 'rest_cannot_edit_others');
    const given = await wp(t, 'POST', `/posts/${pending.body.id}`, { as: carl, body: { author: ann.userId } });
    assert.is(given.body.code, 'rest_cannot_edit_others');
    assert.is(given.body.message, 'Sorry, you are not allowed to update posts as this user.');
    const byEditor = await wp(t, 'POST', '/posts', { as: editor, body: { title: 'For Ann', author: ann.userId } });
    assert.is(byEditor.status, 201);
    assert.is(byEditor.body.author, ann.userId);
  });

  test("kses: authors' titles, content and excerpts lose what WordPress strips; editors keep theirs", async ({ t, ann, editor }) => {
    const hostile =
      '<p onclick="steal()">Hi <a href="javascript:alert(1)">link</a> <a href="https://example.com" title="ok">fine</a></p><script>alert(1)</script><iframe src="https://evil.example"></iframe>';
    const res = await wp(t, 'POST', '/posts', {
      as: ann,
      body: {
        title: 'A <em>good</em> <img src=x onerror=alert(3)>title<script>x</script>',
        content: hostile,
        excerpt: '<b onmouseover="x()">Short</b>',
      },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    const stored = (await t.host.content.getPost(res.body.id))!;
    assert.is(stored.title, 'A <em>good</em> title');
    assert.is(stored.content, '<p>Hi <a>link</a> <a href="https://example.com" title="ok">fine</a></p>');
    assert.is(stored.excerpt, '<b>Short</b>');
    assert.is(res.body.title.raw, stored.title);
    // Markdown and plain text with nothing to strip are kept exactly as written.
    const markdown = '> A quote\n\nCode: `a < b && c > d`';
    const md = await wp(t, 'POST', '/posts', { as: ann, body: { title: 'Q&A: 1 < 2', content: markdown } });
    assert.is(md.body.content.raw, markdown);
    assert.is(md.body.title.raw, 'Q&A: 1 < 2');
    // Updates are filtered the same way.
    const updated = await wp(t, 'PATCH', `/posts/${md.body.id}`, { as: ann, body: { content: 'ok<script>alert(1)</script>' } });
    assert.is(updated.body.content.raw, 'ok');
    const trusted = await wp(t, 'POST', '/posts', {
      as: editor,
      body: { title: 'Editor', content: '<p onclick="x()">Kept</p><script>y()</script>' },
    });
    assert.is(
      (await t.host.content.getPost(trusted.body.id))!.content,
      '<p onclick="x()">Kept</p><script>y()</script>',
      'editors have unfiltered_html',
    );
  });

  test('term names are plain text (sanitize_text_field), whoever writes them', async ({ t, editor }) => {
    const created = await wp(t, 'POST', '/categories', {
      as: editor,
      body: { name: '<b>Bold</b> name<script>alert(1)</script>', description: '<em>Kept</em> for editors' },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.is(created.body.name, 'Bold name');
    assert.is((await t.host.content.getTerm('category', created.body.id))!.name, 'Bold name');
    assert.is(created.body.description, '<em>Kept</em> for editors');
    const renamed = await wp(t, 'POST', `/categories/${created.body.id}`, {
      as: editor,
      body: { name: 'Re<img src=x onerror=alert(1)>named' },
    });
    assert.is(renamed.body.name, 'Renamed');
    const tag = await wp(t, 'POST', '/tags', { body: { name: 'Fish & Chips' } });
    // As WordPress stores names (_wp_specialchars after the kses filters): one form, so the
    // same name written two ways is one name (term_exists), never two tags that look alike.
    assert.is(tag.body.name, 'Fish &amp; Chips');
  });

  test.run();
}
