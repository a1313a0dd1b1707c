// Issue 8's "done means", as a new user would do it: a pipeline rss fetch → cms publish, a
// flow on a feed served by a test server, run by POST /execute and on every_5_minutes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestHost } from '../../sdk/testing/index.js';
import { testStores } from '../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

type Item = { guid: string; title: string; body: string; date: string };
const rss = (items: Item[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Test feed</title><link>http://feed.test/</link><description>t</description>${items
    .map(
      (i) =>
        `<item><title>${i.title}</title><link>http://feed.test/${encodeURIComponent(i.guid)}</link><guid>${i.guid}</guid><pubDate>${i.date}</pubDate><description><![CDATA[${i.body}]]></description></item>`,
    )
    .join('')}</channel></rss>`;

for (const store of testStores('e2e: rss to cms')) {
  type Ctx = { t: TestHost; server: Server; feedUrl: string; flowId: number; requests: number; items: Item[] };
  const test = suite<Ctx>(`e2e: rss feed to site posts (${store.label})`);

  test.before(async (ctx) => {
    ctx.requests = 0;
    ctx.items = [{ guid: 'urn:item:1', title: 'First story', body: '<p>One</p>', date: 'Mon, 02 Nov 2026 10:00:00 GMT' }];
    ctx.server = createServer((_req, res) => {
      ctx.requests++;
      // Separate calls: restify (loaded in this process) patches ServerResponse.writeHead to return nothing.
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(rss(ctx.items));
    });
    await new Promise<void>((r) => ctx.server.listen(0, '127.0.0.1', () => r()));
    ctx.feedUrl = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}/feed.xml`;
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    ctx.server.close();
  });

  const waitJob = async (t: TestHost, jobId: number) => {
    for (let i = 0; i < 300; i++) {
      const job = (await t.request<{ data: Body }>('GET', `/jobs/${jobId}`)).body.data;
      if (!['pending', 'processing'].includes(job.status)) return job;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('job did not finish');
  };
  const posts = async (t: TestHost) => (await t.host.content.findPosts({ post_type: 'post', orderby: 'post_id', order: 'asc' })).items;

  test('set up through the API, run by POST /execute: one post per item, never twice', async (ctx) => {
    const { t } = ctx;
    const handlers = (await t.request<{ data: Record<string, Body> }>('GET', '/handlers')).body.data;
    assert.is(handlers.rss?.type, 'fetch');
    assert.is(handlers.cms?.type, 'publish');
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Feed to site' } })).body.data.pipeline_id;
    const fetchStep = (
      await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, {
        body: { step_type: 'fetch', execution_order: 0, label: 'Fetch Step' },
      })
    ).body.data.pipeline_step_id;
    const publishStep = (
      await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, {
        body: { step_type: 'publish', execution_order: 1, label: 'Publish Step' },
      })
    ).body.data.pipeline_step_id;
    ctx.flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Feed flow' } })).body.data.flow_id;
    const set = await t.request<Body>('PUT', `/flows/steps/${fetchStep}_${ctx.flowId}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: ctx.feedUrl } },
    });
    assert.is(set.status, 200, JSON.stringify(set.body));
    assert.is(set.body.data.step_config.handler_config.max_items, 1);
    const pub = await t.request<Body>('PUT', `/flows/steps/${publishStep}_${ctx.flowId}/handler`, {
      body: { handler_slug: 'cms', settings: { post_status: 'publish' } },
    });
    assert.is(pub.status, 200, JSON.stringify(pub.body));

    const first = await waitJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: ctx.flowId } })).body.data.job_id);
    assert.is(first.status, 'completed', JSON.stringify(first));
    let stored = await posts(t);
    assert.is(stored.length, 1);
    assert.is(stored[0]!.title, 'First story');
    assert.is(stored[0]!.status, 'publish');
    assert.match(stored[0]!.content, /One/);

    const again = await waitJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: ctx.flowId } })).body.data.job_id);
    assert.is(again.status, 'completed_no_items');
    stored = await posts(t);
    assert.is(stored.length, 1, 'the same item is never posted twice');
    assert.ok(ctx.requests >= 2, 'the feed was fetched each run');
  });

  test('on every_5_minutes: due runs post new items once; logs are searchable', async (ctx) => {
    const { t } = ctx;
    const scheduled = await t.request<Body>('PATCH', `/flows/${ctx.flowId}`, {
      body: { scheduling_config: { interval: 'every_5_minutes' } },
    });
    assert.ok(scheduled.body.data.next_run, 'scheduled');
    ctx.items.unshift({ guid: 'urn:item:2', title: 'Second story', body: '<p>Two</p>', date: 'Tue, 03 Nov 2026 10:00:00 GMT' });
    // Five minutes pass: the schedule is due now (Agenda keeps real time; moving the due time is the fake clock here).
    const agendaJobs = t.host.store.collection('agenda_jobs');
    const due = async () => agendaJobs.updateOne({ 'data.flowId': ctx.flowId }, { $set: { nextRunAt: new Date(Date.now() - 1000) } });
    const jobCount = async () => (await t.request<Body>('GET', '/jobs', { query: { flow_id: ctx.flowId } })).body.total as number;
    const before = await jobCount();
    await due();
    for (let i = 0; i < 200 && (await jobCount()) === before; i++) await new Promise((r) => setTimeout(r, 25));
    const latest = (await t.request<Body>('GET', '/jobs', { query: { flow_id: ctx.flowId, per_page: 1 } })).body.data[0];
    assert.is((await waitJob(t, latest.job_id)).status, 'completed');
    assert.equal(
      (await posts(t)).map((p) => p.title),
      ['First story', 'Second story'],
    );
    const next = await agendaJobs.findOne({ 'data.flowId': ctx.flowId });
    assert.ok((next!.nextRunAt as Date).getTime() > Date.now() + 4 * 60_000, 'the next run is five minutes out');

    const logs = await t.request<Body>('GET', '/logs', { query: { search: `Job ${latest.job_id} completed`, per_page: 10, page: 1 } });
    assert.is(logs.body.total, 1);
    assert.is(logs.body.items[0].context.flow_id, ctx.flowId);
  });

  test.run();
}
