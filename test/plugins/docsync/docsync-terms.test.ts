// docsync's taxonomy and batch rules on both stores, as a client sees them: a batch with one
// bad document syncs the others and counts it failed; project_path under an existing project
// makes sections; a term cannot be renamed into a sibling's name (term_exists); hide_empty
// keeps a section whose documents are all further down.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const NS = { namespace: 'docsync/v1' };
type User = { login: string; password: string };

for (const store of testStores('docsync terms')) {
  const test = suite<{ t: TestHost; editor: User; ids: Record<string, number> }>(`docsync terms (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.editor = await ctx.t.createUser('editor31', 'editor');
    ctx.ids = {};
  });
  test.after(async (ctx) => ctx.t.stop());

  test('/sync/batch: a document lacking a field fails alone; the others are synced and counted', async ({ t, editor, ids }) => {
    const setup = await t.request<Body>('POST', '/sync/setup', {
      ...NS,
      as: editor,
      body: { project_slug: 'widget', project_name: 'Widget', category_slug: 'products', category_name: 'Products' },
    });
    ids.widget = setup.body.project_term_id;
    const doc = (name: string) => ({
      source_file: `${name}.md`,
      title: name,
      content: `About ${name}`,
      project_term_id: ids.widget,
      filesize: 7,
      timestamp: '2026-01-02T03:04:05Z',
    });
    const { title: _dropped, ...untitled } = doc('untitled');
    const docs = [doc('alpha'), untitled, doc('gamma'), { ...doc('delta'), filesize: -1 }, 'not a document'];
    const batch = await t.request<Body>('POST', '/sync/batch', { ...NS, as: editor, body: { docs } });
    assert.is(batch.status, 200, JSON.stringify(batch.body));
    assert.equal([batch.body.total, batch.body.created, batch.body.updated, batch.body.unchanged, batch.body.failed], [5, 2, 0, 0, 3]);
    const results = batch.body.results as Body[];
    assert.equal(
      results.map((r) => [r.success, r.action]),
      [
        [true, 'created'],
        [false, 'failed'],
        [true, 'created'],
        [false, 'failed'],
        [false, 'failed'],
      ],
    );
    assert.equal([results[1]!.post_id, results[1]!.error.code], [null, 'rest_missing_callback_param']);
    assert.match(results[1]!.error.message, /title/);
    assert.equal([results[3]!.error.code, results[4]!.error.code], ['rest_invalid_param', 'rest_invalid_param']);
    const status = await t.request<Body>('GET', '/sync/status', { ...NS, as: editor, query: { project: 'widget' } });
    assert.equal(status.body.docs.map((d: Body) => d.source_file).sort(), ['alpha.md', 'gamma.md']);
    assert.is(
      (await t.request('POST', '/sync/batch', { ...NS, as: editor, body: { docs: 'nothing' } })).status,
      400,
      'the batch itself must be a list',
    );
  });

  test('POST /docs with project_path under an existing project makes sections and attributes the post to the project', async ({
    t,
    editor,
    ids,
  }) => {
    const handbook = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: editor,
      body: { path: ['handbook'], create_missing: true },
    });
    ids.handbook = handbook.body.leaf_term_id;
    const created = await t.request<Body>('POST', '/docs', {
      ...NS,
      as: editor,
      body: { title: 'Deep page', content: 'Down here.', project_path: ['handbook', 'manual', 'deep'] },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const project = created.body.project as Body;
    assert.equal(
      [project.project?.id, project.hierarchy_path, project.assigned_term.slug, project.project_type, project.category],
      [ids.handbook, 'handbook/manual/deep', 'deep', 'project', null],
    );
    const resolved = await t.request<Body>('POST', '/project/resolve', { ...NS, body: { path: ['handbook', 'manual'] } });
    ids.manual = resolved.body.leaf_term_id;
    ids.deep = project.assigned_term.id;
    for (const id of [ids.manual, ids.deep]) {
      const term = await t.request<Body>('GET', `/project/${id}`, NS);
      assert.equal([term.body.project_type, term.body.is_project], ['section', false], term.body.slug);
    }
  });

  test('PUT /project/{id}: a name a sibling has is refused with term_exists; the term keeps its name', async ({ t, editor, ids }) => {
    const guide = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      as: editor,
      body: { path: ['handbook', 'Guide'], create_missing: true },
    });
    ids.guide = guide.body.leaf_term_id;
    for (const name of ['manual', 'MANUAL']) {
      const clash = await t.request<Body>('PUT', `/project/${ids.guide}`, { ...NS, as: editor, body: { name } });
      assert.equal([clash.status, clash.body.code, clash.body.data?.term_id], [400, 'term_exists', ids.manual], JSON.stringify(clash.body));
    }
    assert.is((await t.request<Body>('GET', `/project/${ids.guide}`, NS)).body.name, 'Guide');
    const recased = await t.request<Body>('PUT', `/project/${ids.guide}`, { ...NS, as: editor, body: { name: 'GUIDE' } });
    assert.equal([recased.status, recased.body.name], [200, 'GUIDE'], 'its own name in another case');
    const elsewhere = await t.request<Body>('PUT', `/project/${ids.deep}`, { ...NS, as: editor, body: { name: 'Guide' } });
    assert.equal([elsewhere.status, elsewhere.body.name], [200, 'Guide'], 'the same name under another parent');
  });

  test('hide_empty keeps a section whose documents are in a descendant, and hides one with none', async ({ t, ids }) => {
    const under = await t.request<Body[]>('GET', '/project', { ...NS, as: 'anonymous', query: { parent: ids.handbook, hide_empty: true } });
    assert.equal(
      under.body.map((x) => [x.slug, x.count]),
      [['manual', 0]],
    );
    const top = await t.request<Body[]>('GET', '/project', { ...NS, as: 'anonymous', query: { hide_empty: true } });
    assert.equal(top.body.map((x) => x.slug).sort(), ['handbook', 'products']);
    const tree = await t.request<Body[]>('GET', '/project/tree', {
      ...NS,
      as: 'anonymous',
      query: { parent: ids.handbook, hide_empty: true },
    });
    assert.equal(
      tree.body.map((n) => [n.slug, n.children.map((c: Body) => [c.id, c.count])]),
      [['manual', [[ids.deep, 1]]]],
    );
  });

  test.run();
}
