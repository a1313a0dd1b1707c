// The global tools on every store: web_search through a fake Brave Search API (offered only
// once a key is saved; the key sealed and masked), web_fetch (loopback refused with the
// how-to-allow message by a guarded fetch that does not allow it, HTML → text, JSON as is,
// images refused), local_search and cms_post_reader (drafts only for their readers), and
// api_query (one batch: 200, 404, 403, 400 with the REST API's own bodies).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, createFakeServer, type FakeServer, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import { createGuardedFetch } from '../../../host/net/guarded-fetch.js';
import { testStores } from '../../support/test-stores.js';
import { createFakeModelApi, pluginSettingsFor, textReply, toolCallReply, type FakeModelApi } from '../../support/fake-model-apis.js';
import { roleCapabilities } from '../../../core/users/roles.js';
import { actingAs, runTool, toolError } from '../../support/chat-tools.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const BRAVE_KEY = 'brave-test-key-0123456789abcdef';

function lastToolOutput(request: RecordedRequest): Body {
  const messages = request.json<Body>().messages as Body[];
  const tool = [...messages].reverse().find((m) => m.role === 'tool');
  assert.ok(tool, `no tool message in ${JSON.stringify(messages)}`);
  return typeof tool!.content === 'string' ? JSON.parse(tool!.content) : tool!.content;
}

const offered = (request: RecordedRequest): string[] => ((request.json<Body>().tools ?? []) as Body[]).map((t) => t.function.name).sort();

