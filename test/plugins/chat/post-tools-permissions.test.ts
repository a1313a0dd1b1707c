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
import type { ActingUser, CallContext, ChatToolDefinition } from '../../../sdk/index.js';
import { createGuardedFetch } from '../../../host/net/guarded-fetch.js';
import { roleCapabilities } from '../../../core/users/roles.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
type Who = { login: string; password: string; userId: number };
type Role = 'editor' | 'author' | 'contributor';
interface Ctx {
  t: TestHost;
  editor: Who;
  ann: Who;
  bob: Who;
  posts: Record<string, number>;
}

/** The snapshot a tool gets for a user of this role (as actingUserOf takes it from a request). */
const snapshot = (who: Who, role: Role): ActingUser => {
  const capabilities: string[] = [...roleCapabilities[role]];
  return { userId: who.userId, login: who.login, capabilities, can: (c) => capabilities.includes(c) };
};

async function runTool(t: TestHost, name: string, args: Record<string, unknown>, user: ActingUser): Promise<Body> {
  const tool = t.host.registries.chatTools().find((x) => x.name === name) as ChatToolDefinition;
  const ctx: CallContext = { user, log: t.host.log, clock: t.clock, fetch: createGuardedFetch({ allowPrivate: true }) };
  return (await tool.run(args, ctx)) as Body;
}

async function toolError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  assert.unreachable('the tool did not fail');
  return '';
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
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.ann = await ctx.t.createUser('ann', 'author');
    ctx.bob = await ctx.t.createUser('bob', 'author');
    const post = async (as: Who | 'admin', title: string, status: string) => {
      const res = await ctx.t.request<Body>('POST', '/posts', { namespace: 'wp/v2', as, body: { title, content: `${title}: heron notes`, status } });
      assert.is(res.status, 201, JSON.stringify(res.body));
      return res.body.id as number;
    };
    ctx.posts = {
      adminDraft: await post('admin', 'Admin draft', 'draft'),
      adminPrivate: await post('admin', 'Admin private', 'private'),
      adminPublished: await post('admin', 'Admin published', 'publish'),
      annDraft: await post(ctx.ann, 'Ann draft', 'draft'),
      annPrivate: await post(ctx.ann, 'Ann private', 'private'),
      annPublished: await post(ctx.ann, 'Ann published', 'publish'),
      bobDraft: await post(ctx.bob, 'Bob draft', 'draft'),
      bobPending: await post(ctx.bob, 'Bob pending', 'pending'),
    };
  });
  test.after(async (ctx) => ctx.t.stop());

  test('local_search finds what wp/v2 lists for the same user, totals included', async ({ t, editor, ann, bob, posts }) => {
    const annFinds = await runTool(t, 'local_search', { query: 'heron', limit: 20 }, snapshot(ann, 'author'));
    const annIds = sorted(annFinds.results.map((r: Body) => r.id));
    assert.equal(annIds, sorted([posts.adminPublished!, posts.annDraft!, posts.annPrivate!, posts.annPublished!]));
    assert.equal(annIds, await wpIds(t, ann, 'heron'), "ann's search agrees with wp/v2");
    assert.is(annFinds.total, annIds.length, 'the total counts only what may be read');
    for (const [who, role] of [[bob, 'author'], [editor, 'editor']] as const) {
      const found = await runTool(t, 'local_search', { query: 'heron', limit: 20 }, snapshot(who, role));
      assert.equal(sorted(found.results.map((r: Body) => r.id)), await wpIds(t, who, 'heron'), who.login);
      assert.is(found.total, found.results.length, who.login);
    }
    const editorFinds = await runTool(t, 'local_search', { query: 'heron', limit: 20 }, snapshot(editor, 'editor'));
    assert.is(editorFinds.total, Object.keys(posts).length, 'editors read every post');
    // A small limit still counts every readable match, and takes the newest readable ones.
    const one = await runTool(t, 'local_search', { query: 'heron', limit: 1 }, snapshot(bob, 'author'));
    assert.equal([one.results.length, one.total], [1, (await wpIds(t, bob, 'heron')).length]);
    assert.ok([posts.bobPending, posts.bobDraft, posts.annPublished, posts.adminPublished].includes(one.results[0].id));
  });

  test("cms_post_reader reads for an author only what wp/v2 lets them read", async ({ t, ann, editor, posts }) => {
    const author = snapshot(ann, 'author');
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
    assert.is((await runTool(t, 'cms_post_reader', { post_id: posts.adminPrivate! }, snapshot(editor, 'editor'))).title, 'Admin private');
  });

  test.run();
}
