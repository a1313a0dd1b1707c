// The headers a WordPress client pages and reads by, on every store: `Link` rel="prev" /
// rel="next" on lists (the client's own query kept), and CORS as WordPress's REST server
// sends it, so a script on another origin can read X-WP-Total, X-WP-TotalPages and Link;
// `_fields`, which WordPress's server applies to every answer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

/** The `<url>; rel="x"` entries of a Link header, by rel. */
function linksOf(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of (header ?? '').matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) out[match[2]!] = match[1]!;
  return out;
}

for (const store of testStores('content: wp/v2 headers')) {
  const test = suite<{ t: TestHost }>(`content: wp/v2 headers (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], builtins: false, config: store.config() });
    for (let i = 1; i <= 5; i++) {
      const res = await ctx.t.request('POST', '/posts', { namespace: 'wp/v2', body: { title: `Post ${i}`, status: 'publish' } });
      assert.is(res.status, 201);
    }
  });
  test.after(async (ctx) => ctx.t.stop());

  test('lists carry Link rel="next"/"prev" with the query as sent, page replaced', async ({ t }) => {
    const base = `${t.url}/api/wp/v2/posts`;
    const first = await t.request('GET', '/posts', { namespace: 'wp/v2', as: 'anonymous', query: { per_page: 2, search: 'Post' } });
    assert.is(first.headers.get('x-wp-totalpages'), '3');
    assert.equal(linksOf(first.headers.get('link')), { next: `${base}?per_page=2&search=Post&page=2` });
    const middle = await t.request('GET', '/posts', {
      namespace: 'wp/v2',
      as: 'anonymous',
      query: { per_page: 2, search: 'Post', page: 2 },
    });
    assert.equal(linksOf(middle.headers.get('link')), {
      prev: `${base}?per_page=2&search=Post&page=1`,
      next: `${base}?per_page=2&search=Post&page=3`,
    });
    const last = await t.request('GET', '/posts', { namespace: 'wp/v2', as: 'anonymous', query: { per_page: 2, search: 'Post', page: 3 } });
    assert.equal(linksOf(last.headers.get('link')), { prev: `${base}?per_page=2&search=Post&page=2` });
    const one = await t.request('GET', '/categories', { namespace: 'wp/v2', as: 'anonymous' });
    assert.is(one.headers.get('link'), null, 'a single page has no Link');
  });

  test('CORS: the origin is echoed and the paging headers exposed, as rest_send_cors_headers', async ({ t }) => {
    const origin = 'https://client.example';
    const res = await t.request('GET', '/posts', { namespace: 'wp/v2', as: 'anonymous', headers: { Origin: origin } });
    assert.is(res.status, 200);
    assert.is(res.headers.get('access-control-allow-origin'), origin);
    assert.is(res.headers.get('access-control-allow-credentials'), 'true');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    for (const name of ['X-WP-Total', 'X-WP-TotalPages', 'Link'])
      assert.ok(exposed.includes(name), `${name} exposed: ${exposed.join(', ')}`);
    // The preflight a cross-origin client with an Authorization header sends first.
    const preflight = await fetch(`${t.url}/api/wp/v2/posts`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    assert.is(preflight.status, 200);
    assert.is(preflight.headers.get('access-control-allow-origin'), origin);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    await preflight.arrayBuffer();
  });

  test('_fields keeps the named fields (dot paths too), on lists and single items, as rest_filter_response_fields', async ({ t }) => {
    const list = await t.request<Array<Record<string, unknown>>>('GET', '/posts', {
      namespace: 'wp/v2',
      as: 'anonymous',
      query: { _fields: 'id,title.rendered', per_page: 2 },
    });
    assert.is(list.status, 200);
    assert.is(list.body.length, 2);
    for (const item of list.body) {
      assert.equal(Object.keys(item).sort(), ['id', 'title']);
      assert.equal(Object.keys(item.title as object), ['rendered']);
    }
    const id = list.body[0]!.id as number;
    const one = await t.request<Record<string, unknown>>('GET', `/posts/${id}`, {
      namespace: 'wp/v2',
      as: 'anonymous',
      query: { '_fields[]': 'link' },
    });
    assert.equal(Object.keys(one.body), ['link']);
    const error = await t.request<Record<string, unknown>>('GET', '/posts/999999', {
      namespace: 'wp/v2',
      as: 'anonymous',
      query: { _fields: 'id' },
    });
    assert.is(error.status, 404);
    assert.is(error.body.code, 'rest_post_invalid_id', 'errors are not filtered');
  });

  test('_embed: author, wp:term and wp:featuredmedia embedded where WordPress embeds them', async ({ t }) => {
    type Embedded = {
      author?: Array<{ id?: number; name?: string; code?: string }>;
      'wp:term'?: Array<Array<{ id: number; taxonomy: string }>>;
      'wp:featuredmedia'?: Array<{ id?: number; source_url?: string; code?: string }>;
    };
    type Item = { id: number; _links: Record<string, Array<{ href: string; embeddable?: boolean }>>; _embedded?: Embedded };
    const writer = await t.createUser('wren', 'author');
    const editor = await t.createUser('ed', 'editor');
    const category = await t.request<{ id: number }>('POST', '/categories', { namespace: 'wp/v2', as: editor, body: { name: 'Embedded' } });
    const file = await t.request<{ id: number; source_url: string }>('POST', '/media', {
      namespace: 'wp/v2',
      as: writer,
      body: Buffer.from('hello'),
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=notes.txt' },
    });
    assert.is(file.status, 201);
    const post = await t.request<Item>('POST', '/posts', {
      namespace: 'wp/v2',
      as: writer,
      body: { title: 'With embeds', status: 'publish', categories: [category.body.id], featured_media: file.body.id },
    });
    assert.is(post.status, 201);
    assert.ok(post.body._links.author?.[0]?.embeddable);
    assert.ok(post.body._links['wp:term']?.length);
    const plain = await t.request<Item>('GET', `/posts/${post.body.id}`, { namespace: 'wp/v2', as: 'anonymous' });
    assert.is(plain.body._embedded, undefined, 'nothing embedded unless asked');
    const one = await t.request<Item>('GET', `/posts/${post.body.id}`, { namespace: 'wp/v2', as: 'anonymous', query: { _embed: '1' } });
    assert.is(one.status, 200);
    const embedded = one.body._embedded!;
    assert.is(embedded.author?.[0]?.name, 'wren');
    assert.equal(
      embedded['wp:term']?.map((terms) => terms.map((term) => term.id)),
      [[category.body.id], []],
    );
    assert.is(embedded['wp:featuredmedia']?.[0]?.source_url, file.body.source_url);
    const list = await t.request<Item[]>('GET', '/posts', {
      namespace: 'wp/v2',
      as: 'anonymous',
      query: { _embed: 'author', include: String(post.body.id) },
    });
    assert.is(list.body[0]?._embedded?.author?.[0]?.name, 'wren');
    assert.is(list.body[0]?._embedded?.['wp:term'], undefined, '_embed=author embeds only the author');
  });

  test('CORS stays off the core API: GET /session (which hands out the nonce) is not readable cross-origin', async ({ t }) => {
    const res = await t.request('GET', '/session', { as: 'anonymous', headers: { Origin: 'https://evil.example' } });
    assert.is(res.headers.get('access-control-allow-origin'), null);
  });

  test.run();
}
