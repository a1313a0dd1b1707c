// cms-api against a fake WordPress REST API on 127.0.0.1 that checks what it receives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import cmsPlugin from '../../../plugins/cms/index.js';
import { decodeEntities } from '../../../plugins/cms/remote-api.js';
import { createFakeServer, runHandler, type FakeServer, type RecordedRequest } from '../../../sdk/testing/index.js';
import type { HandlerDefinition, Registrar } from '../../../sdk/index.js';

function handler(): HandlerDefinition<object> {
  let found: HandlerDefinition<object> | undefined;
  const handlers: Registrar<HandlerDefinition<object>> = { add: (h) => void (h.slug === 'cms-api' && (found = h)) };
  void cmsPlugin.setup({ handlers } as never);
  return found!;
}

const remotePost = (id: number) => ({
  id,
  date_gmt: '2026-11-01T10:00:00',
  slug: `post-${id}`,
  status: 'publish',
  type: 'post',
  link: `https://remote.example/post-${id}/`,
  title: { rendered: `Post ${id} &#8211; Tom&#8217;s &amp; more` },
  content: { rendered: `<p>Body ${id}</p>`, protected: false },
  excerpt: { rendered: `<p>Ex ${id}</p>`, protected: false },
  categories: [3],
  tags: [],
});

/** Five posts, newest first, paged as WordPress pages them (400 past the last page). */
function wordpress(
  expectAuth: string | null,
): (req: RecordedRequest) => { status?: number; headers?: Record<string, string>; body: unknown } {
  const all = [5, 4, 3, 2, 1].map(remotePost);
  return (req) => {
    const url = new URL(req.url, 'http://x');
    assert.is(url.pathname, '/wp-json/wp/v2/posts');
    if (expectAuth !== null) assert.is(req.headers.authorization, expectAuth);
    else assert.is(req.headers.authorization, undefined);
    const page = Number(url.searchParams.get('page'));
    const perPage = Number(url.searchParams.get('per_page'));
    const pages = Math.ceil(all.length / perPage);
    if (page > pages)
      return {
        status: 400,
        body: {
          code: 'rest_post_invalid_page_number',
          message: 'The page number requested is larger than the number of pages available.',
          data: { status: 400 },
        },
      };
    return {
      headers: { 'x-wp-total': String(all.length), 'x-wp-totalpages': String(pages) },
      body: all.slice((page - 1) * perPage, page * perPage),
    };
  };
}

/** Awaits a promise that must fail with a message matching `pattern`. */
async function rejects(run: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await run();
  } catch (error) {
    assert.match((error as Error).message, pattern);
    return;
  }
  assert.unreachable(`expected a failure matching ${pattern}`);
}

const test = suite<{ fake: FakeServer | null }>('cms-api handler');
test.before.each((ctx) => void (ctx.fake = null));
test.after.each(async (ctx) => ctx.fake?.close());

test('reads pages until the last, newest first, identity = the remote id, titles as text', async (ctx) => {
  ctx.fake = await createFakeServer(wordpress(null));
  const packets = await runHandler(handler(), { api_url: `${ctx.fake.url}/wp-json/wp/v2/`, per_page: 2, pages: 10 });
  assert.equal(
    packets.map((p) => p.metadata.item_id),
    ['5', '4', '3', '2', '1'],
  );
  assert.is(ctx.fake.requests.length, 3, 'the third page is short: no fourth request');
  assert.is(packets[0]!.data.title, 'Post 5 – Tom’s & more');
  assert.is(packets[0]!.data.content, '<p>Body 5</p>');
  assert.is(packets[0]!.metadata.source_url, 'https://remote.example/post-5/');
  const first = new URL(ctx.fake.requests[0]!.url, 'http://x');
  assert.is(first.searchParams.get('status'), 'publish');
  assert.is(first.searchParams.get('orderby'), 'date');
  assert.is(first.searchParams.get('context'), null, 'anonymous reads use the view context');
});

test('stops at `pages`, and on the 400 WordPress gives past the last page', async (ctx) => {
  ctx.fake = await createFakeServer(wordpress(null));
  const one = await runHandler(handler(), { api_url: `${ctx.fake.url}/wp-json/wp/v2`, per_page: 2, pages: 1 });
  assert.is(one.length, 2);
  assert.is(ctx.fake.requests.length, 1);
  const exact = await runHandler(handler(), { api_url: `${ctx.fake.url}/wp-json/wp/v2`, per_page: 5, pages: 3 });
  assert.is(exact.length, 5);
});

test('an application password is sent as Basic auth with the edit context; drafts need one', async (ctx) => {
  ctx.fake = await createFakeServer(wordpress(`Basic ${Buffer.from('editor:abcd efgh ijkl').toString('base64')}`));
  const packets = await runHandler(handler(), {
    api_url: `${ctx.fake.url}/wp-json/wp/v2`,
    username: 'editor',
    app_password: 'abcd efgh ijkl',
    status: 'draft',
  });
  assert.is(packets.length, 5);
  const url = new URL(ctx.fake.requests[0]!.url, 'http://x');
  assert.is(url.searchParams.get('context'), 'edit');
  assert.is(url.searchParams.get('status'), 'draft');
  await rejects(() => runHandler(handler(), { api_url: `${ctx.fake!.url}/wp-json/wp/v2`, status: 'draft' }), /needs a login/);
});

test('a refused login, a wrong URL and a non-list answer fail with a clear message', async (ctx) => {
  ctx.fake = await createFakeServer((req) =>
    req.url.startsWith('/denied')
      ? {
          status: 401,
          body: { code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } },
        }
      : req.url.startsWith('/html')
        ? { headers: { 'content-type': 'text/html' }, body: '<html>hi</html>' }
        : { body: { not: 'a list' } },
  );
  await rejects(
    () => runHandler(handler(), { api_url: `${ctx.fake!.url}/denied`, username: 'u', app_password: 'p' }),
    /HTTP 401.*invalid application password/,
  );
  await rejects(() => runHandler(handler(), { api_url: `${ctx.fake!.url}/html` }), /not JSON; is .* its wp\/v2 root/);
  await rejects(() => runHandler(handler(), { api_url: `${ctx.fake!.url}/obj` }), /not a list of posts/);
});

test('settings: api_url is required and must be http(s); loopback is refused unless the host allows it', async (ctx) => {
  await rejects(() => runHandler(handler(), {}), /api_url/);
  await rejects(() => runHandler(handler(), { api_url: 'ftp://example.com/wp-json/wp/v2' }), /api_url/);
  ctx.fake = await createFakeServer(wordpress(null));
  await rejects(
    () => runHandler(handler(), { api_url: `${ctx.fake!.url}/wp-json/wp/v2` }, { allowPrivateUrls: false }),
    /private|loopback/i,
  );
  assert.is(ctx.fake.requests.length, 0);
});

test('entities: numeric, hex and named decode; unknown ones stay', () => {
  assert.is(decodeEntities('A &#8217; &#x2014; &hellip; &bogus; &#0;'), 'A ’ — … &bogus; &#0;');
});

test.run();
