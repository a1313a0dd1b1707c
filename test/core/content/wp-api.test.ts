// The wp/v2 content API as a WordPress client sees it, on every store: lists as arrays
// with X-WP-Total headers, visibility by capability, post and term CRUD, a third-party
// plugin's post type and taxonomy getting routes, and rendered HTML made safe.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost, type RequestOptions } from '../../../sdk/testing/index.js';
import { eventsPlugin } from '../../support/events-plugin.js';
import { testStores } from '../../support/test-stores.js';
import { createAjv } from '../../../core/kernel/validator.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WordPress JSON read freely
type Creds = { login: string; password: string };

/** A third party's post type `event` and taxonomy `venue`, registered through the SDK only. */
const events = eventsPlugin('test-events', { hierarchical: true });

for (const store of testStores('content: wp/v2 API')) {
  const test = suite<{ t: TestHost; editor: Creds; author: Creds }>(`content: wp/v2 API (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [events], builtins: false, config: store.config() });
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.author = await ctx.t.createUser('ann', 'author');
  });
  test.after(async (ctx) => ctx.t.stop());

  /**
   * Every answer is checked against the route's declared `schema.responses`, with object
   * schemas that leave `additionalProperties` out closed (a field the schema does not
   * declare fails), as the test host treats them.
   */
  const ajv = createAjv();
  const close = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(close);
    if (!schema || typeof schema !== 'object') return schema;
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([pk, pv]) => [pk, close(pv)])) : close(v),
      ]),
    );
    if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  const wp = async (t: TestHost, method: string, path: string, options: RequestOptions = {}) => {
    const res = await t.request<Body>(method, path, { namespace: 'wp/v2', ...options });
    const route = t.host.routes.find(
      (r) => r.method === method && new RegExp(`^${r.fullPath.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(`/api/wp/v2${path}`),
    );
    const schema = route?.responses[res.status];
    assert.ok(schema, `${method} ${path}: status ${res.status} is not declared (${JSON.stringify(res.body).slice(0, 200)})`);
    const validate = ajv.compile(close(schema) as object);
    assert.ok(
      validate(res.body),
      `${method} ${path} → ${res.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(res.body).slice(0, 300)}`,
    );
    return res;
  };

  test('types and taxonomies in the edit context: refused to strangers as WordPress does, given to editors', async ({ t, editor }) => {
    for (const [path, code, words] of [
      ['/types', 'rest_cannot_view', 'edit posts in this post type'],
      ['/types/post', 'rest_forbidden_context', 'edit posts in this post type'],
      ['/taxonomies', 'rest_cannot_view', 'manage terms in this taxonomy'],
      ['/taxonomies/category', 'rest_forbidden_context', 'manage terms in this taxonomy'],
    ] as const) {
      const refused = await wp(t, 'GET', path, { as: 'anonymous', query: { context: 'edit' } });
      assert.is(refused.status, 401, path);
      assert.is(refused.body.code, code, path);
      assert.is(refused.body.message, `Sorry, you are not allowed to ${words}.`, path);
      assert.is((await wp(t, 'GET', path, { as: editor, query: { context: 'edit' } })).status, 200, path);
      assert.is((await wp(t, 'GET', path, { as: 'anonymous' })).status, 200, path);
    }
    assert.is((await wp(t, 'GET', '/types/nothing', { as: 'anonymous', query: { context: 'edit' } })).status, 404, 'unknown first');
  });

  test('slugs come from the text of a title, and a name is one name however it is written (as WordPress)', async ({ t, editor }) => {
    const post = await wp(t, 'POST', '/posts', {
      as: editor,
      body: { title: 'Tom &amp; Jerry <em>live</em>', content: 'c', status: 'publish' },
    });
    assert.is(post.status, 201);
    assert.is(post.body.slug, 'tom-jerry-live');
    const tag = await wp(t, 'POST', '/tags', { as: editor, body: { name: '<b>Fish</b> & Chips' } });
    assert.is(tag.status, 201);
    assert.is(tag.body.name, 'Fish &amp; Chips');
    assert.is(tag.body.slug, 'fish-chips');
    for (const name of ['Fish & Chips', 'Fish &amp; Chips']) {
      const again = await wp(t, 'POST', '/tags', { as: editor, body: { name } });
      assert.is(again.status, 400, name);
      assert.is(again.body.code, 'term_exists', name);
      assert.is(again.body.data.term_id, tag.body.id, name);
    }
  });

  test('GET /types and /taxonomies list core and plugin registrations, WordPress-shaped', async ({ t }) => {
    const types = await wp(t, 'GET', '/types', { as: 'anonymous' });
    assert.is(types.status, 200);
    assert.equal(types.body.post, {
      description: '',
      hierarchical: false,
      has_archive: false,
      name: 'Posts',
      slug: 'post',
      taxonomies: ['category', 'post_tag'],
      rest_base: 'posts',
      rest_namespace: 'wp/v2',
    });
    assert.is(types.body.event.rest_base, 'events');
    assert.equal(types.body.event.taxonomies, ['venue']);
    const taxonomies = await wp(t, 'GET', '/taxonomies', { as: 'anonymous' });
    assert.equal(Object.keys(taxonomies.body).sort(), ['category', 'post_tag', 'venue']);
    assert.equal(taxonomies.body.category.types, ['post']);
    assert.equal(Object.keys((await wp(t, 'GET', '/taxonomies', { query: { type: 'event' } })).body), ['venue']);
    assert.is((await wp(t, 'GET', '/types/event')).body.slug, 'event');
    const missing = await wp(t, 'GET', '/types/nope');
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'rest_type_invalid');
  });

  test('create: 201 with Location, edit context, fields as WordPress; anonymous and authors refused where WordPress refuses them', async ({
    t,
    editor,
    author,
  }) => {
    const anonymous = await wp(t, 'POST', '/posts', { as: 'anonymous', body: { title: 'x' } });
    assert.is(anonymous.status, 401);
    const created = await wp(t, 'POST', '/posts', {
      as: author,
      body: { title: 'Hello <em>there</em>', content: 'First *post*', status: 'publish', date: '2026-02-03T04:05:06' },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const post = created.body;
    assert.match(created.headers.get('location') ?? '', new RegExp(`/api/wp/v2/posts/${post.id}$`));
    assert.is(post.type, 'post');
    assert.is(post.status, 'publish');
    assert.is(post.slug, 'hello-there', 'the slug is made from the text of the title, as sanitize_title makes it');
    assert.is(post.date, '2026-02-03T04:05:06');
    assert.is(post.date_gmt, '2026-02-03T04:05:06');
    assert.match(post.modified, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.equal(post.title, { rendered: 'Hello <em>there</em>', raw: 'Hello <em>there</em>' });
    assert.equal(post.content, { rendered: '<p>First <em>post</em></p>\n', protected: false, raw: 'First *post*' });
    assert.equal(post.excerpt, { rendered: '<p>First post</p>\n', protected: false, raw: '' });
    assert.is(post.author, (await t.host.users.findByLogin('ann'))!.user_id);
    assert.is(post.comment_status, 'closed');
    assert.is(post.format, 'standard');
    assert.equal(post.categories, []);
    assert.equal(post.tags, []);
    assert.equal(post.meta, {});
    assert.is(post.link, `${t.url}/?p=${post.id}`);
    assert.is(post.featured_media, 0);
    assert.is(post.parent, undefined, 'posts are not hierarchical');

    const empty = await wp(t, 'POST', '/posts', { as: editor, body: { status: 'draft' } });
    assert.is(empty.status, 400);
    assert.is(empty.body.code, 'empty_content');
    const badStatus = await wp(t, 'POST', '/posts', { as: editor, body: { title: 'x', status: 'sideways' } });
    assert.is(badStatus.status, 400);
    assert.is(badStatus.body.code, 'rest_invalid_param');
    assert.ok('status' in badStatus.body.data.params, JSON.stringify(badStatus.body));
    const badTerm = await wp(t, 'POST', '/posts', { as: editor, body: { title: 'x', categories: [999_999] } });
    assert.is(badTerm.status, 400);
    assert.ok('categories' in badTerm.body.data.params);
    const badDate = await wp(t, 'POST', '/posts', { as: editor, body: { title: 'x', date: '2026-13-45T99:00:00' } });
    assert.is(badDate.status, 400);
    assert.ok('date' in badDate.body.data.params);
    // Authors delete their own posts only (WordPress: delete_others_posts is an editor's).
    const editors = (await wp(t, 'POST', '/posts', { as: editor, body: { title: 'The editor owns this', status: 'publish' } })).body;
    const authorDeletes = await wp(t, 'DELETE', `/posts/${editors.id}`, { as: author });
    assert.is(authorDeletes.status, 403);
    assert.is(authorDeletes.body.code, 'rest_cannot_delete');
  });

  test('lists: arrays, X-WP-Total headers, pagination, page beyond the last', async ({ t, editor }) => {
    const before = Number((await wp(t, 'GET', '/posts', { as: 'anonymous' })).headers.get('x-wp-total'));
    for (let i = 1; i <= 12; i++) {
      t.clock.advance(1000);
      const res = await wp(t, 'POST', '/posts', {
        as: editor,
        body: { title: `Paged ${String(i).padStart(2, '0')}`, status: 'publish', meta: { batch: 'paged' } },
      });
      assert.is(res.status, 201);
    }
    const first = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { per_page: 5, search: 'Paged' } });
    assert.is(first.status, 200);
    assert.ok(Array.isArray(first.body));
    assert.is(first.body.length, 5);
    assert.is(first.headers.get('x-wp-total'), '12');
    assert.is(first.headers.get('x-wp-totalpages'), '3');
    assert.equal(
      first.body.map((p: Body) => p.title.rendered),
      ['Paged 12', 'Paged 11', 'Paged 10', 'Paged 09', 'Paged 08'],
      'newest first',
    );
    assert.is(first.body[0].title.raw, undefined, 'raw only in the edit context');
    const last = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { per_page: 5, page: 3, search: 'Paged' } });
    assert.is(last.body.length, 2);
    const beyond = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { per_page: 5, page: 4, search: 'Paged' } });
    assert.is(beyond.status, 400);
    assert.is(beyond.body.code, 'rest_post_invalid_page_number');
    const none = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { search: 'no such thing', page: 1 } });
    assert.equal([none.status, none.body, none.headers.get('x-wp-total'), none.headers.get('x-wp-totalpages')], [200, [], '0', '0']);
    const tooMany = await wp(t, 'GET', '/posts', { query: { per_page: 101 } });
    assert.is(tooMany.status, 400);
    assert.is(tooMany.body.code, 'rest_invalid_param');
    const unknown = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { per_page: 1, colour: 'blue' } });
    assert.is(unknown.status, 200, 'unknown parameters are ignored');
    assert.is(Number(unknown.headers.get('x-wp-total')), before + 12);
    const asc = await wp(t, 'GET', '/posts', { query: { search: 'Paged', orderby: 'title', order: 'asc', per_page: 2 } });
    assert.equal(
      asc.body.map((p: Body) => p.title.rendered),
      ['Paged 01', 'Paged 02'],
    );
    const embed = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { search: 'Paged', per_page: 1, context: 'embed' } });
    // WordPress keeps `_links` in every context.
    assert.equal(Object.keys(embed.body[0]).sort(), [
      '_links',
      'author',
      'date',
      'excerpt',
      'featured_media',
      'id',
      'link',
      'slug',
      'title',
      'type',
    ]);
  });

  test('visibility: drafts and the edit context need edit_posts, as WordPress answers', async ({ t, editor }) => {
    const draft = (await wp(t, 'POST', '/posts', { as: editor, body: { title: 'Secret draft', content: 'hidden' } })).body;
    assert.is(draft.status, 'draft');
    const anonList = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { search: 'Secret draft' } });
    assert.equal(anonList.body, []);
    const asked = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { status: 'draft' } });
    assert.is(asked.status, 400);
    assert.is(asked.body.code, 'rest_invalid_param');
    assert.is(asked.body.data.params.status, 'Status is forbidden.');
    const editorList = await wp(t, 'GET', '/posts', { as: editor, query: { status: 'draft', search: 'Secret draft' } });
    assert.equal(
      editorList.body.map((p: Body) => p.id),
      [draft.id],
    );
    const anyList = await wp(t, 'GET', '/posts', { as: editor, query: { status: 'publish,draft', search: 'Secret draft' } });
    assert.is(anyList.body.length, 1);
    const anonOne = await wp(t, 'GET', `/posts/${draft.id}`, { as: 'anonymous' });
    assert.is(anonOne.status, 401);
    assert.is(anonOne.body.code, 'rest_forbidden');
    const editorOne = await wp(t, 'GET', `/posts/${draft.id}`, { as: editor, query: { context: 'edit' } });
    assert.is(editorOne.status, 200);
    assert.is(editorOne.body.content.raw, 'hidden');
    const editContext = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { context: 'edit' } });
    assert.is(editContext.status, 401);
    assert.is(editContext.body.code, 'rest_forbidden_context');
    assert.is(editContext.body.message, 'Sorry, you are not allowed to edit posts.');
    // One post: WordPress's words for it, and only once the post is known to exist.
    const editOne = await wp(t, 'GET', `/posts/${draft.id}`, { as: 'anonymous', query: { context: 'edit' } });
    assert.is(editOne.status, 401);
    assert.is(editOne.body.code, 'rest_forbidden_context');
    assert.is(editOne.body.message, 'Sorry, you are not allowed to edit this post.');
    const editMissing = await wp(t, 'GET', '/posts/999999', { as: 'anonymous', query: { context: 'edit' } });
    assert.is(editMissing.status, 404);
    assert.is(editMissing.body.code, 'rest_post_invalid_id');
    const missing = await wp(t, 'GET', '/posts/999999', { as: 'anonymous' });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'rest_post_invalid_id');
  });

  test('filters: taxonomies, slug, include/exclude, author, after/before', async ({ t, editor, author }) => {
    const cat = (await wp(t, 'POST', '/categories', { as: editor, body: { name: 'Filters Cat' } })).body;
    const tag = (await wp(t, 'POST', '/tags', { as: editor, body: { name: 'filters-tag' } })).body;
    const make = async (title: string, extra: Body, as: Creds = editor) => {
      const res = await wp(t, 'POST', '/posts', { as, body: { title, status: 'publish', ...extra } });
      assert.is(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    const a = await make('Filter A', { categories: [cat.id], tags: [tag.id], date: '2020-01-01T00:00:00' });
    const b = await make('Filter B', { categories: [cat.id], date: '2021-06-01T12:00:00Z' });
    const c = await make('Filter C', { tags: [tag.id], date: '2022-01-01T00:00:00+02:00' }, author);
    assert.is(c.date_gmt, '2021-12-31T22:00:00');
    const ids = async (query: Record<string, string | number>) => {
      const res = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { search: 'Filter', per_page: 100, ...query } });
      assert.is(res.status, 200, JSON.stringify(res.body));
      return res.body.map((p: Body) => p.id).sort((x: number, y: number) => x - y);
    };
    assert.equal(await ids({ categories: cat.id }), [a.id, b.id]);
    assert.equal(await ids({ tags: tag.id }), [a.id, c.id]);
    assert.equal(await ids({ categories: cat.id, tags: tag.id }), [a.id]);
    assert.equal(await ids({ categories: `${cat.id},999999` }), [a.id, b.id]);
    assert.equal(await ids({ slug: 'filter-b' }), [b.id]);
    assert.equal(await ids({ include: `${a.id},${c.id}` }), [a.id, c.id]);
    assert.equal(await ids({ exclude: a.id }), [b.id, c.id]);
    assert.equal(await ids({ author: c.author }), [c.id]);
    assert.equal(await ids({ after: '2021-01-01T00:00:00' }), [b.id, c.id]);
    assert.equal(await ids({ before: '2021-01-01T00:00:00', after: '2019-01-01T00:00:00' }), [a.id]);
    const ordered = await wp(t, 'GET', '/posts', { query: { include: `${c.id},${a.id},${b.id}`, orderby: 'include' } });
    assert.equal(
      ordered.body.map((p: Body) => p.id),
      [c.id, a.id, b.id],
    );
    for (const [param, value] of [
      ['after', 'yesterday'],
      ['before', '2021-02-30T25:00:00'],
      ['categories', 'abc'],
      ['include', '-1'],
      ['slug', Array(101).fill('a').join(',')],
      ['exclude', Array(101).fill('1').join(',')],
    ]) {
      const bad = await wp(t, 'GET', '/posts', { as: 'anonymous', query: { [param!]: value! } });
      assert.is(bad.status, 400, `${param}=${value}`);
      assert.is(bad.body.code, 'rest_invalid_param');
      assert.ok(param! in bad.body.data.params, JSON.stringify(bad.body));
    }
  });

  test('update, trash, already trashed, force delete: answers and stored state', async ({ t, editor }) => {
    const post = (
      await wp(t, 'POST', '/posts', { as: editor, body: { title: 'To change', status: 'publish', meta: { keep: 'yes', drop: 'me' } } })
    ).body;
    const patched = await wp(t, 'PATCH', `/posts/${post.id}`, {
      as: editor,
      body: { title: { raw: 'Changed' }, meta: { drop: null, added: 2 }, featured_media: 7 },
    });
    assert.is(patched.status, 200, JSON.stringify(patched.body));
    assert.is(patched.body.title.raw, 'Changed');
    assert.equal(patched.body.meta, { keep: 'yes', added: 2 });
    assert.is(patched.body.featured_media, 7);
    const put = await wp(t, 'PUT', `/posts/${post.id}`, { as: editor, body: { slug: 'changed-slug' } });
    assert.is(put.body.slug, 'changed-slug');
    const posted = await wp(t, 'POST', `/posts/${post.id}`, { as: editor, body: { excerpt: 'Short.' } });
    assert.is(posted.body.excerpt.rendered, '<p>Short.</p>\n');
    assert.is((await t.host.content.getPost(post.id))!.title, 'Changed');
    assert.is((await wp(t, 'PATCH', '/posts/999999', { as: editor, body: { title: 'x' } })).status, 404);

    const trashed = await wp(t, 'DELETE', `/posts/${post.id}`, { as: editor });
    assert.is(trashed.status, 200);
    assert.is(trashed.body.status, 'trash');
    assert.is((await t.host.content.getPost(post.id))!.status, 'trash');
    const again = await wp(t, 'DELETE', `/posts/${post.id}`, { as: editor });
    assert.is(again.status, 410);
    assert.is(again.body.code, 'rest_already_trashed');
    const forced = await wp(t, 'DELETE', `/posts/${post.id}`, { as: editor, query: { force: 'true' } });
    assert.is(forced.status, 200);
    assert.is(forced.body.deleted, true);
    assert.is(forced.body.previous.id, post.id);
    assert.is(forced.body.previous.status, 'trash');
    assert.is(await t.host.content.getPost(post.id), null);
    assert.is((await wp(t, 'GET', `/posts/${post.id}`)).status, 404);
  });

  test('terms: create, term_exists, hierarchy, list filters and counts, update, delete needs force', async ({ t, editor, author }) => {
    const denied = await wp(t, 'POST', '/categories', { as: author, body: { name: 'Nope' } });
    assert.is(denied.status, 403, 'authors lack manage_categories');
    const created = await wp(t, 'POST', '/categories', { as: editor, body: { name: 'Term Parent', description: 'Top' } });
    assert.is(created.status, 201);
    assert.match(created.headers.get('location') ?? '', new RegExp(`/wp/v2/categories/${created.body.id}$`));
    assert.equal(
      { ...created.body, id: 0, link: '', _links: {} },
      {
        id: 0,
        count: 0,
        description: 'Top',
        link: '',
        name: 'Term Parent',
        slug: 'term-parent',
        taxonomy: 'category',
        parent: 0,
        meta: {},
        _links: {},
      },
    );
    assert.equal(Object.keys(created.body._links).sort(), ['about', 'collection', 'self']);
    const exists = await wp(t, 'POST', '/categories', { as: editor, body: { name: 'term parent' } });
    assert.is(exists.status, 400);
    assert.is(exists.body.code, 'term_exists');
    assert.is(exists.body.data.term_id, created.body.id);
    const missingName = await wp(t, 'POST', '/categories', { as: editor, body: {} });
    assert.is(missingName.status, 400);
    const child = (await wp(t, 'POST', '/categories', { as: editor, body: { name: 'Term Child', parent: created.body.id } })).body;
    assert.is(child.parent, created.body.id);
    const badParent = await wp(t, 'POST', '/categories', { as: editor, body: { name: 'Orphan', parent: 999999 } });
    assert.is(badParent.status, 400);
    assert.is(badParent.body.code, 'rest_term_invalid');
    const tag = (await wp(t, 'POST', '/tags', { as: editor, body: { name: 'Term Tag' } })).body;
    assert.is(tag.parent, undefined, 'tags are flat');

    const post = (
      await wp(t, 'POST', '/posts', {
        as: editor,
        body: { title: 'Carries terms', status: 'publish', categories: [child.id], tags: [tag.id] },
      })
    ).body;
    await wp(t, 'POST', '/posts', { as: editor, body: { title: 'Draft carries', categories: [child.id] } });
    const children = await wp(t, 'GET', '/categories', { as: 'anonymous', query: { parent: created.body.id } });
    assert.equal(
      children.body.map((c: Body) => [c.name, c.count]),
      [['Term Child', 1]],
      'count is published posts only',
    );
    assert.is(children.headers.get('x-wp-total'), '1');
    const nonEmpty = await wp(t, 'GET', '/categories', { as: 'anonymous', query: { hide_empty: 'true', search: 'Term' } });
    assert.equal(
      nonEmpty.body.map((c: Body) => c.name),
      ['Term Child'],
    );
    const ofPost = await wp(t, 'GET', '/tags', { as: 'anonymous', query: { post: post.id } });
    assert.equal(
      ofPost.body.map((c: Body) => c.id),
      [tag.id],
    );
    const bySlug = await wp(t, 'GET', '/categories', { query: { slug: 'term-child,term-parent', orderby: 'id', order: 'desc' } });
    assert.equal(
      bySlug.body.map((c: Body) => c.id),
      [child.id, created.body.id],
    );
    const one = await wp(t, 'GET', `/categories/${child.id}`, { as: 'anonymous' });
    assert.is(one.body.count, 1);
    assert.is((await wp(t, 'GET', '/categories/999999')).body.code, 'rest_term_invalid');

    const renamed = await wp(t, 'PATCH', `/categories/${child.id}`, { as: editor, body: { name: 'Renamed Child', parent: 0 } });
    assert.is(renamed.status, 200);
    assert.equal([renamed.body.name, renamed.body.parent, renamed.body.slug], ['Renamed Child', 0, 'term-child']);
    const clash = await wp(t, 'POST', `/categories/${child.id}`, { as: editor, body: { slug: 'term-parent' } });
    assert.is(clash.status, 400);
    assert.is(clash.body.code, 'term_exists');

    const noForce = await wp(t, 'DELETE', `/categories/${child.id}`, { as: editor });
    assert.is(noForce.status, 501);
    assert.is(noForce.body.code, 'rest_trash_not_supported');
    const deleted = await wp(t, 'DELETE', `/categories/${child.id}`, { as: editor, query: { force: 1 } });
    assert.is(deleted.status, 200);
    assert.equal([deleted.body.deleted, deleted.body.previous.id], [true, child.id]);
    assert.equal((await t.host.content.getPost(post.id))!.terms.category, [], 'posts no longer carry it');
    assert.is((await wp(t, 'DELETE', `/categories/${child.id}`, { as: editor, query: { force: 1 } })).status, 404);
  });

  test("a plugin's post type and taxonomy get routes of their own", async ({ t, editor }) => {
    const venue = (await wp(t, 'POST', '/venues', { as: editor, body: { name: 'Town Hall' } })).body;
    assert.is(venue.taxonomy, 'venue');
    const parent = await wp(t, 'POST', '/events', { as: editor, body: { title: 'Festival', status: 'publish', venues: [venue.id] } });
    assert.is(parent.status, 201, JSON.stringify(parent.body));
    assert.is(parent.body.type, 'event');
    assert.equal(parent.body.venues, [venue.id]);
    assert.is(parent.body.categories, undefined);
    assert.is(parent.body.format, undefined);
    const child = await wp(t, 'POST', '/events', {
      as: editor,
      body: { title: 'Opening night', status: 'publish', parent: parent.body.id },
    });
    assert.is(child.body.parent, parent.body.id);
    const badParent = await wp(t, 'POST', '/events', { as: editor, body: { title: 'x', parent: 999999 } });
    assert.is(badParent.status, 400);
    const cycle = await wp(t, 'PATCH', `/events/${parent.body.id}`, { as: editor, body: { parent: child.body.id } });
    assert.is(cycle.status, 400, 'a post cannot become its own descendant');
    assert.is(cycle.body.code, 'rest_post_invalid_parent');
    assert.is((await wp(t, 'PATCH', `/events/${parent.body.id}`, { as: editor, body: { parent: parent.body.id } })).status, 400);
    const list = await wp(t, 'GET', '/events', { as: 'anonymous', query: { venues: venue.id } });
    assert.equal(
      list.body.map((e: Body) => e.id),
      [parent.body.id],
    );
    assert.is((await wp(t, 'GET', `/events/${parent.body.id}`, { as: 'anonymous' })).status, 200);
    assert.is((await wp(t, 'GET', `/posts/${parent.body.id}`, { as: 'anonymous' })).status, 404, 'an event is not a post');
    const venues = await wp(t, 'GET', '/venues', { as: 'anonymous' });
    assert.equal(
      venues.body.map((v: Body) => [v.name, v.count]),
      [['Town Hall', 1]],
    );
  });

  test('rendered HTML is sanitized; raw keeps what was written', async ({ t, editor }) => {
    const hostile =
      '<p onclick="steal()">Hi <a href="javascript:alert(1)">link</a></p><script>alert(1)</script><img src="x" onerror="alert(2)"><iframe src="https://evil.example"></iframe>';
    const res = await wp(t, 'POST', '/posts', {
      as: editor,
      body: { title: '<img src=x onerror=alert(3)>Title<script>x</script>', content: hostile, status: 'publish' },
    });
    assert.is(res.status, 201);
    const got = (await wp(t, 'GET', `/posts/${res.body.id}`, { as: 'anonymous' })).body;
    for (const text of [got.content.rendered, got.title.rendered, got.excerpt.rendered]) {
      assert.not.match(text, /<script|onclick|onerror|javascript:|<iframe/i, text);
    }
    assert.is(got.content.rendered, '<p>Hi <a>link</a></p><img src="x" />');
    assert.is(got.title.rendered, 'Title');
    const raw = (await wp(t, 'GET', `/posts/${res.body.id}`, { as: editor, query: { context: 'edit' } })).body;
    assert.is(raw.content.raw, hostile);
    const md = await wp(t, 'POST', '/posts', {
      as: editor,
      body: { title: 'Markdown', content: '# Head\n\n- one\n- two\n\n[ok](https://example.com)', status: 'publish' },
    });
    assert.is(
      md.body.content.rendered,
      '<h1>Head</h1>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p><a href="https://example.com">ok</a></p>\n',
    );
    const asHtml = await wp(t, 'POST', '/posts', {
      as: editor,
      body: { title: 'Literal', content: '*not emphasis*', meta: { content_format: 'html' }, status: 'publish' },
    });
    assert.is(asHtml.body.content.rendered, '*not emphasis*');
  });

  test.run();
}
