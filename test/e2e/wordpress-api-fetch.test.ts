// Acceptance (issue 31): the WordPress client people use, @wordpress/api-fetch, used as
// is with an application password, on every store. From the site's address alone it
// finds the API (the Link header on `/`), asks who is logged in, creates and pages posts
// by its own headers (parse: false, and its fetch-all middleware following Link), reads
// a few fields with the author embedded (_fields, _embed), and
// every `link` it is handed opens — except a draft, to a stranger.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as apiFetchModule from '@wordpress/api-fetch';
import type { APIFetchMiddleware, ApiFetch } from '@wordpress/api-fetch';
import { createTestHost, type TestHost } from '../../sdk/testing/index.js';
import { testStores } from '../support/test-stores.js';

type WpPost = { id: number; link: string; status: string; author: number; categories: number[] };
type WpTerm = { id: number; link: string };
type WpUser = { id: number; name: string; link: string };

// The package's .d.ts files are read as CommonJS (it declares no "type": "module") while
// Node loads its ES build: the client is the default export either way.
const apiFetch = (apiFetchModule as unknown as { default: ApiFetch }).default;

// api-fetch keeps its middlewares in the module: registered once, reading the suite's
// current site and credentials, so each store's host gets the same client.
const current: { root: string; authorization: string | null } = { root: '', authorization: null };
const rootUrl: APIFetchMiddleware = (options, next) => apiFetch.createRootURLMiddleware(current.root)(options, next);
const authorization: APIFetchMiddleware = (options, next) =>
  next(current.authorization ? { ...options, headers: { ...(options.headers ?? {}), Authorization: current.authorization } } : options);
apiFetch.use(rootUrl);
apiFetch.use(authorization);

/** The discovery header on the site root, as WordPress's rest_output_link_header sends it. */
async function discover(site: string): Promise<string> {
  const res = await fetch(`${site}/`, { method: 'HEAD' });
  const match = /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(res.headers.get('link') ?? '');
  if (!match) throw new Error(`no API discovery Link on ${site}/: ${res.status} ${res.headers.get('link')}`);
  return match[1]!;
}

for (const store of testStores('e2e: @wordpress/api-fetch')) {
  const test = suite<{ t: TestHost }>(`e2e: @wordpress/api-fetch (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], builtins: false, config: store.config() });
    const author = await ctx.t.createUser('writer', 'author');
    current.root = await discover(ctx.t.url);
    current.authorization = `Basic ${Buffer.from(`${author.login}:${author.password}`).toString('base64')}`;
  });
  test.after(async (ctx) => ctx.t.stop());

  test('discovery, the index and users/me', async ({ t }) => {
    assert.is(current.root, `${t.url}/api/`);
    const index = await apiFetch<{ namespaces: string[]; routes: Record<string, unknown> }>({ path: '/' });
    assert.ok(index.namespaces.includes('wp/v2'));
    assert.ok('/wp/v2/users/me' in index.routes);
    const me = await apiFetch<WpUser>({ path: '/wp/v2/users/me' });
    assert.is(me.name, 'writer');
    const edit = await apiFetch<WpUser & { roles: string[] }>({ path: '/wp/v2/users/me?context=edit' });
    assert.equal(edit.roles, ['author']);
  });

  test('posts: create, page by the response headers, fetch all by Link; every link opens', async ({ t }) => {
    const editor = await t.createUser('chief', 'editor');
    const category = await t.request<WpTerm>('POST', '/categories', { namespace: 'wp/v2', as: editor, body: { name: 'News' } });
    const created: WpPost[] = [];
    for (let i = 1; i <= 3; i++) {
      created.push(
        await apiFetch<WpPost>({
          path: '/wp/v2/posts',
          method: 'POST',
          data: { title: `Story ${i}`, content: `Text ${i}`, status: 'publish', categories: [category.body.id] },
        }),
      );
    }
    const draft = await apiFetch<WpPost>({ path: '/wp/v2/posts', method: 'POST', data: { title: 'Unfinished', status: 'draft' } });
    assert.is(draft.status, 'draft');

    // Paging as a client does it: the totals and the Link header of a raw response.
    const first = await apiFetch<Response, false>({ path: '/wp/v2/posts?per_page=2', parse: false });
    assert.is(first.headers.get('X-WP-Total'), '3');
    assert.is(first.headers.get('X-WP-TotalPages'), '2');
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('Link') ?? '')?.[1];
    assert.ok(next, `Link: ${first.headers.get('Link')}`);
    const second = await apiFetch<WpPost[]>({ url: next });
    const firstPage = (await first.json()) as WpPost[];
    assert.equal([...firstPage, ...second].map((p) => p.id).sort(), created.map((p) => p.id).sort());
    // per_page=-1: api-fetch's fetchAllMiddleware follows rel="next" until there is none.
    const all = await apiFetch<WpPost[]>({ path: '/wp/v2/posts?per_page=-1&status=publish,draft' });
    assert.is(all.length, 4);

    // What a headless front end asks for: a few fields and the author's name, embedded.
    const slim = await apiFetch<Array<{ id: number; title?: unknown; _embedded: { author: Array<{ name: string }> } }>>({
      path: `/wp/v2/posts?include=${created[0]!.id}&_fields=id,_embedded&_embed=author`,
    });
    assert.equal(Object.keys(slim[0]!).sort(), ['_embedded', 'id']);
    assert.is(slim[0]!._embedded.author[0]!.name, 'writer');

    // Every address the API handed out opens for a stranger, except the draft's.
    const me = await apiFetch<WpUser>({ path: '/wp/v2/users/me' });
    const links = [...created.map((p) => p.link), category.body.link, me.link];
    for (const link of links) {
      const res = await fetch(link);
      assert.is(res.status, 200, link);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      await res.arrayBuffer();
    }
    const hidden = await fetch(draft.link);
    assert.is(hidden.status, 404, draft.link);
    await hidden.arrayBuffer();
  });

  test.run();
}
