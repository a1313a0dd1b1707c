// Issue "content you can see": what one host publishes, anyone reads through wp/v2, and a
// second Flowhost's cms-api flow fetches it; an uploaded CSV becomes one item per row;
// the logs say what each step did.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestHost } from '../../sdk/testing/index.js';
import { testStores } from '../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>http://feed.test/</link><description>t</description>
<item><title>Lakes are cold</title><link>http://feed.test/1</link><guid>urn:1</guid><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate><description><![CDATA[<p>One</p>]]></description></item>
<item><title>Rivers &amp; seas</title><link>http://feed.test/2</link><guid>urn:2</guid><pubDate>Mon, 02 Nov 2026 11:00:00 GMT</pubDate><description><![CDATA[<p>Two</p>]]></description></item>
</channel></rss>`;

for (const store of testStores('e2e: content you can see')) {
  const test = suite<{ a: TestHost; b: TestHost; server: Server; feedUrl: string }>(`e2e: content you can see (${store.label})`);
  test.before(async (ctx) => {
    ctx.server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(feed);
    });
    await new Promise<void>((r) => ctx.server.listen(0, '127.0.0.1', () => r()));
    ctx.feedUrl = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}/feed.xml`;
    ctx.a = await createTestHost({ plugins: [], config: store.config() });
    ctx.b = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.a.stop();
    await ctx.b.stop();
    ctx.server.close();
  });

  const stepLines = async (t: TestHost, jobId: number) => {
    const logs = await t.request<Body>('GET', '/logs', { query: { search: 'Step', per_page: 100 } });
    assert.is(logs.status, 200, JSON.stringify(logs.body));
    return (logs.body.data.items as Body[])
      .filter((e) => e.context?.job_id === jobId)
      .map((e) => String(e.message))
      .reverse();
  };

  test('published on one host, read by anyone through wp/v2, fetched by a second Flowhost with cms-api', async ({ a, b, feedUrl }) => {
    const job = await a.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: feedUrl, max_items: 10 } },
          { type: 'publish', handler_slug: 'cms', handler_config: { post_status: 'publish' } },
        ],
      },
    });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const lines = await stepLines(a, job.job_id);
    assert.ok(
      lines.some((l) => /^Step 1\/2 fetch \(rss\) finished: 0 in, 2 out/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^Step 2\/2 publish \(cms\) finished: 2 in, 2 out/.test(l)),
      lines.join('\n'),
    );

    // An anonymous reader, as a WordPress client would ask.
    const anonymous = await a.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', as: 'anonymous', query: { per_page: 10 } });
    assert.is(anonymous.status, 200);
    assert.is(anonymous.headers.get('x-wp-total'), '2');
    assert.equal(anonymous.body.map((p) => p.title.rendered).sort(), ['Lakes are cold', 'Rivers &amp; seas']);

    // The second host reads the first one's wp/v2 with cms-api and publishes what it read.
    const remote = await b.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'cms-api', handler_config: { api_url: `${a.url}/api/wp/v2`, max_items: 10 } },
          { type: 'publish', handler_slug: 'cms', handler_config: { post_status: 'publish', include_source: false } },
        ],
      },
    });
    assert.is(remote.status, 'completed', JSON.stringify(remote));
    const copied = (await b.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', as: 'anonymous' })).body;
    assert.equal(copied.map((p) => p.title.rendered).sort(), ['Lakes are cold', 'Rivers &amp; seas']);
    const bLines = await stepLines(b, remote.job_id);
    assert.ok(
      bLines.some((l) => /^Step 1\/2 fetch \(cms-api\) finished: 0 in, 2 out/.test(l)),
      bLines.join('\n'),
    );
  });

  test('an uploaded CSV becomes one item per row, published as posts', async ({ a }) => {
    const form = new FormData();
    form.append('file', new Blob(['title,content\nFirst row,Alpha\nSecond row,Beta\nThird row,Gamma\n'], { type: 'text/csv' }), 'rows.csv');
    const upload = await a.request<Body>('POST', '/files', { body: form });
    assert.is(upload.status, 201, JSON.stringify(upload.body));
    const fileId = upload.body.file.id as string;
    const job = await a.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'files', handler_config: { file_id: fileId } },
          { type: 'publish', handler_slug: 'cms', handler_config: { post_status: 'draft', include_source: false } },
        ],
      },
    });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const detail = (await a.request<Body>('GET', `/jobs/${job.job_id}`)).body.data;
    assert.is(detail.steps[0].items_out, 3);
    assert.equal(
      detail.steps[0].items.map((i: Body) => i.title),
      ['First row', 'Second row', 'Third row'],
    );
    const drafts = (await a.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', query: { status: 'draft' } })).body;
    assert.equal(drafts.map((p) => p.title.rendered).sort(), ['First row', 'Second row', 'Third row']);
  });

  test.run();
}
