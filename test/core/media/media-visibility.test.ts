// Attachments follow their parent's visibility on every store (issue 30), as WordPress's
// check_read_permission answers for `inherit` posts: the single attachment (401/403
// rest_forbidden), the lists (left out, totals too) and the file bytes; and authors change
// only their own media and attach only to posts they may edit. Over HTTP with fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Attachment = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads wp JSON
type Creds = { login: string; password: string; userId: number };
const WP = { namespace: 'wp/v2' };
const basic = (c: Creds) => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString('base64')}`;

function upload(text: string, name: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([Buffer.from(text)], { type: 'text/plain' }), name);
  return data;
}

interface Ctx {
  t: TestHost;
  dir: string;
  editor: Creds;
  ann: Creds;
  bob: Creds;
  draftId: number;
  /** Attached to the administrator's draft. */
  hidden: Attachment;
  /** Attached to nothing: public. */
  loose: Attachment;
}

for (const store of testStores('media: attachment visibility')) {
  const test = suite<Ctx>(`media: attachment visibility (${store.label})`);
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'flowhost-media-visibility-'));
    ctx.t = await createTestHost({ plugins: [], config: { ...store.config(), dataDir: ctx.dir } });
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.ann = await ctx.t.createUser('ann', 'author');
    ctx.bob = await ctx.t.createUser('bob', 'author');
    ctx.draftId = (
      await ctx.t.request<Attachment>('POST', '/posts', { ...WP, body: { title: 'Unannounced product', status: 'draft' } })
    ).body.id;
    ctx.hidden = (
      await ctx.t.request<Attachment>('POST', '/media', { ...WP, query: { post: ctx.draftId }, body: upload('launch plan', 'launch.txt') })
    ).body;
    ctx.loose = (await ctx.t.request<Attachment>('POST', '/media', { ...WP, body: upload('public notes', 'notes.txt') })).body;
    assert.is(ctx.hidden.post, ctx.draftId);
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  });

  test("a draft's attachment: 401 to strangers, 403 to an author, 200 to editors", async ({ t, hidden, ann, editor }) => {
    const anonymous = await t.request('GET', `/media/${hidden.id}`, { ...WP, as: 'anonymous' });
    assert.is(anonymous.status, 401);
    assert.equal(anonymous.body, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    const author = await t.request('GET', `/media/${hidden.id}`, { ...WP, as: ann });
    assert.is(author.status, 403);
    assert.is(author.body.code, 'rest_forbidden');
    assert.is((await t.request('GET', `/media/${hidden.id}`, { ...WP, as: editor })).status, 200);
    assert.is((await t.request('GET', `/media/${hidden.id}`, WP)).status, 200);
  });

  test('lists leave it out, totals too; editors see it', async ({ t, hidden, loose, draftId, ann, editor }) => {
    const byParent = await t.request<Attachment[]>('GET', '/media', { ...WP, as: 'anonymous', query: { parent: draftId } });
    assert.is(byParent.status, 200);
    assert.equal(byParent.body, []);
    assert.is(byParent.headers.get('x-wp-total'), '0');
    for (const as of ['anonymous', ann] as const) {
      const all = await t.request<Attachment[]>('GET', '/media', { ...WP, as, query: { per_page: 100 } });
      const ids = all.body.map((a) => a.id);
      assert.ok(!ids.includes(hidden.id), `hidden from ${JSON.stringify(as)}`);
      assert.ok(ids.includes(loose.id));
      assert.is(all.headers.get('x-wp-total'), String(ids.length));
    }
    const editors = await t.request<Attachment[]>('GET', '/media', { ...WP, as: editor, query: { parent: draftId } });
    assert.equal(
      editors.body.map((a) => a.id),
      [hidden.id],
    );
  });

  test('the file bytes: refused to strangers, served privately to editors, publicly once the post is out', async ({
    t,
    hidden,
    loose,
    draftId,
    editor,
  }) => {
    const anonymous = await fetch(hidden.source_url);
    assert.is(anonymous.status, 401);
    assert.is(((await anonymous.json()) as Attachment).code, 'rest_forbidden');
    const asEditor = await fetch(hidden.source_url, { headers: { Authorization: basic(editor) } });
    assert.is(asEditor.status, 200);
    assert.is(await asEditor.text(), 'launch plan');
    assert.is(asEditor.headers.get('cache-control'), 'private, no-store');
    const open = await fetch(loose.source_url);
    assert.is(open.status, 200);
    assert.is(open.headers.get('cache-control'), 'public, max-age=3600');

    await t.request('POST', `/posts/${draftId}`, { ...WP, body: { status: 'publish' } });
    assert.is((await fetch(hidden.source_url)).status, 200);
    assert.is((await t.request('GET', `/media/${hidden.id}`, { ...WP, as: 'anonymous' })).status, 200);
    await t.request('POST', `/posts/${draftId}`, { ...WP, body: { status: 'draft' } });
    assert.is((await fetch(hidden.source_url)).status, 401);
  });

  test("an author's private post: its attachment is theirs to see, nobody else's below editor", async ({ t, ann, bob }) => {
    const post = (await t.request<Attachment>('POST', '/posts', { ...WP, as: ann, body: { title: 'Ann private', status: 'private' } }))
      .body;
    const media = await t.request<Attachment>('POST', '/media', {
      ...WP,
      as: ann,
      query: { post: post.id },
      body: upload('mine', 'mine.txt'),
    });
    assert.is(media.status, 201, JSON.stringify(media.body));
    assert.is((await t.request('GET', `/media/${media.body.id}`, { ...WP, as: ann })).status, 200);
    assert.is((await t.request('GET', `/media/${media.body.id}`, { ...WP, as: bob })).status, 403);
    assert.is((await fetch(media.body.source_url, { headers: { Authorization: basic(bob) } })).status, 403);
  });

  test('authors attach only to posts they may edit, and edit and delete only their own media', async ({ t, ann, bob, draftId, loose }) => {
    const attach = await t.request('POST', '/media', { ...WP, as: ann, query: { post: draftId }, body: upload('sneaky', 'sneaky.txt') });
    assert.is(attach.status, 403);
    assert.is(attach.body.code, 'rest_cannot_edit');
    assert.is(attach.body.message, 'Sorry, you are not allowed to upload media to this post.');
    const reattach = await t.request('POST', `/media/${loose.id}`, { ...WP, as: ann, body: { title: 'Mine now' } });
    assert.is(reattach.status, 403);
    assert.is(reattach.body.code, 'rest_cannot_edit');
    const own = (await t.request<Attachment>('POST', '/media', { ...WP, as: bob, body: upload('bob', 'bob.txt') })).body;
    assert.is((await t.request('POST', `/media/${own.id}`, { ...WP, as: ann, body: { post: draftId } })).body.code, 'rest_cannot_edit');
    assert.is(
      (await t.request('POST', `/media/${own.id}`, { ...WP, as: bob, body: { post: draftId } })).body.code,
      'rest_cannot_edit',
      'not onto the admin draft',
    );
    assert.is((await t.request('POST', `/media/${own.id}`, { ...WP, as: bob, body: { title: 'Renamed' } })).status, 200);
    assert.is((await t.request('DELETE', `/media/${own.id}`, { ...WP, as: ann, query: { force: true } })).body.code, 'rest_cannot_delete');
    assert.is((await t.host.content.getPost(own.id))!.title, 'Renamed');
  });

  test.run();
}
