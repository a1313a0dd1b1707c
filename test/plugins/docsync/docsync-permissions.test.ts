// docsync's /docs routes and docsync_get_doc follow WordPress's per-post rights, as wp/v2
// does for the same posts (issue 30), on every store: an author reads and edits only their
// own unpublished documentation, a contributor does not publish, editors do everything;
// authors' HTML gets kses as on wp/v2.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import type { ActingUser } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { createPosts, editorAndAuthors, runTool, snapshotOf, type Who } from '../../support/chat-tools.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const NS = { namespace: 'docsync/v1' };

interface Ctx {
  t: TestHost;
  editor: Who;
  ann: Who;
  bob: Who;
  carl: Who;
  ids: Record<string, number>;
}

/** docsync_get_doc's answer, or the message it failed with. */
async function getDoc(t: TestHost, args: Record<string, unknown>, user: ActingUser): Promise<Body | string> {
  try {
    return await runTool(t, 'docsync_get_doc', args, user);
  } catch (error) {
    return (error as Error).message;
  }
}

for (const store of testStores('docsync permissions')) {
  const test = suite<Ctx>(`docsync permissions (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    Object.assign(ctx, await editorAndAuthors(ctx.t));
    ctx.carl = await ctx.t.createUser('carl', 'contributor');
    ctx.ids = await createPosts(
      ctx.t,
      { ...NS, path: '/docs', text: 'the manual' },
      {
        adminDraft: ['admin', 'Admin draft', 'draft'],
        adminPrivate: ['admin', 'Admin private', 'private'],
        adminPublished: ['admin', 'Admin published', 'publish'],
        annDraft: [ctx.ann, 'Ann draft', 'draft'],
        annPrivate: [ctx.ann, 'Ann private', 'private'],
        bobPending: [ctx.bob, 'Bob pending', 'pending'],
      },
    );
  });
  test.after(async (ctx) => ctx.t.stop());

  test("an author reads their own unpublished documentation, not anyone else's, as on wp/v2", async ({ t, ann, ids }) => {
    for (const id of [ids.adminDraft!, ids.adminPrivate!, ids.bobPending!]) {
      const res = await t.request<Body>('GET', `/docs/${id}`, { ...NS, as: ann });
      assert.is(res.status, 403, `${id}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'rest_forbidden');
      assert.is((await t.request('GET', `/documentation/${id}`, { namespace: 'wp/v2', as: ann })).status, 403, 'wp/v2 agrees');
      assert.is((await t.request('GET', `/docs/${id}`, { ...NS, as: 'anonymous' })).status, 401);
    }
    for (const id of [ids.annDraft!, ids.annPrivate!, ids.adminPublished!]) {
      const res = await t.request<Body>('GET', `/docs/${id}`, { ...NS, as: ann });
      assert.is(res.status, 200, `${id}: ${JSON.stringify(res.body)}`);
    }
  });

  test('/docs lists for an author only what they may read, with totals that agree', async ({ t, ann, editor, ids }) => {
    const any = await t.request<Body>('GET', '/docs', { ...NS, as: ann, query: { status: 'any', per_page: 100 } });
    assert.is(any.status, 200, JSON.stringify(any.body));
    assert.equal(any.body.items.map((d: Body) => d.id).sort(), [ids.adminPublished!, ids.annDraft!, ids.annPrivate!].sort());
    assert.equal([any.body.total, any.body.pages], [3, 1]);
    const drafts = await t.request<Body>('GET', '/docs', { ...NS, as: ann, query: { status: 'draft' } });
    assert.equal([drafts.body.items.map((d: Body) => d.id), drafts.body.total], [[ids.annDraft], 1]);
    const paged = await t.request<Body>('GET', '/docs', { ...NS, as: ann, query: { status: 'any', per_page: 2, page: 2 } });
    assert.equal([paged.body.items.length, paged.body.total, paged.body.pages, paged.body.current_page], [1, 3, 2, 2]);
    const forEditor = await t.request<Body>('GET', '/docs', { ...NS, as: editor, query: { status: 'any', per_page: 100 } });
    assert.is(forEditor.body.total, Object.keys(ids).length, 'editors read everything');
  });

  test("an author cannot update another user's documentation; a contributor cannot publish", async ({ t, ann, carl, ids }) => {
    for (const id of [ids.adminPublished!, ids.adminDraft!, ids.bobPending!]) {
      const res = await t.request<Body>('PUT', `/docs/${id}`, { ...NS, as: ann, body: { title: 'Ann was here', status: 'publish' } });
      assert.is(res.status, 403, `${id}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'rest_cannot_edit');
      const stored = (await t.host.content.getPost(id))!;
      assert.not.equal(stored.title, 'Ann was here');
    }
    assert.is((await t.host.content.getPost(ids.adminDraft!))!.status, 'draft');
    const own = await t.request<Body>('PUT', `/docs/${ids.annDraft}`, { ...NS, as: ann, body: { title: 'Ann draft, retitled' } });
    assert.is(own.status, 200, JSON.stringify(own.body));

    const published = await t.request<Body>('POST', '/docs', { ...NS, as: carl, body: { title: 'Carl doc', content: 'x' } });
    assert.is(published.status, 403, 'the default status is publish');
    assert.is(published.body.code, 'rest_cannot_publish');
    const draft = await t.request<Body>('POST', '/docs', { ...NS, as: carl, body: { title: 'Carl doc', content: 'x', status: 'draft' } });
    assert.is(draft.status, 201, JSON.stringify(draft.body));
    const publish = await t.request<Body>('PUT', `/docs/${draft.body.id}`, { ...NS, as: carl, body: { status: 'publish' } });
    assert.is(publish.status, 403);
    assert.is(publish.body.code, 'rest_cannot_publish');
    assert.is((await t.host.content.getPost(draft.body.id))!.status, 'draft');
  });

  test("an editor reads and updates everyone's documentation", async ({ t, editor, ids }) => {
    assert.is((await t.request('GET', `/docs/${ids.adminPrivate}`, { ...NS, as: editor })).status, 200);
    const res = await t.request<Body>('PUT', `/docs/${ids.bobPending}`, { ...NS, as: editor, body: { excerpt: 'Checked' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is((await t.host.content.getPost(ids.bobPending!))!.excerpt, 'Checked');
  });

  test("kses on authors' documentation as on wp/v2; markdown kept as written; editors keep their HTML", async ({ t, ann, editor }) => {
    const created = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: ann,
      body: {
        title: 'Guide<script>alert(1)</script>',
        content: '# Steps\n\n<p onclick="steal()">One</p><script>alert(2)</script>',
        excerpt: '<b onmouseover="x()">Short</b>',
        status: 'draft',
      },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const stored = (await t.host.content.getPost(created.body.id))!;
    assert.equal([stored.title, stored.content, stored.excerpt], ['Guide', '# Steps\n\n<p>One</p>', '<b>Short</b>']);
    await t.request('PUT', `/docs/${created.body.id}`, {
      ...NS,
      as: ann,
      body: { content: 'Intro<iframe src="https://evil.example"></iframe>' },
    });
    assert.is((await t.host.content.getPost(created.body.id))!.content, 'Intro');
    const markdown = '# Plain\n\n> A quote, `x < y && y > z`';
    const clean = await t.request<Body>('PUT', `/docs/${created.body.id}`, { ...NS, as: ann, body: { content: markdown } });
    assert.is(clean.body.content, markdown, 'nothing to strip: kept exactly');
    const trusted = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: editor,
      body: { title: 'Editor doc', content: '<p onclick="x()">Kept</p>' },
    });
    assert.is((await t.host.content.getPost(trusted.body.id))!.content, '<p onclick="x()">Kept</p>');
  });

  test("/sync/doc and /sync/batch: an author pushes their own documents, never over others'; /sync/status lists what they may read", async ({
    t,
    editor,
    ann,
    carl,
  }) => {
    const setup = await t.request<Body>('POST', '/sync/setup', {
      ...NS,
      as: editor,
      body: { project_slug: 'manual', project_name: 'Manual', category_slug: 'books', category_name: 'Books' },
    });
    assert.is(setup.status, 200, JSON.stringify(setup.body));
    const base = { project_term_id: setup.body.project_term_id as number, filesize: 5, timestamp: '2026-01-02T03:04:05Z' };
    const push = (as: Who, doc: Record<string, unknown>) => t.request<Body>('POST', '/sync/doc', { ...NS, as, body: { ...base, ...doc } });
    const shared = await push(editor, { source_file: 'shared.md', title: 'Shared', content: 'For all' });
    const secret = await push(editor, { source_file: 'secret.md', title: 'Secret', content: 'Editors only' });
    assert.is((await t.request('PUT', `/docs/${secret.body.post_id}`, { ...NS, as: editor, body: { status: 'private' } })).status, 200);

    for (const [file, id] of [
      ['shared.md', shared.body.post_id],
      ['secret.md', secret.body.post_id],
    ] as const) {
      const over = await push(ann, { source_file: file, title: 'Ann was here', content: 'Replaced', force: true });
      assert.is(over.status, 403, `${file}: ${JSON.stringify(over.body)}`);
      assert.is(over.body.code, 'rest_cannot_edit');
      const stored = (await t.host.content.getPost(id))!;
      assert.not.equal(stored.title, 'Ann was here');
    }
    assert.is((await t.host.content.getPost(secret.body.post_id))!.status, 'private');

    const own = await push(ann, { source_file: 'ann.md', title: 'Ann<script>alert(1)</script>', content: 'Mine<script>alert(2)</script>' });
    assert.equal([own.status, own.body.action], [200, 'created'], JSON.stringify(own.body));
    const stored = (await t.host.content.getPost(own.body.post_id))!;
    assert.equal([stored.title, stored.content, stored.author_id], ['Ann', 'Mine', ann.userId]);
    assert.is((await push(ann, { source_file: 'ann.md', title: 'Ann', content: 'Mine, again' })).body.action, 'updated');

    const contributed = await push(carl, { source_file: 'carl.md', title: 'Carl', content: 'x' });
    assert.equal([contributed.status, contributed.body.code], [403, 'rest_cannot_publish']);

    const batch = await t.request<Body>('POST', '/sync/batch', {
      ...NS,
      as: ann,
      body: {
        docs: [
          { ...base, source_file: 'ann.md', title: 'Ann', content: 'Third' },
          { ...base, source_file: 'shared.md', title: 'Mine now', content: 'x' },
        ],
      },
    });
    assert.is(batch.status, 200, JSON.stringify(batch.body));
    assert.equal([batch.body.updated, batch.body.failed, batch.body.results[1].error.code], [1, 1, 'rest_cannot_edit']);
    assert.is((await t.host.content.getPost(shared.body.post_id))!.title, 'Shared');

    const status = await t.request<Body>('GET', '/sync/status', { ...NS, as: ann, query: { project: 'manual' } });
    assert.is(status.status, 200, JSON.stringify(status.body));
    assert.equal(
      status.body.docs.map((d: Body) => d.post_id).sort(),
      [shared.body.post_id, own.body.post_id].sort(),
      "the editor's private document is not listed",
    );
    assert.is(status.body.total_docs, 2);
    assert.is((await t.request<Body>('GET', '/sync/status', { ...NS, as: editor, query: { project: 'manual' } })).body.total_docs, 3);
  });

  test('docsync_get_doc reads for a user only what they may read', async ({ t, ann, editor, ids }) => {
    const author = snapshotOf(ann, 'author');
    for (const id of [ids.adminDraft!, ids.adminPrivate!, ids.bobPending!]) {
      assert.match(String(await getDoc(t, { id }, author)), /There is no documentation post with the id \d+ that this caller may read/);
    }
    const slug = (await t.host.content.getPost(ids.adminPrivate!))!.slug;
    assert.match(String(await getDoc(t, { slug }, author)), /that this caller may read/);
    assert.is(((await getDoc(t, { id: ids.annPrivate }, author)) as Body).id, ids.annPrivate);
    assert.is(((await getDoc(t, { id: ids.adminDraft }, snapshotOf(editor, 'editor'))) as Body).id, ids.adminDraft);
  });

  test("authors and contributors delete their own documentation through /docs, never anyone else's, as wp/v2 decides", async ({
    t,
    ann,
    carl,
    editor,
  }) => {
    const create = async (as: Who, title: string, status: string) =>
      (await t.request<Body>('POST', '/docs', { ...NS, as, body: { title, content: 'x', status } })).body.id as number;
    const annPublished = await create(ann, 'Ann goes', 'publish');
    const annDraft = await create(ann, 'Ann draft goes', 'draft');
    const carlDraft = await create(carl, 'Carl draft goes', 'draft');
    const editorDoc = await create(editor, 'Editor stays', 'publish');
    const remove = (as: Who, id: number, force = false) =>
      t.request<Body>('DELETE', `/docs/${id}`, { ...NS, as, query: force ? { force: true } : {} });

    const trashed = await remove(ann, annPublished);
    assert.equal([trashed.status, trashed.body.trashed, trashed.body.deleted], [200, true, false], JSON.stringify(trashed.body));
    assert.is((await t.host.content.getPost(annPublished))!.status, 'trash');
    const gone = await remove(ann, annDraft, true);
    assert.equal([gone.status, gone.body.deleted], [200, true], JSON.stringify(gone.body));
    assert.is(await t.host.content.getPost(annDraft), null);
    assert.is((await remove(carl, carlDraft)).status, 200, "a contributor's own draft");

    for (const [as, id] of [
      [ann, editorDoc],
      [carl, editorDoc],
    ] as const) {
      const refused = await remove(as, id);
      assert.equal([refused.status, refused.body.code], [403, 'rest_cannot_delete'], JSON.stringify(refused.body));
      assert.is((await t.request('DELETE', `/documentation/${id}`, { namespace: 'wp/v2', as })).status, 403, 'wp/v2 agrees');
    }
    assert.is((await t.host.content.getPost(editorDoc))!.status, 'publish');
    assert.is((await remove(editor, editorDoc)).status, 200, "an editor deletes anyone's");
  });

  test('creating project terms needs manage_categories on every route; placing a document under existing terms does not', async ({
    t,
    ann,
    carl,
    editor,
  }) => {
    const made = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: editor,
      body: { path: ['shelf', 'atlas'], create_missing: true },
    });
    assert.is(made.status, 200, JSON.stringify(made.body));
    const termCount = async () => (await t.host.content.findTerms('project', { per_page: 1, offset: 0 })).total;
    const before = await termCount();

    // Into terms that exist: the route's own capability is enough.
    const placed = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: carl,
      body: { title: 'Placed', content: 'x', status: 'draft', project_path: ['shelf', 'atlas'] },
    });
    assert.is(placed.status, 201, JSON.stringify(placed.body));
    assert.is(placed.body.project.assigned_term.id, made.body.leaf_term_id);

    // A path that would make a term: refused as /project/resolve refuses it, and nothing is made.
    const viaResolve = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: carl,
      body: { path: ['shelf', 'brand-new'], create_missing: true },
    });
    assert.equal([viaResolve.status, viaResolve.body.code], [403, 'rest_forbidden']);
    for (const [as, status] of [
      [carl, 'draft'],
      [ann, 'publish'],
    ] as const) {
      const viaDocs = await t.request<Body>('POST', '/docs', {
        ...NS,
        as,
        body: { title: 'New place', content: 'x', status, project_path: ['shelf', 'brand-new'] },
      });
      assert.equal([viaDocs.status, viaDocs.body.code], [viaResolve.status, viaResolve.body.code], JSON.stringify(viaDocs.body));
      assert.match(viaDocs.body.message, /manage_categories/);
    }
    const viaUpdate = await t.request<Body>('PUT', `/docs/${placed.body.id}`, {
      ...NS,
      as: carl,
      body: { project_path: ['shelf', 'brand-new'] },
    });
    assert.equal([viaUpdate.status, viaUpdate.body.code], [403, 'rest_forbidden'], JSON.stringify(viaUpdate.body));
    const pushed = await t.request<Body>('POST', '/sync/doc', {
      ...NS,
      as: ann,
      body: {
        project_term_id: made.body.leaf_term_id,
        source_file: 'new/place.md',
        subpath: ['brand-new-section'],
        title: 'Pushed',
        content: 'x',
        filesize: 1,
        timestamp: '2026-01-02T03:04:05Z',
      },
    });
    assert.equal([pushed.status, pushed.body.code], [403, 'rest_forbidden'], JSON.stringify(pushed.body));
    assert.is(await termCount(), before, 'no term was made');

    const byEditor = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: editor,
      body: { title: 'New place', content: 'x', project_path: ['shelf', 'brand-new'] },
    });
    assert.is(byEditor.status, 201, JSON.stringify(byEditor.body));
    assert.is(await termCount(), before + 1);
  });

  test.run();
}
