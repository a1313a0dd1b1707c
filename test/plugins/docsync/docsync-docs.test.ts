// docsync's posts and taxonomy routes on both stores: /docs (list defaults, project by slug
// or id, status, search, create with project_path, read, update, trash and delete), /project
// (list, tree, one, resolve, update), /sync/setup, /sync/doc, /sync/batch with 200 docs,
// permissions, bad input and every error the spec names; and the four agent abilities.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { chatTools } from '../../../sdk/chat/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const NS = { namespace: 'docsync/v1' };
type User = { login: string; password: string };

for (const store of testStores('docsync docs')) {
  const test = suite<{ t: TestHost; editor: User; author: User; ids: Record<string, number> }>(`docsync docs (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.editor = await ctx.t.createUser('editor1', 'editor');
    ctx.author = await ctx.t.createUser('author1', 'author');
    ctx.ids = {};
  });
  test.after(async (ctx) => ctx.t.stop());

  test('setup makes a category and a project under it; resolve finds and creates paths', async ({ t, editor, author, ids }) => {
    const setup = await t.request<Body>('POST', '/sync/setup', {
      ...NS,
      as: editor,
      body: { project_slug: 'widget', project_name: 'Widget', category_slug: 'products', category_name: 'Products' },
    });
    assert.is(setup.status, 200, JSON.stringify(setup.body));
    assert.equal([setup.body.success, setup.body.category_slug, setup.body.project_slug], [true, 'products', 'widget']);
    ids.category = setup.body.category_term_id;
    ids.project = setup.body.project_term_id;
    const again = await t.request<Body>('POST', '/sync/setup', {
      ...NS,
      as: editor,
      body: { project_slug: 'widget', project_name: 'Widget', category_slug: 'products', category_name: 'Products' },
    });
    assert.equal([again.body.category_term_id, again.body.project_term_id], [ids.category, ids.project], 'idempotent');
    assert.is(
      (
        await t.request('POST', '/sync/setup', {
          ...NS,
          as: author,
          body: { project_slug: 'a', project_name: 'a', category_slug: 'b', category_name: 'b' },
        })
      ).status,
      403,
    );
    assert.is((await t.request('POST', '/sync/setup', { ...NS, as: editor, body: { project_slug: 'a' } })).status, 400);

    const found = await t.request<Body>('POST', '/project/resolve', { ...NS, as: 'anonymous', body: { path: ['Products', 'widget'] } });
    assert.is(found.status, 200, JSON.stringify(found.body));
    assert.equal([found.body.leaf_term_id, found.body.path, found.body.created], [ids.project, 'products/widget', []]);
    const absent = await t.request<Body>('POST', '/project/resolve', { ...NS, as: 'anonymous', body: { path: ['products', 'nope'] } });
    assert.equal([absent.status, absent.body.code], [404, 'not_found']);
    assert.is(
      (await t.request('POST', '/project/resolve', { ...NS, as: 'anonymous', body: { path: ['x'], create_missing: true } })).status,
      401,
    );
    assert.is(
      (await t.request('POST', '/project/resolve', { ...NS, as: author, body: { path: ['x'], create_missing: true } })).status,
      403,
    );
    assert.is((await t.request('POST', '/project/resolve', { ...NS, as: 'anonymous', body: {} })).status, 400);
    const created = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: editor,
      body: { path: ['products', 'widget', 'API', 'v2'], create_missing: true },
    });
    assert.equal(
      [created.body.created, created.body.path, created.body.terms.map((x: Body) => x.name)],
      [['api', 'v2'], 'products/widget/api/v2', ['Products', 'Widget', 'API', 'v2']],
    );
    ids.v2 = created.body.leaf_term_id;
    const meta = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: editor,
      body: { path: ['tools', 'hammer'], create_missing: true, project_meta: { github_url: 'https://github.com/acme/hammer' } },
    });
    const hammer = await t.request<Body>('GET', `/project/${meta.body.leaf_term_id}`, NS);
    assert.equal([hammer.body.project_type, hammer.body.is_project], ['project', true]);
    const badMeta = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: editor,
      body: { path: ['tools', 'saw'], create_missing: true, project_meta: { github_url: 'ftp:nothing here' } },
    });
    assert.equal([badMeta.status, badMeta.body.code], [400, 'docsync_invalid_repo_url']);
  });

  test('/project lists by parent, /project/tree nests by depth, /project/{id} 404s, PUT applies only github_url and wp_url', async ({
    t,
    editor,
    author,
    ids,
  }) => {
    const top = await t.request<Body[]>('GET', '/project', { ...NS, as: 'anonymous' });
    assert.is(top.status, 200);
    assert.equal(
      top.body.map((x) => x.slug),
      ['products', 'tools'],
    );
    assert.equal(
      [top.body[0].project_type, top.body[0].is_top_level, top.body[0].is_project, top.body[0].count],
      ['category', true, false, 0],
    );
    const under = await t.request<Body[]>('GET', '/project', { ...NS, as: 'anonymous', query: { parent: ids.category } });
    assert.equal(
      under.body.map((x) => x.slug),
      ['widget'],
    );
    const empty = await t.request<Body[]>('GET', '/project', { ...NS, as: 'anonymous', query: { hide_empty: true } });
    assert.equal(empty.body, []);
    const tree = await t.request<Body[]>('GET', '/project/tree', { ...NS, as: 'anonymous', query: { depth: 2 } });
    const products = tree.body.find((n) => n.slug === 'products')!;
    assert.equal(
      products.children.map((c: Body) => c.slug),
      ['widget'],
    );
    assert.equal(products.children[0].children, [], 'depth 2 stops there');
    assert.is(products.children[0].children_truncated, true, 'and says its children were left out');
    assert.is(products.children_truncated, false);
    const deep = await t.request<Body[]>('GET', '/project/tree', { ...NS, as: 'anonymous', query: { parent: ids.project, depth: 5 } });
    assert.equal(
      deep.body.map((n) => [n.slug, n.children.map((c: Body) => c.slug)]),
      [['api', ['v2']]],
    );
    assert.equal([deep.body[0].children_truncated, deep.body[0].children[0].children_truncated], [false, false], 'a leaf is not cut');
    // The default depth (3) cuts below api: api answers cut, not a leaf.
    const byDefault = await t.request<Body[]>('GET', '/project/tree', { ...NS, as: 'anonymous' });
    const api = byDefault.body.find((n) => n.slug === 'products')!.children[0].children[0];
    assert.equal([api.slug, api.children, api.children_truncated], ['api', [], true]);
    assert.is((await t.request('GET', '/project/tree', { ...NS, query: { depth: 0 } })).status, 400);
    assert.is((await t.request('GET', '/project/tree', { ...NS, query: { parent: 999999 } })).status, 404);
    const missing = await t.request<Body>('GET', '/project/999999', { ...NS, as: 'anonymous' });
    assert.equal([missing.status, missing.body.code], [404, 'not_found']);
    assert.is((await t.request('GET', '/project/abc', NS)).status, 400);

    const put = await t.request<Body>('PUT', `/project/${ids.project}`, {
      ...NS,
      as: editor,
      body: {
        name: 'Widget Pro',
        description: 'The widget',
        meta: { github_url: 'https://github.com/acme/widget', wp_url: 'https://example.com/widget', colour: 'red' },
      },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.equal(
      [put.body.name, put.body.description, put.body.meta, put.body.repository_info],
      [
        'Widget Pro',
        'The widget',
        { github_url: 'https://github.com/acme/widget', wp_url: 'https://example.com/widget' },
        { owner: 'acme', repo: 'widget', url: 'https://github.com/acme/widget' },
      ],
    );
    const term = (await t.host.store.collection('terms').findOne({ term_id: ids.project })) as Body | null;
    assert.equal(
      [term?.meta?.project_repository, term?.meta?.project_listing_url, term?.meta?.colour],
      ['https://github.com/acme/widget', 'https://example.com/widget', undefined],
    );
    assert.is((await t.request('PUT', `/project/${ids.project}`, { ...NS, as: author, body: { name: 'x' } })).status, 403);
    assert.is((await t.request('PUT', '/project/999999', { ...NS, as: editor, body: { name: 'x' } })).status, 404);
    const bad = await t.request<Body>('PUT', `/project/${ids.project}`, { ...NS, as: editor, body: { meta: { github_url: 'nope nope' } } });
    assert.equal([bad.status, bad.body.code], [400, 'docsync_invalid_repo_url']);
    assert.is(
      (await t.request('PUT', `/project/${ids.project}`, { ...NS, as: editor, body: { meta: { wp_url: 'javascript:alert(1)' } } })).status,
      400,
    );
  });

  test('/docs: create with project_path, list defaults and filters, read, update, trash, delete', async ({ t, editor, author, ids }) => {
    // The terms exist (an editor made them): an author places documents under them.
    const path = { path: ['products', 'widget', 'guides'], create_missing: true };
    assert.is((await t.request('POST', '/project/resolve', { ...NS, as: editor, body: path })).status, 200);
    const created = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: author,
      body: { title: 'Getting started', content: '# Hi\n\nFirst steps.', project_path: ['products', 'widget', 'guides'] },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.equal(
      [
        created.body.title,
        created.body.status,
        created.body.project.hierarchy_path,
        created.body.project.project.id,
        created.body.project.category.slug,
        created.body.project.project_type,
      ],
      ['Getting started', 'publish', 'products/widget/guides', ids.project, 'products', 'project'],
    );
    ids.doc = created.body.id;
    for (let i = 0; i < 11; i++)
      await t.request('POST', '/docs', {
        ...NS,
        as: editor,
        body: { title: `Page ${i}`, content: `Body ${i}`, project_path: ['tools', 'hammer'] },
      });
    const draft = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: editor,
      body: { title: 'Secret draft', content: 'wip', status: 'draft', meta: { sync_source_file: 'x.md' } },
    });
    ids.draft = draft.body.id;

    const list = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous' });
    assert.equal(
      [list.body.items.length, list.body.total, list.body.pages, list.body.current_page],
      [10, 12, 2, 1],
      'per_page 10, published only',
    );
    const page2 = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { page: 2 } });
    assert.equal([page2.body.items.length, page2.body.current_page], [2, 2]);
    const bySlug = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { project: 'widget' } });
    const byId = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { project: String(ids.category) } });
    assert.equal([bySlug.body.total, byId.body.total], [1, 1], 'a project includes the terms below it');
    assert.is((await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { project: 'nothing' } })).body.total, 0);
    const search = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { search: 'first steps' } });
    assert.equal(
      search.body.items.map((d: Body) => d.id),
      [ids.doc],
    );
    assert.is((await t.request('GET', '/docs', { ...NS, as: 'anonymous', query: { status: 'draft' } })).status, 401);
    const subscriber = await t.createUser('sub1', 'subscriber');
    assert.is((await t.request('GET', '/docs', { ...NS, as: subscriber, query: { status: 'draft' } })).status, 403);
    const drafts = await t.request<Body>('GET', '/docs', { ...NS, as: editor, query: { status: 'draft' } });
    assert.equal([drafts.body.total, drafts.body.items[0].meta.sync_source_file], [1, 'x.md']);
    for (const query of [{ per_page: 0 }, { per_page: 101 }, { page: 0 }, { status: 'bogus' }] as Array<Record<string, string | number>>) {
      assert.is((await t.request('GET', '/docs', { ...NS, as: 'anonymous', query })).status, 400, JSON.stringify(query));
    }

    const one = await t.request<Body>('GET', `/docs/${ids.doc}`, NS);
    assert.equal([one.body.content, one.body.title, one.body.link], ['# Hi\n\nFirst steps.', 'Getting started', `${t.url}/?p=${ids.doc}`]);
    assert.is((await t.request('GET', `/docs/${ids.draft}`, { ...NS, as: subscriber })).status, 403);
    const missing = await t.request<Body>('GET', '/docs/999999', NS);
    assert.equal([missing.status, missing.body.code], [404, 'not_found']);
    const notDoc = await t.request<Body>('POST', '/posts', { namespace: 'wp/v2', body: { title: 'A plain post', status: 'publish' } });
    assert.is((await t.request('GET', `/docs/${notDoc.body.id}`, NS)).status, 404, 'another type is not a documentation post');

    const put = await t.request<Body>('PUT', `/docs/${ids.doc}`, {
      ...NS,
      as: editor,
      body: { title: 'Start here', project_path: ['tools', 'hammer'] },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.equal(
      [put.body.title, put.body.content, put.body.project.hierarchy_path],
      ['Start here', '# Hi\n\nFirst steps.', 'tools/hammer'],
    );
    assert.is((await t.request('PUT', `/docs/${ids.doc}`, { ...NS, as: subscriber, body: { title: 'x' } })).status, 403);
    assert.is((await t.request('PUT', '/docs/999999', { ...NS, as: editor, body: { title: 'x' } })).status, 404);
    assert.is((await t.request('PUT', `/docs/${ids.doc}`, { ...NS, as: editor, body: { status: 'trash' } })).status, 400);
    assert.is((await t.request('POST', '/docs', { ...NS, as: editor, body: { title: 'No content' } })).status, 400);
    assert.is(
      (await t.request('POST', '/docs', { ...NS, as: editor, body: { title: 'x', content: 'y', meta: { 'bad key': 1 } } })).status,
      400,
    );
    assert.is((await t.request('POST', '/docs', { ...NS, as: subscriber, body: { title: 'x', content: 'y' } })).status, 403);
    assert.is((await t.request('POST', '/docs', { ...NS, as: 'anonymous', body: { title: 'x', content: 'y' } })).status, 401);

    // The author's own post: trashed by its author (others' are refused: docsync-permissions).
    const trashed = await t.request<Body>('DELETE', `/docs/${ids.doc}`, { ...NS, as: author });
    assert.equal([trashed.body.success, trashed.body.id, trashed.body.deleted, trashed.body.trashed], [true, ids.doc, false, true]);
    assert.is((await t.request<Body>('GET', `/docs/${ids.doc}`, NS)).body.status, 'trash');
    const deleted = await t.request<Body>('DELETE', `/docs/${ids.doc}`, { ...NS, as: editor, query: { force: true } });
    assert.equal([deleted.body.deleted, deleted.body.trashed], [true, false]);
    assert.is((await t.request('DELETE', `/docs/${ids.doc}`, { ...NS, as: editor })).status, 404);
  });

  test('/sync/doc creates, leaves unchanged, updates and forces; /sync/batch with 200 docs reports its counts', async ({
    t,
    editor,
    author,
    ids,
  }) => {
    const doc = {
      source_file: 'guide/one.md',
      title: 'One',
      content: 'Hello',
      project_term_id: ids.project,
      filesize: 5,
      timestamp: '2026-01-02T03:04:05Z',
      subpath: ['guide'],
    };
    const folder = { path: ['products', 'widget', 'guide'], create_missing: true };
    assert.is((await t.request('POST', '/project/resolve', { ...NS, as: editor, body: folder })).status, 200, 'an editor makes the folder');
    const first = await t.request<Body>('POST', '/sync/doc', { ...NS, as: author, body: doc });
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.equal([first.body.action, first.body.term_path], ['created', 'widget/guide']);
    assert.is((await t.request<Body>('POST', '/sync/doc', { ...NS, as: author, body: doc })).body.action, 'unchanged');
    assert.is((await t.request<Body>('POST', '/sync/doc', { ...NS, as: author, body: { ...doc, force: true } })).body.action, 'updated');
    const changed = await t.request<Body>('POST', '/sync/doc', { ...NS, as: author, body: { ...doc, content: 'Hello again' } });
    assert.equal([changed.body.action, changed.body.post_id], ['updated', first.body.post_id]);
    const post = await t.request<Body>('GET', `/docs/${first.body.post_id}`, NS);
    assert.equal(
      [post.body.meta.sync_source_file, post.body.meta.sync_timestamp, post.body.content],
      ['guide/one.md', '2026-01-02T03:04:05Z', 'Hello again'],
    );
    const noTerm = await t.request<Body>('POST', '/sync/doc', { ...NS, as: author, body: { ...doc, project_term_id: 999999 } });
    assert.equal([noTerm.status, noTerm.body.code], [404, 'not_found']);
    for (const bad of [
      { ...doc, timestamp: 'yesterday' },
      { ...doc, filesize: -1 },
      { ...doc, title: undefined },
    ]) {
      assert.is((await t.request('POST', '/sync/doc', { ...NS, as: author, body: bad })).status, 400);
    }
    assert.is((await t.request('POST', '/sync/doc', { ...NS, as: await t.createUser('sub2', 'subscriber'), body: doc })).status, 403);

    const docs = Array.from({ length: 200 }, (_, i) => ({
      ...doc,
      source_file: `batch/${i}.md`,
      title: `Batch ${i}`,
      content: `Doc ${i}`,
      subpath: [`part${i % 3}`],
    }));
    docs[7] = { ...docs[7]!, project_term_id: 999999 };
    const batch = await t.request<Body>('POST', '/sync/batch', { ...NS, as: editor, body: { docs } });
    assert.is(batch.status, 200, JSON.stringify(batch.body).slice(0, 500));
    assert.equal([batch.body.total, batch.body.created, batch.body.updated, batch.body.unchanged, batch.body.failed], [200, 199, 0, 0, 1]);
    assert.equal(
      [batch.body.results[7].success, batch.body.results[7].action, batch.body.results[7].error.code],
      [false, 'failed', 'not_found'],
    );
    docs[0] = { ...docs[0]!, content: 'Changed' };
    const again = await t.request<Body>('POST', '/sync/batch', { ...NS, as: editor, body: { docs } });
    assert.equal([again.body.created, again.body.updated, again.body.unchanged, again.body.failed], [0, 1, 198, 1]);
    assert.is((await t.request('POST', '/sync/batch', { ...NS, as: editor, body: { docs: [] } })).status, 400);
    const status = await t.request<Body>('GET', '/sync/status', { ...NS, as: editor, query: { project: 'widget' } });
    assert.equal([status.body.total_docs, status.body.synced_docs, status.body.project_slug], [200, 200, 'widget']);
    assert.is((await t.request<Body>('GET', '/sync/status', { ...NS, as: editor, query: { project: 'nope' } })).status, 404);
    assert.is((await t.request<Body>('GET', '/sync/status', { ...NS, as: editor })).status, 400);
    assert.is((await t.request<Body>('GET', '/sync/status', { ...NS, as: 'anonymous', query: { project: 'widget' } })).status, 401);
  });

  test('agent abilities: fetch by id or slug (markdown or sanitized html), search, sync needs the token, reset keeps repository projects', async ({
    t,
    ids,
  }) => {
    const tools = t.host.registries.extensionPoint(chatTools).list();
    const tool = (name: string) => tools.find((x) => x.name === name)!;
    const adminUser = { userId: 1, login: 'admin', can: () => true };
    const anon = { user: null } as never;
    const made = await t.request<Body>('POST', '/docs', {
      ...NS,
      body: { title: 'Tool doc', content: '# Head\n\nText <script>alert(1)</script> here.', project_path: ['tools', 'hammer'] },
    });
    const md = (await tool('docsync_get_doc').run({ id: made.body.id }, anon)) as Body;
    assert.equal([md.content_format, md.title, md.project_type, md.project.project.slug], ['markdown', 'Tool doc', 'project', 'hammer']);
    const html = (await tool('docsync_get_doc').run({ slug: 'tool-doc', format: 'html' }, anon)) as Body;
    assert.is(html.content_format, 'html');
    assert.match(html.content, /<h1>Head<\/h1>/);
    assert.not.match(html.content, /script/);
    let refused = '';
    try {
      await tool('docsync_get_doc').run({ id: ids.draft }, anon);
    } catch (error) {
      refused = (error as Error).message;
    }
    assert.match(refused, /no documentation post/);
    const found = (await tool('docsync_search_docs').run({ query: 'Batch 1' }, anon)) as Body;
    assert.equal([found.query, found.total > 0, found.items[0].title.startsWith('Batch 1')], ['Batch 1', true, true]);
    const scoped = (await tool('docsync_search_docs').run({ query: 'Tool', project: 'hammer' }, anon)) as Body;
    assert.equal(
      scoped.items.map((i: Body) => i.id),
      [made.body.id],
    );
    assert.is(await tool('docsync_sync').enabled!({ user: adminUser } as never), false, 'offered only with a token');
    let noRights = '';
    try {
      await tool('docsync_reset_docs').run({ confirm: true }, { user: { ...adminUser, can: () => false } } as never);
    } catch (error) {
      noRights = (error as Error).message;
    }
    assert.match(noRights, /manage_options/);
    const before = (await t.request<Body>('GET', '/docs', { ...NS, query: { status: 'any', per_page: 1 } })).body.total;
    const reset = (await tool('docsync_reset_docs').run({ confirm: true }, { user: adminUser } as never)) as Body;
    assert.equal([reset.success, reset.documentation_posts_deleted >= before], [true, true]);
    assert.ok(reset.child_terms_deleted >= 5, JSON.stringify(reset));
    assert.is(reset.orphaned_terms_deleted, 2, 'products and tools have no repository address');
    assert.is(reset.sync_metadata_reset, 0);
    assert.is((await t.request<Body>('GET', '/docs', { ...NS, query: { status: 'any' } })).body.total, 0);
  });

  test.run();
}
