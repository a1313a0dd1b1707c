// The rss handler against a feed server on 127.0.0.1, through the real guarded fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { FetchHandler, HandlerContext, HandlerDefinition } from '../../../sdk/index.js';
import { UrlRefusedError } from '../../../sdk/index.js';
import { createGuardedFetch } from '../../../host/net/guarded-fetch.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { systemClock } from '../../../core/kernel/clock.js';
import rssPlugin from '../../../plugins/rss/index.js';
import { ATOM, RSS2 } from './fixtures.js';

function context(allowPrivate: boolean): HandlerContext {
  return {
    user: null,
    credentials: null,
    log: silentLogger,
    clock: systemClock,
    flowId: 1,
    pipelineId: 1,
    jobId: 1,
    flowStepId: '1_1',
    fetch: createGuardedFetch({ allowPrivate }),
    content: {} as HandlerContext['content'],
    engineData: {},
  };
}

const routes: Record<string, { status: number; type: string; body: string }> = {
  '/rss.xml': { status: 200, type: 'application/rss+xml', body: RSS2 },
  '/atom.xml': { status: 200, type: 'application/atom+xml', body: ATOM },
  '/broken.xml': { status: 200, type: 'application/xml', body: '<rss><channel><item>' },
  '/page.html': { status: 200, type: 'text/html', body: '<html><body>not a feed</body></html>' },
};

const test = suite<{ server: Server; base: string; handler: FetchHandler; accepts: string[] }>('rss: handler over HTTP');

test.before(async (ctx) => {
  ctx.accepts = [];
  ctx.server = createServer((req, res) => {
    ctx.accepts.push(String(req.headers.accept ?? ''));
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      return;
    }
    res.writeHead(route.status, { 'content-type': route.type }).end(route.body);
  });
  await new Promise<void>((resolve) => ctx.server.listen(0, '127.0.0.1', resolve));
  ctx.base = `http://127.0.0.1:${(ctx.server.address() as { port: number }).port}`;
  // The handler as the plugin registers it.
  const added: HandlerDefinition[] = [];
  await rssPlugin.setup({ handlers: { add: (h: HandlerDefinition) => void added.push(h) } } as never);
  ctx.handler = added.find((h) => h.slug === 'rss') as FetchHandler;
});
test.after(async (ctx) => new Promise<void>((resolve) => ctx.server.close(() => resolve())));

test('registers a fetch handler whose settings need a feed_url and cap max_items at 50', ({ handler }) => {
  assert.is(handler.type, 'fetch');
  assert.is(handler.auth, undefined);
  const settings = handler.settings as { required: string[]; properties: { max_items: Record<string, unknown> } };
  assert.equal(settings.required, ['feed_url']);
  assert.equal(settings.properties.max_items, { ...settings.properties.max_items, minimum: 1, maximum: 50, default: 1 });
});

test('an RSS feed becomes rss_item packets, newest first, identified by guid or link', async ({ handler, base, accepts }) => {
  const feedUrl = `${base}/rss.xml`;
  const packets = await handler.fetch(context(true), { feed_url: feedUrl, max_items: 1 });
  assert.is(packets.length, 3, 'all items: the engine applies max_items');
  assert.ok(packets.every((p) => p.type === 'rss_item'));
  assert.equal(packets[0]!.metadata, {
    item_id: 'https://blog.example.org/newest',
    source_url: 'https://blog.example.org/newest',
    feed_url: feedUrl,
  });
  assert.is(packets[0]!.data.content, '<p>Full <b>content</b> here</p>');
  assert.is(packets[1]!.metadata.item_id, 'tag:blog.example.org,2026:older');
  assert.is(packets[2]!.metadata.item_id, 'https://blog.example.org/undated', 'the link when there is no guid');
  assert.match(accepts.at(-1)!, 'application/rss+xml', 'asks for a feed');
});

test('an Atom feed works the same way, relative links resolved against the feed URL', async ({ handler, base }) => {
  const packets = await handler.fetch(context(true), { feed_url: `${base}/atom.xml` });
  assert.equal(
    packets.map((p) => p.metadata.item_id),
    ['urn:uuid:entry-2', 'urn:uuid:entry-1'],
  );
  assert.is(packets[1]!.data.link, `${base}/posts/first`);
});

test('a non-2xx answer fails with the status in the message', async ({ handler, base }) => {
  try {
    await handler.fetch(context(true), { feed_url: `${base}/missing.xml` });
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /answered HTTP 404/);
  }
});

test('malformed XML and HTML pages fail with a clear message', async ({ handler, base }) => {
  for (const path of ['/broken.xml', '/page.html']) {
    try {
      await handler.fetch(context(true), { feed_url: `${base}${path}` });
      assert.unreachable(path);
    } catch (error) {
      assert.match((error as Error).message, /could not be read as RSS or Atom/);
    }
  }
});

test('a loopback feed is refused when private addresses are not allowed, saying how to allow them', async ({ handler, base }) => {
  try {
    await handler.fetch(context(false), { feed_url: `${base}/rss.xml` });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, UrlRefusedError);
    assert.match((error as Error).message, /loopback address; .*FLOWHOST_ALLOW_PRIVATE_URLS=1/);
  }
});

test.run();
