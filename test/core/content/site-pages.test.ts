// The site root as WordPress clients find and use it, on every store: the discovery Link
// on `/` (GET and HEAD), the API index at `{prefix}/`, and every `link` the API hands out
// opening as a page — published posts, a plugin's post type, term archives, author
// archives — while drafts and private posts stay 404 to those who may not read them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { eventsPlugin } from '../../support/events-plugin.js';
import { testStores } from '../../support/test-stores.js';

type Creds = { login: string; password: string };
type WpItem = { id: number; link: string };
type Index = {
  name: string;
  url: string;
  home: string;
  namespaces: string[];
  authentication: object;
  routes: Record<string, { namespace: string; methods: string[]; endpoints: Array<{ methods: string[] }> }>;
};

/** A third party's post type `event` and taxonomy `venue`, registered through the SDK only. */
const events = eventsPlugin('test-site-events');

const basic = (c: Creds) => ({ Authorization: `Basic ${Buffer.from(`${c.login}:${c.password}`).toString('base64')}` });

for (const store of testStores('content: site pages')) {
  const test = suite<{ t: TestHost; editor: Creds; author: Creds; other: Creds }>(`content: site pages (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [events], builtins: false, config: store.config() });
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.author = await ctx.t.createUser('ann', 'author');
    ctx.other = await ctx.t.createUser('olga', 'author');
  });
  test.after(async (ctx) => ctx.t.stop());

  const page = async (_t: TestHost, link: string, who?: Creds) => {
    const res = await fetch(link, { headers: who ? basic(who) : {} });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  test('/ carries the discovery Link on GET and HEAD; the index at {prefix}/ lists namespaces and routes', async ({ t }) => {
    const root = await fetch(`${t.url}/`);
    assert.is(root.status, 200);
    await root.text();
    const discovery = `<${t.url}/api/>; rel="https://api.w.org/"`;
    assert.ok((root.headers.get('link') ?? '').includes(discovery), `Link: ${root.headers.get('link')}`);
    const head = await fetch(`${t.url}/`, { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.ok((head.headers.get('link') ?? '').includes(discovery));
    const index = await fetch(`${t.url}/api/`);
    assert.is(index.status, 200);
    const body = (await index.json()) as Index;
    assert.is(body.url, t.url);
    assert.is(body.home, t.url);
    assert.ok(body.namespaces.includes('wp/v2'));
    assert.equal(body.routes['/wp/v2/posts']?.methods, ['GET', 'POST']);
    assert.is(body.routes['/wp/v2/posts']?.namespace, 'wp/v2');
    assert.ok(
      body.routes['/wp/v2/posts/(?P<id>[\\d]+)'],
      Object.keys(body.routes)
        .filter((r) => r.startsWith('/wp/v2/posts'))
        .join(' '),
    );
    assert.ok(body.routes['/wp/v2/users/me']);
    assert.type(body.authentication, 'object');
    const ns = await fetch(`${t.url}/api/wp/v2`);
    assert.is(ns.status, 200);
    assert.is(((await ns.json()) as { namespace: string }).namespace, 'wp/v2');
    for (const path of ['/healthz', '/readyz', '/api/openapi.json']) {
      const res = await fetch(`${t.url}${path}`);
      assert.is(res.status, 200, path);
      await res.arrayBuffer();
    }
  });

  test('every link opens: published posts, a plugin type, terms, authors; drafts and private posts are 404 to strangers', async ({
    t,
    editor,
    author,
    other,
  }) => {
    const wp = <T>(method: string, path: string, body?: object, as: Creds | 'admin' = author) =>
      t.request<T>(method, path, { namespace: 'wp/v2', as, ...(body ? { body } : {}) });
    const category = await wp<WpItem>('POST', '/categories', { name: 'Releases' }, editor);
    assert.is(category.body.link, `${t.url}/?taxonomy=category&term=releases`);
    const published = await wp<WpItem & { author: number }>('POST', '/posts', {
      title: 'Out now<script>alert(1)</script>',
      content: '<p>Body text</p>',
      status: 'publish',
      categories: [category.body.id],
    });
    const draft = await wp<WpItem>('POST', '/posts', { title: 'Secret draft', status: 'draft', categories: [category.body.id] });
    const priv = await wp<WpItem>('POST', '/posts', { title: 'Private note', status: 'private' }, editor);
    const event = await wp<WpItem>('POST', '/events', { title: 'Gig', status: 'publish' }, editor);

    const post = await page(t, published.body.link);
    assert.is(post.status, 200);
    assert.match(post.headers.get('content-type') ?? '', /text\/html/);
    assert.match(post.text, /Out now/);
    assert.not.match(post.text, /<script/i);
    assert.match(post.text, /<p>Body text<\/p>/);
    assert.match(post.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(post.headers.get('content-security-policy') ?? '', /script-src 'none'/);
    assert.ok(
      (post.headers.get('link') ?? '').includes(
        `<${t.url}/api/wp/v2/posts/${published.body.id}>; rel="alternate"; type="application/json"`,
      ),
    );
    assert.is((await page(t, event.body.link)).status, 200);

    assert.is((await page(t, draft.body.link)).status, 404);
    assert.is((await page(t, draft.body.link, other)).status, 404, "another author may not read ann's draft");
    assert.is((await page(t, draft.body.link, author)).status, 200, 'its author may');
    assert.is((await page(t, priv.body.link)).status, 404);
    assert.is((await page(t, priv.body.link, editor)).status, 200);
    assert.is((await page(t, `${t.url}/?p=999999`)).status, 404);

    const archive = await page(t, category.body.link);
    assert.is(archive.status, 200);
    assert.match(archive.text, /Releases/);
    assert.match(archive.text, /Out now/);
    assert.not.match(archive.text, /Secret draft/);
    assert.is((await page(t, `${t.url}/?taxonomy=category&term=nothing-here`)).status, 404);
    assert.is((await page(t, `${t.url}/?taxonomy=nope&term=releases`)).status, 404);

    const me = await wp<{ link: string }>('GET', '/users/me');
    assert.is((await page(t, me.body.link)).status, 200);
    const users = await t.request<{ data: Array<{ user_id: number; login: string }> }>('GET', '/users');
    const olga = users.body.data.find((u) => u.login === 'olga')!;
    // WordPress answers an existing author's archive with 200 even without posts; the
    // login shows only to whom wp/v2 shows the user (authors of published posts are public).
    const empty = await page(t, `${t.url}/?author=${olga.user_id}`);
    assert.is(empty.status, 200, 'an existing author without published posts');
    assert.not.match(empty.text, /olga/, 'a stranger is not told the login wp/v2 hides');
    assert.is(empty.headers.get('cache-control'), 'private, no-store', 'the page differs by who asks');
    const own = await page(t, `${t.url}/?author=${olga.user_id}`, other);
    assert.equal([own.status, own.headers.get('cache-control')], [200, 'private, no-store']);
    assert.match(own.text, /Author: olga/, 'she sees her own name');
    assert.is((await page(t, `${t.url}/?author=999999`)).status, 404, 'no such user');
    assert.is((await page(t, `${t.url}/?author=abc`)).status, 404);
  });

  test.run();
}