for (const store of testStores('chat global tools')) {
  type Ctx = { t: TestHost; openai: FakeModelApi; brave: FakeServer; site: FakeServer };
  const test = suite<Ctx>(`chat global tools (${store.label})`);

  test.before(async (ctx) => {
    ctx.openai = await createFakeModelApi('openai');
    // The Brave Search API: GET /res/v1/web/search?q=&count= with X-Subscription-Token.
    ctx.brave = await createFakeServer((request) => {
      const url = new URL(request.url, 'http://x');
      if (request.headers['x-subscription-token'] !== BRAVE_KEY)
        return {
          status: 401,
          body: {
            type: 'ErrorResponse',
            error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', status: 401 },
          },
        };
      if (request.method !== 'GET' || url.pathname !== '/res/v1/web/search')
        return { status: 404, body: { error: { detail: 'not found' } } };
      const count = Number(url.searchParams.get('count'));
      const results = [1, 2, 3, 4, 5, 6].map((i) => ({
        title: `Result ${i} for ${url.searchParams.get('q')}`,
        url: `https://example.com/${i}`,
        description: `The <strong>${url.searchParams.get('q')}</strong> page ${i}`,
        language: 'en',
      }));
      return {
        body: { type: 'search', query: { original: url.searchParams.get('q') }, web: { type: 'search', results: results.slice(0, count) } },
      };
    });
    ctx.site = await createFakeServer((request) => {
      if (request.url === '/page')
        return {
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: '<html><head><title>Kiwi &amp; Co</title><script>var x = 1;</script></head><body><h1>Kiwis</h1><p>Kiwis are <b>birds</b>. <a href="/more">More</a></p></body></html>',
        };
      if (request.url === '/data.json') return { body: { kiwi: true, count: 3 } };
      if (request.url === '/long') return { headers: { 'content-type': 'text/plain' }, body: 'k'.repeat(500) };
      if (request.url === '/image') return { headers: { 'content-type': 'image/png' }, body: 'PNG' };
      return { status: 404, body: 'nope' };
    });
    ctx.t = await createTestHost({
      plugins: [],
      config: {
        ...store.config(),
        pluginSettings: {
          ...pluginSettingsFor([ctx.openai], { max_retries: 0 }),
          'global-tools': { search_base_url: `${ctx.brave.url}/` },
        },
      },
    });
    assert.is((await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: ctx.openai.validKey } } })).status, 200);
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.openai.server.close();
    await ctx.brave.close();
    await ctx.site.close();
  });

  test('web_search is offered only once configured; it speaks the Brave API and returns plain snippets', async ({ t, openai, brave }) => {
    const status = await t.request<Body>('GET', '/tools/web-search');
    assert.is(status.status, 200, JSON.stringify(status.body));
    assert.equal(status.body.data, { configured: false, base_url: brave.url, api_key: '' });

    openai.script.push(textReply('openai', 'No search.'));
    assert.is((await t.request<Body>('POST', '/chat', { body: { message: 'hello' } })).status, 200);
    const before = offered(openai.chats().at(-1)!);
    assert.not.ok(before.includes('web_search'), `offered: ${before.join(', ')}`);
    for (const name of ['web_fetch', 'local_search', 'cms_post_reader', 'api_query', 'create_pipeline'])
      assert.ok(before.includes(name), `${name} is offered`);
    assert.is(brave.requests.length, 0);

    const saved = await t.request<Body>('PUT', '/tools/web-search', { body: { api_key: BRAVE_KEY } });
    assert.is(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.data, { configured: true, base_url: brave.url, api_key: `••••••••${BRAVE_KEY.slice(-4)}` });
    // Sealed at rest: the stored document does not hold the key.
    const doc = await t.host.store.collection('global-tools__settings').findOne({ _id: 'web_search' });
    assert.ok(doc && typeof doc.api_key === 'string');
    assert.not.ok(JSON.stringify(doc).includes(BRAVE_KEY));
    // The masked value sent back keeps the key.
    assert.is(
      (await t.request<Body>('PUT', '/tools/web-search', { body: { api_key: saved.body.data.api_key } })).body.data.configured,
      true,
    );

    openai.script.push(toolCallReply('openai', 'call_s', 'web_search', { query: 'kiwi birds', count: 2 }), (request) => {
      const out = lastToolOutput(request);
      assert.is(out.success, true, JSON.stringify(out));
      return textReply('openai', 'Found two.');
    });
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'search kiwis' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(offered(openai.chats().at(-2)!).includes('web_search'), 'offered once configured');
    const sent = brave.requests.at(-1)!;
    assert.is(sent.method, 'GET');
    assert.is(sent.url, '/res/v1/web/search?q=kiwi+birds&count=2');
    assert.is(sent.headers['x-subscription-token'], BRAVE_KEY);
    assert.equal(res.body.tool_calls[0].result, {
      query: 'kiwi birds',
      results: [
        { title: 'Result 1 for kiwi birds', url: 'https://example.com/1', snippet: 'The kiwi birds page 1' },
        { title: 'Result 2 for kiwi birds', url: 'https://example.com/2', snippet: 'The kiwi birds page 2' },
      ],
    });

    // count is bounded: 21 is an argument error, the default is 5.
    const five = (await runTool(t, 'web_search', { query: 'x', count: 5 }, actingAs('ed', ['edit_posts']))) as Body;
    assert.is(five.results.length, 5);
    openai.script.push(toolCallReply('openai', 'call_big', 'web_search', { query: 'x', count: 21 }), textReply('openai', 'ok'));
    const big = await t.request<Body>('POST', '/chat', { body: { message: 'many' } });
    assert.match(big.body.tool_calls[0].error, /Invalid arguments for web_search: \/count must be <= 20/);

    // '' removes the key: no longer offered.
    assert.is((await t.request<Body>('PUT', '/tools/web-search', { body: { api_key: '' } })).body.data.configured, false);
    openai.script.push(textReply('openai', 'ok'));
    await t.request<Body>('POST', '/chat', { body: { message: 'again' } });
    assert.not.ok(offered(openai.chats().at(-1)!).includes('web_search'));
    assert.is((await t.request<Body>('PUT', '/tools/web-search', { as: 'anonymous', body: { api_key: 'x' } })).status, 401);
  });

  test('a key saved by the previous version (sealed with the host-wide vault) still works', async ({ t, brave }) => {
    // Before plugins had vaults of their own, this plugin sealed with the host's under its context.
    const legacy = t.host.vault.encrypt(BRAVE_KEY, 'global-tools:web_search.api_key');
    await t.host.store
      .collection('global-tools__settings')
      .updateOne({ _id: 'web_search' }, { $set: { api_key: legacy } }, { upsert: true });
    assert.is((await t.request<Body>('GET', '/tools/web-search')).body.data.configured, true);
    await runTool(t, 'web_search', { query: 'old key', count: 1 }, actingAs('ed', ['edit_posts']));
    assert.is(brave.requests.at(-1)!.headers['x-subscription-token'], BRAVE_KEY);
    // Saved again, it is sealed under this plugin's own id: the host-wide vault no longer opens it.
    assert.is((await t.request<Body>('PUT', '/tools/web-search', { body: { api_key: BRAVE_KEY } })).status, 200);
    const resealed = (await t.host.store.collection('global-tools__settings').findOne({ _id: 'web_search' }))!.api_key as string;
    assert.throws(() => t.host.vault.decrypt(resealed, 'global-tools:web_search.api_key'));
    const before = brave.requests.length;
    await runTool(t, 'web_search', { query: 'new key', count: 1 }, actingAs('ed', ['edit_posts']));
    assert.is(brave.requests.length, before + 1);
    assert.is(brave.requests.at(-1)!.headers['x-subscription-token'], BRAVE_KEY);
    assert.is((await t.request<Body>('PUT', '/tools/web-search', { body: { api_key: '' } })).status, 200);
  });

  test('web_fetch: a private address is refused (saying how to allow it); allowed, HTML becomes text', async ({ t, openai, site }) => {
    const refused = await toolError(
      runTool(t, 'web_fetch', { url: `${site.url}/page` }, actingAs('ed', ['edit_posts']), createGuardedFetch({ allowPrivate: false })),
    );
    assert.match(refused, /^Refused to fetch 127\.0\.0\.1:\d+: 127\.0\.0\.1 is .*loopback/);
    assert.match(refused, /FLOWHOST_ALLOW_PRIVATE_URLS=1/);
    assert.is(site.requests.length, 0, 'nothing was sent');

    // The test host allows loopback (allowPrivateUrls): through POST /chat.
    openai.script.push(toolCallReply('openai', 'call_f', 'web_fetch', { url: `${site.url}/page` }), textReply('openai', 'Read it.'));
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'read the page' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const page = res.body.tool_calls[0].result;
    assert.equal(
      { ...page, text: undefined },
      {
        url: `${site.url}/page`,
        final_url: `${site.url}/page`,
        status: 200,
        content_type: 'text/html',
        title: 'Kiwi & Co',
        text: undefined,
        truncated: false,
      },
    );
    assert.match(page.text, /KIWIS/i);
    assert.match(page.text, /Kiwis are birds\. More/);
    assert.not.match(page.text, /<|var x/);

    const json = (await runTool(t, 'web_fetch', { url: `${site.url}/data.json` }, null)) as Body;
    assert.is(json.content_type, 'application/json');
    assert.equal(JSON.parse(json.text), { kiwi: true, count: 3 });
    const long = (await runTool(t, 'web_fetch', { url: `${site.url}/long`, max_chars: 100 }, null)) as Body;
    assert.equal([long.text.length, long.truncated], [100, true]);
    assert.match(
      await toolError(runTool(t, 'web_fetch', { url: `${site.url}/image` }, null)),
      /is image\/png: web_fetch reads HTML, JSON and text only/,
    );
    assert.match(await toolError(runTool(t, 'web_fetch', { url: 'file:///etc/passwd' }, null)), /only http and https/);
  });

  test('local_search and cms_post_reader: drafts only for those who may read them (editors here)', async ({ t }) => {
    const category = await t.host.content.ensureTerm('category', 'Birds');
    const published = await t.host.content.createPost({
      title: 'Kiwi field notes',
      status: 'publish',
      content: '# Sightings\n\nWe saw a **kiwi** at dusk.',
      excerpt: '',
      terms: { category: [category.term_id] },
    });
    const draft = await t.host.content.createPost({ title: 'Kiwi draft', status: 'draft', content: 'Unfinished kiwi notes.' });
    await t.host.content.createPost({ title: 'Unrelated', status: 'publish', content: 'Nothing here.' });
    // Drafts without an author are someone else's: an editor's to read (post-tools-permissions.test.ts has authors).
    const editor = actingAs('ed', [...roleCapabilities.editor]);
    const reader = actingAs('sub', ['read']);

    const forEditor = (await runTool(t, 'local_search', { query: 'kiwi' }, editor)) as Body;
    assert.equal(
      forEditor.results.map((r: Body) => [r.id, r.status]).sort(),
      [
        [published.post_id, 'publish'],
        [draft.post_id, 'draft'],
      ].sort(),
    );
    assert.is(forEditor.total, 2);
    const forReader = (await runTool(t, 'local_search', { query: 'KIWI' }, reader)) as Body;
    assert.equal(
      forReader.results.map((r: Body) => r.id),
      [published.post_id],
    );
    const hit = forReader.results[0];
    assert.equal(
      { ...hit, date: typeof hit.date },
      {
        id: published.post_id,
        type: 'post',
        title: 'Kiwi field notes',
        link: `${t.url}/?p=${published.post_id}`,
        excerpt: 'SIGHTINGS We saw a kiwi at dusk.',
        date: 'string',
        status: 'publish',
      },
    );
    assert.equal(((await runTool(t, 'local_search', { query: 'kiwi', limit: 1 }, editor)) as Body).results.length, 1);
    assert.match(await toolError(runTool(t, 'local_search', { query: 'kiwi', post_type: 'nope' }, editor)), /Unknown post type 'nope'/);

    const read = (await runTool(t, 'cms_post_reader', { post_id: published.post_id }, reader)) as Body;
    assert.is(read.title, 'Kiwi field notes');
    assert.match(read.content, /^SIGHTINGS\n\nWe saw a kiwi at dusk\.$/);
    assert.equal(read.taxonomies, { category: [{ id: category.term_id, name: 'Birds', slug: 'birds' }] });
    assert.equal([read.status, read.truncated, read.link], ['publish', false, `${t.url}/?p=${published.post_id}`]);
    // By link and by slug.
    assert.is(((await runTool(t, 'cms_post_reader', { url: `${t.url}/?p=${published.post_id}` }, reader)) as Body).id, published.post_id);
    assert.is(
      ((await runTool(t, 'cms_post_reader', { url: `${t.url}/2026/11/${published.slug}/` }, reader)) as Body).id,
      published.post_id,
    );

    // The draft: an editor reads it; a reader is told nothing more than for a missing post.
    assert.is(((await runTool(t, 'cms_post_reader', { post_id: draft.post_id }, editor)) as Body).content, 'Unfinished kiwi notes.');
    assert.match(
      await toolError(runTool(t, 'cms_post_reader', { post_id: draft.post_id }, reader)),
      new RegExp(
        `no post ${draft.post_id} on this site that user sub may read \\(a post that is not published is for its author and editors\\)`,
      ),
    );
    assert.match(
      await toolError(runTool(t, 'cms_post_reader', { url: draft.slug }, reader)),
      new RegExp(`no post with the slug '${draft.slug}' on this site that user sub may read`),
    );
    assert.match(await toolError(runTool(t, 'cms_post_reader', { post_id: 999999 }, editor)), /There is no post 999999 on this site$/);
    assert.match(await toolError(runTool(t, 'cms_post_reader', {}, editor)), /needs post_id or url/);
  });

  test('api_query: one batch, each request answered as the REST API answers that user', async ({ t, openai }) => {
    const editorLogin = await t.createUser('api-editor', 'editor');
    // The editor role's own capabilities: the tool acts as the same user the HTTP comparison logs in as.
    const editor = actingAs('api-editor', [...roleCapabilities.editor], editorLogin.userId);
    await t.host.content.createPost({ title: 'Hidden draft', status: 'draft', content: 'x' });
    const out = (await runTool(
      t,
      'api_query',
      {
        requests: [
          { path: '/wp/v2/posts', query: { status: 'draft' } },
          { path: '/no/such/route' },
          { path: '/flows?per_page=5' },
          { path: '/wp/v2/posts?per_page=500' },
        ],
      },
      editor,
    )) as Body[];
    assert.equal(
      out.map((r) => [r.path, r.status]),
      [
        ['/wp/v2/posts', 200],
        ['/no/such/route', 404],
        ['/flows?per_page=5', 403],
        ['/wp/v2/posts?per_page=500', 400],
      ],
    );
    assert.ok(
      out[0]!.body.some((p: Body) => p.title.rendered === 'Hidden draft'),
      'the editor sees drafts',
    );
    // The same bodies the REST API gives this user over HTTP.
    const as = { login: editorLogin.login, password: editorLogin.password };
    assert.equal(out[1]!.body, (await t.request<Body>('GET', `${t.host.config.apiPrefix}/no/such/route`, { as, absolute: true })).body);
    const flows = await t.request<Body>('GET', '/flows', { as, query: { per_page: 5 } });
    assert.is(flows.status, 403);
    assert.equal(out[2]!.body, flows.body);
    const tooMany = await t.request<Body>('GET', '/posts', { as, namespace: 'wp/v2', query: { per_page: 500 } });
    assert.is(tooMany.status, 400);
    assert.equal(out[3]!.body, tooMany.body);
    assert.is(out[3]!.body.code, 'rest_invalid_param');
    // Anonymous: drafts are refused as over HTTP.
    const anon = (await runTool(t, 'api_query', { requests: [{ path: '/wp/v2/posts?status=draft' }] }, null)) as Body[];
    assert.equal(
      [anon[0]!.status, anon[0]!.body],
      [
        (await t.request<Body>('GET', '/posts', { as: 'anonymous', namespace: 'wp/v2', query: { status: 'draft' } })).status,
        (await t.request<Body>('GET', '/posts', { as: 'anonymous', namespace: 'wp/v2', query: { status: 'draft' } })).body,
      ],
    );

    // Through POST /chat as the administrator: the flows list and the sessions list answer 200.
    openai.script.push(
      toolCallReply('openai', 'call_q', 'api_query', {
        requests: [{ path: '/flows', query: { per_page: 5 } }, { path: '/chat/sessions' }],
      }),
      textReply('openai', 'Done.'),
    );
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'list my flows' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const result = res.body.tool_calls[0].result as Body[];
    assert.equal(
      result.map((r) => r.status),
      [200, 200],
    );
    assert.equal(result[0]!.body, (await t.request<Body>('GET', '/flows', { query: { per_page: 5 } })).body);
    assert.ok(Array.isArray(result[1]!.body.data.sessions));
  });

  test.run();
}
