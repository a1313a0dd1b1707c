// The content store's behaviour, written once and run on each store adapter
// (content-service.test.ts: embedded; content-service-mongo.test.ts: MongoDB).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../core/errors.js';
import { ContentService } from '../../../core/content/service.js';
import type { DocumentStore } from '../../../core/store/port.js';
import { FakeClock } from '../../../sdk/testing/fake-clock.js';

interface Ctx {
  store: DocumentStore;
  content: ContentService;
  clock: FakeClock;
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

/** The suite of cases on one adapter; the caller runs it. */
export function contentStoreCases(label: string, open: () => Promise<DocumentStore>) {
  const ctx = contentSuite(label, open);
  const { test } = ctx;
  postWriteCases(ctx);
  postQueryCases(ctx);
  termCases(ctx);
  moreQueryCases(ctx);
  return test;
}

/** What the parts of contentStoreCases share: its arguments and the suites and helpers set up first. */
function contentSuite(label: string, open: () => Promise<DocumentStore>) {
  const test = suite<Ctx>(`content store (${label})`);
  test.before.each(async (ctx) => {
    ctx.store = await open();
    ctx.clock = new FakeClock('2026-03-01T10:00:00.000Z');
    ctx.content = new ContentService(ctx.store, ctx.clock);
    await ctx.content.init();
  });
  test.after.each(async (ctx) => ctx.store.close());

  return { label, open, test };
}
type ContentSuite = ReturnType<typeof contentSuite>;

/** Creating and updating posts: defaults, slugs, publication dates, bad input. */
function postWriteCases({ test }: ContentSuite): void {
  test('createPost fills defaults, derives the slug and reads back equal', async ({ content, clock }) => {
    const post = await content.createPost({ title: '  Café Müller: Ten Tips!  ' });
    assert.ok(post.post_id >= 1);
    assert.equal(
      { ...post, post_id: 0 },
      {
        post_id: 0,
        post_type: 'post',
        status: 'draft',
        title: 'Café Müller: Ten Tips!',
        slug: 'cafe-muller-ten-tips',
        content: '',
        excerpt: '',
        meta: {},
        terms: {},
        author_id: null,
        parent_id: null,
        created_at: clock.now(),
        updated_at: clock.now(),
        published_at: null,
        date: clock.now(),
      },
    );
    assert.equal(await content.getPost(post.post_id), post);
    assert.equal(await content.getPostBySlug('post', 'cafe-muller-ten-tips'), post);
    assert.is(await content.getPostBySlug('page', 'cafe-muller-ten-tips'), null);
    assert.is(await content.getPost(999_999), null);
  });

  test('slugs are unique per post type: -2, -3, and free again across types', async ({ content }) => {
    const a = await content.createPost({ title: 'Hello World' });
    const b = await content.createPost({ title: 'Hello, world' });
    const c = await content.createPost({ title: 'hello world', slug: 'Hello World' });
    const page = await content.createPost({ title: 'Hello World', post_type: 'page' });
    assert.equal([a.slug, b.slug, c.slug, page.slug], ['hello-world', 'hello-world-2', 'hello-world-3', 'hello-world']);
    // A title that is already a numbered variant is its own family.
    const numbered = await content.createPost({ title: 'Hello World 2' });
    assert.is(numbered.slug, 'hello-world-2-2');
  });

  test('concurrent creates with one title all get distinct slugs', async ({ content }) => {
    const posts = await Promise.all(Array.from({ length: 16 }, () => content.createPost({ title: 'Same title' })));
    const slugs = posts.map((p) => p.slug).sort();
    assert.is(new Set(slugs).size, 16);
    assert.ok(slugs.every((s) => /^same-title(-[0-9a-f]+)?$/.test(s)));
    assert.is(new Set(posts.map((p) => p.post_id)).size, 16);
  });

  test('a title with no ASCII gets a slug from the type and id', async ({ content }) => {
    const post = await content.createPost({ title: '日本語', post_type: 'event' });
    assert.is(post.slug, `event-${post.post_id}`);
  });

  test('published_at is set when a post is created or becomes published, and kept after', async ({ content, clock }) => {
    const live = await content.createPost({ title: 'Live', status: 'publish' });
    assert.equal(live.published_at, clock.now());

    const draft = await content.createPost({ title: 'Draft' });
    clock.advance(60_000);
    const published = await content.updatePost(draft.post_id, { status: 'publish' });
    assert.equal(published.published_at, clock.now());
    assert.equal(published.updated_at, clock.now());
    assert.equal(published.created_at, draft.created_at);

    const firstPublished = published.published_at;
    clock.advance(60_000);
    await content.updatePost(draft.post_id, { status: 'draft' });
    const again = await content.updatePost(draft.post_id, { status: 'publish' });
    assert.equal(again.published_at, firstPublished);
  });

  test('updatePost changes named fields, merges meta, replaces only named taxonomies', async ({ content }) => {
    const tag = await content.ensureTerm('post_tag', 'News');
    const cat = await content.ensureTerm('category', 'Tech');
    const post = await content.createPost({
      title: 'T',
      content: 'old',
      meta: { a: 1, b: 'x' },
      terms: { post_tag: [tag.term_id], category: [cat.term_id] },
    });
    const updated = await content.updatePost(post.post_id, { content: 'new', meta: { b: null, c: true }, terms: { post_tag: [] } });
    assert.is(updated.title, 'T');
    assert.is(updated.content, 'new');
    assert.equal(updated.meta, { a: 1, c: true });
    assert.equal(updated.terms, { post_tag: [], category: [cat.term_id] });
    assert.is(updated.slug, 't', 'a new title does not move the slug');
    assert.equal(await content.getPost(post.post_id), updated);
  });

  test('updatePost renames the slug uniquely and keeps it when unchanged', async ({ content }) => {
    await content.createPost({ title: 'Taken' });
    const post = await content.createPost({ title: 'Mine' });
    assert.is((await content.updatePost(post.post_id, { slug: 'Taken' })).slug, 'taken-2');
    assert.is((await content.updatePost(post.post_id, { slug: 'taken-2' })).slug, 'taken-2');
  });

  test('updatePost of a missing post is 404 post_not_found', async ({ content }) => {
    const error = await apiError(content.updatePost(4242, { title: 'x' }));
    assert.is(error.status, 404);
    assert.is(error.code, 'post_not_found');
  });

  test('bad input is 400 invalid_post naming the field', async ({ content }) => {
    const cases: Array<[unknown, string]> = [
      [{ title: 5 }, 'title'],
      [{ title: 'x', status: 'live' }, 'status'],
      [{ title: 'x', post_type: 'Bad Type' }, 'post_type'],
      [{ title: 'x', post_type: 'a.b' }, 'post_type'],
      [{ title: 'x', meta: { 'a.b': 1 } }, 'meta'],
      [{ title: 'x', meta: { 'a b': 1 } }, 'meta'],
      [{ title: 'x', meta: { $where: 1 } }, 'meta'],
      [{ title: 'x', meta: [] }, 'meta'],
      [{ title: 'x', terms: { post_tag: [0] } }, 'terms'],
      [{ title: 'x', terms: { post_tag: [77] } }, 'terms'],
      [{ title: 'x', author_id: -1 }, 'author_id'],
      [{ title: 'x', parent_id: 9999 }, 'parent_id'],
    ];
    for (const [input, field] of cases) {
      const error = await apiError(content.createPost(input as never));
      assert.is(error.status, 400, JSON.stringify(input));
      assert.is(error.code, 'invalid_post', JSON.stringify(input));
      assert.is(error.data.field, field, JSON.stringify(input));
    }
    const post = await content.createPost({ title: 'ok' });
    assert.is((await apiError(content.updatePost(post.post_id, { post_type: 'page' } as never))).data.field, 'post_type');
    assert.is((await apiError(content.updatePost(post.post_id, { parent_id: post.post_id }))).data.field, 'parent_id');
    assert.is((await content.findPosts({})).total, 1, 'nothing half-written by the refused creates');
  });
}

/** Finding and deleting posts. */
function postQueryCases({ test }: ContentSuite): void {
  test('findPosts filters by type, status, term, meta and literal search, newest first', async ({ content, clock }) => {
    const tag = await content.ensureTerm('post_tag', 'Featured');
    const make = async (title: string, extra: Record<string, unknown> = {}) => {
      clock.advance(1000);
      return content.createPost({ title, status: 'publish', ...extra });
    };
    const one = await make('First (a+b)', { content: 'Body ONE', terms: { post_tag: [tag.term_id] }, meta: { source: 'rss' } });
    const two = await make('Second', { content: 'body two' });
    const three = await make('Third', { status: 'draft', meta: { source: 'rss' } });
    await make('Page', { post_type: 'page' });

    const ids = (r: { items: Array<{ post_id: number }> }) => r.items.map((p) => p.post_id);
    const posts = await content.findPosts({ post_type: 'post' });
    assert.equal(ids(posts), [three.post_id, two.post_id, one.post_id]);
    assert.is(posts.total, 3);
    assert.equal(ids(await content.findPosts({ post_type: 'post', status: 'publish' })), [two.post_id, one.post_id]);
    assert.equal(ids(await content.findPosts({ status: ['draft'] })), [three.post_id]);
    assert.equal(ids(await content.findPosts({ search: 'BODY' })), [two.post_id, one.post_id]);
    assert.equal(ids(await content.findPosts({ search: '(a+b)' })), [one.post_id], 'regex characters are literal');
    assert.equal(ids(await content.findPosts({ search: '.*' })), []);
    assert.equal(ids(await content.findPosts({ term: { taxonomy: 'post_tag', slug: 'featured' } })), [one.post_id]);
    assert.equal(ids(await content.findPosts({ term: { taxonomy: 'post_tag', term_id: tag.term_id } })), [one.post_id]);
    assert.equal(ids(await content.findPosts({ term: { taxonomy: 'post_tag', slug: 'missing' } })), []);
    assert.equal(ids(await content.findPosts({ meta: { source: 'rss' } })), [three.post_id, one.post_id]);
    assert.equal(ids(await content.findPosts({ post_type: 'post', orderby: 'title', order: 'asc' })), [
      one.post_id,
      two.post_id,
      three.post_id,
    ]);

    const page = await content.findPosts({ post_type: 'post', per_page: 2, offset: 2 });
    assert.equal(ids(page), [one.post_id]);
    assert.is(page.total, 3);
  });

  test('findPosts refuses a bad query with 400 invalid_post_query', async ({ content }) => {
    for (const query of [
      { per_page: 0 },
      { per_page: 101 },
      { offset: -1 },
      { orderby: 'menu_order' },
      { status: 'gone' },
      { include: [0] },
      { after: new Date('x') },
      { terms: [{ taxonomy: 'a.b', term_ids: [1] }] },
      { slug: 'one' },
      { meta: { 'a.b': 1 } },
      { term: { taxonomy: 'post_tag' } },
    ]) {
      const error = await apiError(content.findPosts(query as never));
      assert.is(error.code, 'invalid_post_query', JSON.stringify(query));
    }
  });

  test('deletePost removes the post and detaches its children', async ({ content }) => {
    const parent = await content.createPost({ title: 'Parent' });
    const child = await content.createPost({ title: 'Child', parent_id: parent.post_id });
    assert.is(child.parent_id, parent.post_id);
    assert.is(await content.deletePost(parent.post_id), true);
    assert.is(await content.deletePost(parent.post_id), false);
    assert.is(await content.getPost(parent.post_id), null);
    assert.is((await content.getPost(child.post_id))!.parent_id, null);
  });
}

/** Terms: ensure, hierarchy, bad input. */
function termCases({ test }: ContentSuite): void {
  test('ensureTerm finds by name (any case) or slug and creates once', async ({ content }) => {
    const news = await content.ensureTerm('post_tag', 'Breaking News', { description: 'hot' });
    assert.equal(
      { ...news, term_id: 0 },
      { term_id: 0, taxonomy: 'post_tag', name: 'Breaking News', slug: 'breaking-news', parent_id: null, description: 'hot', meta: {} },
    );
    assert.equal(await content.ensureTerm('post_tag', 'breaking news'), news);
    assert.equal(await content.ensureTerm('post_tag', 'Breaking-News'), news, 'same slug');
    const other = await content.ensureTerm('category', 'Breaking News');
    assert.is.not(other.term_id, news.term_id, 'taxonomies are separate');
    const [x, y] = await Promise.all([content.ensureTerm('post_tag', 'Race'), content.ensureTerm('post_tag', 'Race')]);
    assert.is(x.term_id, y.term_id);
    assert.is((await content.listTerms('post_tag')).length, 2);
  });

  test('terms: hierarchy, getTerm by id or slug, listTerms by parent', async ({ content }) => {
    const root = await content.ensureTerm('project', 'Flowhost');
    const child = await content.ensureTerm('project', 'API Docs', { parent_id: root.term_id, slug: 'api' });
    assert.is(child.slug, 'api');
    assert.is(child.parent_id, root.term_id);
    assert.equal(await content.getTerm('project', root.term_id), root);
    assert.equal(await content.getTerm('project', 'api'), child);
    assert.is(await content.getTerm('project', 'nope'), null);
    assert.equal(
      (await content.listTerms('project', { parent_id: null })).map((t) => t.name),
      ['Flowhost'],
    );
    assert.equal(
      (await content.listTerms('project', { parent_id: root.term_id })).map((t) => t.name),
      ['API Docs'],
    );
    assert.equal(
      (await content.listTerms('project')).map((t) => t.name),
      ['API Docs', 'Flowhost'],
    );
  });

  test('bad term input is 400 invalid_term', async ({ content }) => {
    for (const call of [
      () => content.ensureTerm('post_tag', '   '),
      () => content.ensureTerm('Post Tag', 'x'),
      () => content.ensureTerm('my-tax', 'x'),
      () => content.ensureTerm('post_tag', 'x', { parent_id: 999 }),
      () => content.listTerms('a.b'),
    ]) {
      const error = await apiError(call());
      assert.is(error.code, 'invalid_term');
      assert.is(error.status, 400);
    }
  });
}

/** More queries, post dates, and the rest of the term operations. */
function moreQueryCases({ test }: ContentSuite): void {
  test('findPosts: several taxonomies, include/exclude, slug, author, date range, more orderings', async ({ content, clock }) => {
    const cat = await content.ensureTerm('category', 'News');
    const tag = await content.ensureTerm('post_tag', 'Hot');
    const make = async (title: string, extra: Record<string, unknown> = {}) => {
      clock.advance(1000);
      return content.createPost({ title, status: 'publish', ...extra });
    };
    const a = await make('Alpha', {
      terms: { category: [cat.term_id], post_tag: [tag.term_id] },
      author_id: 7,
      date: new Date('2020-01-01T00:00:00Z'),
    });
    const b = await make('Bravo', { terms: { category: [cat.term_id] }, date: new Date('2021-01-01T00:00:00Z') });
    const c = await make('Charlie', { terms: { post_tag: [tag.term_id] }, author_id: 7 });
    const ids = async (query: Record<string, unknown>) =>
      (await content.findPosts({ post_type: 'post', ...query, per_page: 100 })).items.map((p) => p.post_id);
    assert.equal(
      await ids({
        terms: [
          { taxonomy: 'category', term_ids: [cat.term_id] },
          { taxonomy: 'post_tag', term_ids: [tag.term_id] },
        ],
      }),
      [a.post_id],
    );
    assert.equal(await ids({ terms: [{ taxonomy: 'post_tag', term_ids: [tag.term_id, 999] }] }), [c.post_id, a.post_id]);
    assert.equal(await ids({ terms: [{ taxonomy: 'post_tag', term_ids: [] }] }), []);
    assert.equal(await ids({ include: [a.post_id, b.post_id], exclude: [b.post_id] }), [a.post_id]);
    assert.equal(await ids({ slug: ['bravo', 'charlie'] }), [c.post_id, b.post_id]);
    assert.equal(await ids({ author: [7] }), [c.post_id, a.post_id]);
    assert.equal(await ids({ after: new Date('2020-06-01T00:00:00Z'), before: new Date('2022-01-01T00:00:00Z') }), [b.post_id]);
    assert.equal(await ids({ orderby: 'date', order: 'asc' }), [a.post_id, b.post_id, c.post_id]);
    assert.equal(await ids({ orderby: 'slug', order: 'desc' }), [c.post_id, b.post_id, a.post_id]);
    clock.advance(1000);
    await content.updatePost(a.post_id, { excerpt: 'touched' });
    assert.equal((await ids({ orderby: 'updated_at' }))[0], a.post_id);
  });

  test('post date: given, else the first publication of a draft, else creation', async ({ content, clock }) => {
    const draft = await content.createPost({ title: 'Draft' });
    assert.equal(draft.date, clock.now());
    clock.advance(60_000);
    const published = await content.updatePost(draft.post_id, { status: 'publish' });
    assert.equal(published.date, clock.now(), 'a draft without a date takes its publication');
    const dated = await content.createPost({ title: 'Dated', date: new Date('2019-05-05T05:05:05Z') });
    clock.advance(60_000);
    assert.equal((await content.updatePost(dated.post_id, { status: 'publish' })).date, new Date('2019-05-05T05:05:05Z'));
  });

  test('terms: createTerm refuses duplicates, updateTerm, deleteTerm detaches, findTerms counts and pages', async ({ content }) => {
    const parent = await content.createTerm('category', { name: 'Parent', description: 'p' });
    const error = await apiError(content.createTerm('category', { name: 'parent' }));
    assert.equal([error.code, error.status, error.data.term_id], ['term_exists', 400, parent.term_id]);
    const child = await content.createTerm('category', { name: 'Child', parent_id: parent.term_id, meta: { colour: 'red' } });
    const other = await content.createTerm('category', { name: 'Other' });
    assert.is(
      (await apiError(content.updateTerm('category', parent.term_id, { parent_id: child.term_id }))).code,
      'invalid_term',
      'no cycles',
    );
    assert.is((await apiError(content.updateTerm('category', other.term_id, { slug: 'child' }))).code, 'term_exists');
    assert.is((await apiError(content.updateTerm('category', 999, { name: 'x' }))).status, 404);
    const renamed = await content.updateTerm('category', other.term_id, { name: 'Zulu', meta: { size: 2 } });
    assert.equal([renamed.name, renamed.slug, renamed.meta], ['Zulu', 'other', { size: 2 }]);
    const post = await content.createPost({ title: 'P', status: 'publish', terms: { category: [child.term_id, other.term_id] } });
    await content.createPost({ title: 'D', terms: { category: [other.term_id] } });
    await content.createPost({ title: 'Q', status: 'publish', terms: { category: [other.term_id] } });
    const all = await content.findTerms('category', { orderby: 'count', order: 'desc' });
    assert.equal(
      all.items.map((t) => [t.name, t.count]),
      [
        ['Zulu', 2],
        ['Child', 1],
        ['Parent', 0],
      ],
    );
    assert.equal(
      (await content.findTerms('category', { hide_empty: true, per_page: 1, offset: 1 })).items.map((t) => t.name),
      ['Zulu'],
    );
    assert.is((await content.findTerms('category', { hide_empty: true })).total, 2);
    assert.equal(
      (await content.findTerms('category', { search: 'chi' })).items.map((t) => t.name),
      ['Child'],
    );
    assert.equal(
      (await content.findTerms('category', { parent_id: parent.term_id })).items.map((t) => t.name),
      ['Child'],
    );
    assert.equal(
      (await content.findTerms('category', { slug: ['parent', 'other'], orderby: 'term_id' })).items.map((t) => t.name),
      ['Parent', 'Zulu'],
    );
    assert.is(await content.deleteTerm('category', parent.term_id), true);
    assert.is((await content.getTerm('category', child.term_id))!.parent_id, null, 'children move up');
    assert.is(await content.deleteTerm('category', other.term_id), true);
    assert.equal((await content.getPost(post.post_id))!.terms.category, [child.term_id], 'posts no longer carry it');
    assert.is(await content.deleteTerm('category', other.term_id), false);
  });
}
