// local_search and cms_post_reader acting for a user see exactly the posts that user may
// read through wp/v2 (WordPress's read_post, issue 30), on every store: an author finds
// their own drafts and private posts and everyone's published ones, never another user's
// draft or private post; editors find them all. POST /chat is for administrators only (and
// manage_options cannot be granted to an author), so the tools run as real users' snapshots
// (what actingUserOf takes from their requests), each compared with what wp/v2 answers that
// same user over HTTP.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { createPosts, editorAndAuthors, runTool, snapshotOf, toolError, type Who } from '../../support/chat-tools.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
interface Ctx {
  t: TestHost;
  editor: Who;
  ann: Who;
  bob: Who;
  posts: Record<string, number>;
}

/** The ids wp/v2 lists for this user: every status it lets them see, searched. */
async function wpIds(t: TestHost, as: Who, search: string): Promise<number[]> {
  const res = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', as, query: { search, status: 'any', per_page: 100 } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.map((p) => p.id as number).sort((a, b) => a - b);
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

for (const store of testStores('chat post tools permissions')) {
  const test = suite<Ctx>(`chat post tools permissions (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    Object.assign(ctx, await editorAndAuthors(ctx.t));
    ctx.posts = await createPosts(
      ctx.t,
      { namespace: 'wp/v2', path: '/posts', text: 'heron notes' },
      {
        adminDraft: ['admin', 'Admin draft', 'draft'],
        adminPrivate: ['admin', 'Admin private', 'private'],
        adminPublished: ['admin', 'Admin published', 'publish'],
        annDraft: [ctx.ann, 'Ann draft', 'draft'],
        annPrivate: [ctx.ann, 'Ann private', 'private'],
        annPublished: [ctx.ann, 'Ann published', 'publish'],
        bobDraft: [ctx.bob, 'Bob draft', 'draft'],
        bobPending: [ctx.bob, 'Bob pending', 'pending'],
      },
    );
  });
  test.after(async (ctx) => ctx.t.stop());

  test('local_search finds what wp/v2 lists for the same user, totals included', async ({ t, editor, ann, bob, posts }) => {
    const annFinds = await runTool(t, 'local_search', { query: 'heron', limit: 20 }, snapshotOf(ann, 'author'));
    const annIds = sorted(annFinds.results.map((r: Body) => r.id));
    assert.equal(annIds, sorted([posts.adminPublished!, posts.annDraft!, posts.annPrivate!, posts.annPublished!]));
    assert.equal(annIds, await wpIds(t, ann, 'heron'), "ann's search agrees with wp/v2");
    assert.is(annFinds.total, annIds.length, 'the total counts only what may be read');
    for (const [who, role] of [
      [bob, 'author'],
      [editor, 'editor'],
    ] as const) {
      const found = await runTool(t, 'local_search', { query: 'heron', limit: 20 }, snapshotOf(who, role));
      assert.equal(sorted(found.results.map((r: Body) => r.id)), await wpIds(t, who, 'heron'), who.login);
      assert.is(found.total, found.results.length, who.login);
    }
    const editorFinds = await runTool(t, 'local_search', { query: 'heron', limit: 20 }, snapshotOf(editor, 'editor'));
    assert.is(editorFinds.total, Object.keys(posts).length, 'editors read every post');
    // A small limit still counts every readable match, and takes the newest readable ones.
    const one = await runTool(t, 'local_search', { query: 'heron', limit: 1 }, snapshotOf(bob, 'author'));
    assert.equal([one.results.length, one.total], [1, (await wpIds(t, bob, 'heron')).length]);
    assert.ok([posts.bobPending, posts.bobDraft, posts.annPublished, posts.adminPublished].includes(one.results[0].id));
  });

  test('cms_post_reader reads for an author only what wp/v2 lets them read', async ({ t, ann, editor, posts }) => {
    const author = snapshotOf(ann, 'author');
    for (const id of [posts.adminDraft!, posts.adminPrivate!, posts.bobDraft!, posts.bobPending!]) {
      const message = await toolError(runTool(t, 'cms_post_reader', { post_id: id }, author));
      assert.match(message, new RegExp(`^There is no post ${id} on this site that user ann may read`));
      assert.is((await t.request('GET', `/posts/${id}`, { namespace: 'wp/v2', as: ann })).status, 403, 'as wp/v2 refuses it');
    }
    for (const id of [posts.annDraft!, posts.annPrivate!, posts.adminPublished!]) {
      assert.is((await runTool(t, 'cms_post_reader', { post_id: id }, author)).id, id);
    }
    const bySlug = await t.host.content.getPost(posts.adminPrivate!);
    assert.match(await toolError(runTool(t, 'cms_post_reader', { url: bySlug!.slug }, author)), /that user ann may read/);
    assert.is((await runTool(t, 'cms_post_reader', { post_id: posts.adminPrivate! }, snapshotOf(editor, 'editor'))).title, 'Admin private');
  });

  test.run();
}
