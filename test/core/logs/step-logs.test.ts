// Logs a user can follow: each step's start and outcome, item-level detail at debug (off
// by default), who triggered each run and who changed what; and GET /jobs/{id}'s steps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, defineHandler, services, type PluginDefinition } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { validateJobDetail as validateDetail } from '../../support/job-detail-validator.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const ITEMS = [
  { guid: 'urn:step:1', title: 'Alpha story' },
  { guid: 'urn:step:2', title: 'Beta story' },
  { guid: 'urn:step:3', title: 'Gamma story' },
];
const rss = () =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://feed.test/</link><description>t</description>${ITEMS.map(
    (i) =>
      `<item><title>${i.title}</title><link>http://feed.test/${encodeURIComponent(i.guid)}</link><guid>${i.guid}</guid><description><![CDATA[<p>Body of ${i.title}</p>]]></description></item>`,
  ).join('')}</channel></rss>`;

/** A publish handler that reports remote ids and URLs (the first item shortened), and one that fails. */
function stepLogProbe(): PluginDefinition {
  const published = new Map<number, number>();
  return definePlugin({
    id: 'steplog-probe',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup({ handlers }) {
      handlers.add(
        defineHandler({
          slug: 'probe-pub',
          type: 'publish',
          label: 'Probe publish',
          description: 'Pretends to publish.',
          // Numbered by the item's place in the run: the engine hands a publish one item at a time.
          publish: async (ctx, _settings, packets) =>
            packets.map((p) => {
              const n = published.get(ctx.jobId) ?? 0;
              published.set(ctx.jobId, n + 1);
              return {
                ...p,
                data: { ...p.data, ...(n === 0 ? { published_text: 'Alpha st…' } : {}) },
                metadata: {
                  ...p.metadata,
                  published_id: `p-${n + 1}`,
                  published_url: `https://remote.test/p-${n + 1}`,
                  shortened: n === 0,
                },
              };
            }),
        }),
      );
      handlers.add(
        defineHandler({
          slug: 'probe-boom',
          type: 'publish',
          label: 'Probe boom',
          description: 'Always fails.',
          publish: async () => {
            throw new Error('remote said no');
          },
        }),
      );
    },
  });
}

async function feedServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(rss());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml` };
}

/** rss (3 items) → cms → probe-pub; answers the flow id and its flow step ids. */
async function threeStepFlow(t: TestHost, feedUrl: string): Promise<{ flowId: number; pipelineId: number; steps: string[] }> {
  const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Logged pipeline' } })).body.data
    .pipeline_id as number;
  const psids: string[] = [];
  for (const [order, type] of ['fetch', 'publish', 'publish'].entries()) {
    psids.push(
      (await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: type, execution_order: order } })).body.data
        .pipeline_step_id,
    );
  }
  const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Logged flow' } })).body.data
    .flow_id as number;
  const steps = psids.map((p) => `${p}_${flowId}`);
  const settings = [
    { handler_slug: 'rss', settings: { feed_url: feedUrl, max_items: 3 } },
    { handler_slug: 'cms', settings: { post_status: 'publish' } },
    { handler_slug: 'probe-pub', settings: {} },
  ];
  for (const [n, body] of settings.entries()) {
    const res = await t.request<Body>('PUT', `/flows/steps/${steps[n]}/handler`, { body });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  return { flowId, pipelineId, steps };
}

const logsOf = async (t: TestHost, query: Record<string, string | number>) =>
  (await t.request<Body>('GET', '/logs', { query: { per_page: 500, ...query } })).body as { total: number; items: Body[] };

for (const store of testStores('step logs')) {
  type Ctx = { t: TestHost; feed: { server: Server; url: string }; flowId: number; pipelineId: number; steps: string[]; firstJob: number };
  const test = suite<Ctx>(`step logs (${store.label})`);

  test.before(async (ctx) => {
    ctx.feed = await feedServer();
    ctx.t = await createTestHost({ plugins: [stepLogProbe()], config: store.config() });
    Object.assign(ctx, await threeStepFlow(ctx.t, ctx.feed.url));
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    ctx.feed.server.close();
  });

  test('a run logs each step’s start and outcome with counts, duration and what was published', async (ctx) => {
    const { t } = ctx;
    const job = await t.executeAndWait({ flow_id: ctx.flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    ctx.firstJob = job.job_id;
    const entries = (await logsOf(t, { job_id: job.job_id, search: 'Step ' })).items.reverse();
    const messages = entries.map((e) => e.message as string);
    assert.is(messages.length, 6, messages.join('\n'));
    assert.is(messages[0], 'Step 1/3 fetch (rss) started with 0 items');
    assert.match(messages[1]!, /^Step 1\/3 fetch \(rss\) finished: 0 in, 3 out, \d+ ms$/);
    assert.is(messages[2], 'Step 2/3 publish (cms) started with 3 items');
    // The site posts it made, each with its link (issue 53: a run says what it published).
    assert.match(
      messages[3]!,
      /^Step 2\/3 publish \(cms\) finished: 3 in, 3 out, \d+ ms; published 3: \d+ http:\/\/\S+\/\?p=\d+, \d+ \S+, \d+ \S+$/,
    );
    assert.match(
      messages[5]!,
      /^Step 3\/3 publish \(probe-pub\) finished: 3 in, 3 out, \d+ ms; published 3: p-1 https:\/\/remote\.test\/p-1, p-2 https:\/\/remote\.test\/p-2, p-3 https:\/\/remote\.test\/p-3; p-1 shortened to "Alpha st…"$/,
    );
    for (const e of entries) assert.is(e.level, 'info');
    const outcome = entries[3]!.context;
    assert.is(outcome.flow_id, ctx.flowId);
    assert.is(outcome.pipeline_id, ctx.pipelineId);
    assert.is(outcome.flow_step_id, ctx.steps[1]);
    assert.is(outcome.step, 2);
    assert.is(outcome.handler, 'cms');
    assert.is(outcome.step_type, 'publish');
    assert.is(outcome.items_in, 3);
    assert.is(outcome.items_out, 3);
    assert.type(outcome.duration_ms, 'number');
    assert.equal(entries[5]!.context.published[0], { id: 'p-1', url: 'https://remote.test/p-1', shortened: true, text: 'Alpha st…' });
    // The job's own lines are still one each (other tests and the admin client search them).
    assert.is((await logsOf(t, { search: `Job ${job.job_id} started` })).total, 1);
    assert.is((await logsOf(t, { search: `Job ${job.job_id} completed` })).total, 1);
    // Item detail is debug, and not stored by default.
    assert.is((await logsOf(t, { job_id: job.job_id, level: 'debug' })).total, 0);
  });

  test('the next run says how many items were skipped as already processed', async (ctx) => {
    const job = await ctx.t.executeAndWait({ flow_id: ctx.flowId });
    assert.is(job.status, 'completed_no_items');
    const fetched = (await logsOf(ctx.t, { job_id: job.job_id, search: 'Step 1/3 fetch (rss) finished' })).items;
    assert.is(fetched.length, 1);
    assert.match(fetched[0]!.message, /: 0 in, 0 out \(3 skipped as already processed\), \d+ ms$/);
    assert.is(fetched[0]!.context.items_skipped, 3);
  });

  test('a failing step logs an error with the handler’s message', async ({ t }) => {
    const job = await t.executeAndWait({ workflow: { steps: [{ type: 'publish', handler_slug: 'probe-boom', handler_config: {} }] } });
    assert.is(job.status, 'failed');
    const errors = (await logsOf(t, { job_id: job.job_id, level: 'error' })).items.map((e) => e.message as string);
    assert.ok(
      errors.some((m) => /^Step 1\/1 publish \(probe-boom\) failed after \d+ ms: remote said no$/.test(m)),
      errors.join('\n'),
    );
    assert.is((await logsOf(t, { search: `Job ${job.job_id} failed` })).total, 1);
    // The job's error names the step by position as the log lines do, not by its internal id.
    assert.is(job.error, 'Step 1/1 publish (probe-boom) failed: remote said no');
    assert.is((await logsOf(t, { search: `Job ${job.job_id} failed: Step 1/1 publish (probe-boom) failed: remote said no` })).total, 1);
  });

  test('manual runs name the user who started them', async ({ t, firstJob, flowId }) => {
    const entries = (await logsOf(t, { job_id: firstJob, search: 'triggered manually' })).items;
    assert.is(entries.length, 1);
    assert.is(
      entries[0]!.message,
      `Flow ${flowId} "Logged flow" triggered manually by ${t.admin.login} (user ${entries[0]!.user_id}) via POST /execute: job ${firstJob}`,
    );
    assert.type(entries[0]!.user_id, 'number');
    assert.is(entries[0]!.context.user_login, t.admin.login);
    assert.is(entries[0]!.context.trigger, 'execute');
  });

  test('configuration changes name who changed which pipeline or flow', async ({ t, flowId, pipelineId, steps }) => {
    const login = t.admin.login;
    const created = await logsOf(t, { pipeline_id: pipelineId, search: `Pipeline ${pipelineId} "Logged pipeline" created` });
    assert.is(created.total, 1);
    assert.match(created.items[0]!.message, new RegExp(` by ${login} \\(user \\d+\\)$`));
    assert.is((await logsOf(t, { flow_id: flowId, search: `Flow ${flowId} "Logged flow" created in pipeline ${pipelineId}` })).total, 1);
    const handler = await logsOf(t, { flow_id: flowId, search: `step ${steps[0]} handler set to rss` });
    assert.is(handler.total, 1);
    assert.match(handler.items[0]!.message, /\(settings: feed_url, max_items\) by /);
    await t.request('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'every_5_minutes' } } });
    const updated = (await logsOf(t, { flow_id: flowId, search: `Flow ${flowId} updated` })).items;
    assert.is(updated.length, 1);
    assert.match(updated[0]!.message, new RegExp(`^Flow ${flowId} updated \\(schedule manual → every_5_minutes\\) by ${login} `));
    assert.is(updated[0]!.context.user_login, login);
    await t.request('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'manual' } } });
  });

  test('webhook changes and triggers are logged without secrets or payloads', async ({ t, flowId }) => {
    const token = (await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } })).body.data.token as string;
    await t.request('POST', `/flows/${flowId}/webhook/regenerate`);
    const regenerated = (await t.request<Body>('POST', `/flows/${flowId}/webhook/regenerate`)).body.data.token as string;
    const changes = (await logsOf(t, { flow_id: flowId, search: 'webhook trigger' })).items.map((e) => e.message as string);
    assert.ok(
      changes.some((m) => m.startsWith(`Flow ${flowId}: webhook trigger enabled (bearer) by ${t.admin.login} (user `)),
      changes.join('\n'),
    );
    assert.is(changes.filter((m) => m.includes('token regenerated')).length, 2);
    const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${regenerated}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ secret_payload_marker: 'pay-123' }),
    });
    assert.is(res.status, 200);
    const answer = (await res.json()) as Body;
    await t.waitForJob(answer.job_id as number);
    const triggered = (await logsOf(t, { job_id: answer.job_id, search: 'triggered by webhook' })).items;
    assert.is(triggered.length, 1);
    assert.is(
      triggered[0]!.message,
      `Flow ${flowId} "Logged flow" triggered by webhook (request ${res.headers.get('x-request-id')}, bearer): job ${answer.job_id} queued`,
    );
    assert.is(triggered[0]!.context.request_id, res.headers.get('x-request-id'));
    const everything = JSON.stringify((await logsOf(t, {})).items);
    for (const secret of [token, regenerated, 'pay-123']) assert.not.ok(everything.includes(secret), `the log holds ${secret}`);
    await t.request('DELETE', `/flows/${flowId}/webhook`);
    assert.is((await logsOf(t, { flow_id: flowId, search: 'webhook trigger disabled by' })).total, 1);
  });

  test('scheduled runs say their schedule started them, with the interval', async ({ t, flowId }) => {
    await t.request('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'every_5_minutes' } } });
    const jobCount = async () => (await t.request<Body>('GET', '/jobs', { query: { flow_id: flowId } })).body.total as number;
    const before = await jobCount();
    // Agenda keeps real time: the schedule is made due by moving its next run.
    await t.host.store.collection('agenda_jobs').updateOne({ 'data.flowId': flowId }, { $set: { nextRunAt: new Date(Date.now() - 1000) } });
    for (let i = 0; i < 200 && (await jobCount()) === before; i++) await new Promise((r) => setTimeout(r, 25));
    const latest = (await t.request<Body>('GET', '/jobs', { query: { flow_id: flowId, per_page: 1 } })).body.data[0] as Body;
    assert.is(latest.source, 'schedule');
    await t.waitForJob(latest.job_id);
    const entries = (await logsOf(t, { job_id: latest.job_id, search: 'triggered by its schedule' })).items;
    assert.is(entries.length, 1);
    assert.match(
      entries[0]!.message,
      new RegExp(`^Flow ${flowId} "Logged flow" triggered by its schedule \\(.+\\): job ${latest.job_id}$`),
    );
    assert.is(entries[0]!.context.interval, 'every_5_minutes');
    assert.is(entries[0]!.context.trigger, 'schedule');
    await t.request('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'manual' } } });
  });

  test('GET /jobs/{id}: each step with position, duration and item identities; bodies only with include=packets', async ({
    t,
    firstJob,
    steps,
  }) => {
    const plain = (await t.request<Body>('GET', `/jobs/${firstJob}`)).body;
    assert.ok(validateDetail(plain), JSON.stringify(validateDetail.errors));
    const jobSteps = plain.data.steps as Body[];
    assert.equal(
      jobSteps.map((s) => [s.position, s.flow_step_id, s.step_type, s.handler_slug, s.status, s.items_in, s.items_out]),
      [
        [1, steps[0], 'fetch', 'rss', 'completed', 0, 3],
        [2, steps[1], 'publish', 'cms', 'completed', 3, 3],
        [3, steps[2], 'publish', 'probe-pub', 'completed', 3, 3],
      ],
    );
    for (const s of jobSteps) {
      assert.type(s.duration_ms, 'number');
      assert.type(s.started_at, 'string');
      assert.is(s.packets, undefined);
    }
    assert.equal(
      jobSteps[0]!.items,
      ITEMS.map((i) => ({ item_id: i.guid, title: i.title })),
    );
    assert.equal(
      jobSteps[2]!.published,
      [1, 2, 3].map((n) => ({ id: `p-${n}`, url: `https://remote.test/p-${n}`, shortened: n === 1 })),
    );
    assert.not.ok(JSON.stringify(plain).includes('Body of Alpha'), 'no packet bodies without include=packets');
    // Every field the route answered before is still there.
    for (const key of [
      'job_id',
      'flow_name',
      'pipeline_name',
      'status',
      'source',
      'engine_data',
      'workflow',
      'scheduled_for',
      'duration_ms',
      'created_at_display',
    ])
      assert.ok(key in plain.data, key);

    const full = (await t.request<Body>('GET', `/jobs/${firstJob}`, { query: { include: 'packets' } })).body;
    assert.ok(validateDetail(full), JSON.stringify(validateDetail.errors));
    const packets = full.data.steps[0].packets as Body[];
    assert.is(packets.length, 3);
    assert.is(packets[0]!.data.title, 'Alpha story');
    assert.match(packets[0]!.data.content ?? packets[0]!.data.description ?? JSON.stringify(packets[0]!.data), /Body of Alpha/);
    assert.is(full.data.steps[0].packets_truncated, false);
    assert.is((await t.request('GET', `/jobs/${firstJob}`, { query: { include: 'everything' } })).status, 400);
  });

  test.run();

  // A host with item-level detail switched on (FLOWHOST_LOG_DEBUG=1).
  type DebugCtx = { t: TestHost; feed: { server: Server; url: string } };
  const debug = suite<DebugCtx>(`step logs with debug switched on (${store.label})`);
  debug.before(async (ctx) => {
    ctx.feed = await feedServer();
    ctx.t = await createTestHost({ plugins: [stepLogProbe()], config: { ...store.config(), logDebug: true } });
  });
  debug.after(async (ctx) => {
    await ctx.t.stop();
    ctx.feed.server.close();
  });

  debug('each item is logged at debug as it passes a step, and skipped items too', async ({ t, feed }) => {
    const { flowId } = await threeStepFlow(t, feed.url);
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed');
    const lines = (await logsOf(t, { job_id: job.job_id, level: 'debug' })).items.reverse();
    assert.is(lines.length, 9, lines.map((l) => l.message).join('\n'));
    assert.is(lines[0]!.message, 'Step 1/3 fetch (rss) item out: urn:step:1 "Alpha story"');
    assert.is(lines[0]!.context.item_id, 'urn:step:1');
    assert.is(lines[0]!.context.title, 'Alpha story');
    assert.is(lines[3]!.message, 'Step 2/3 publish (cms) item out: urn:step:1 "Alpha story"');
    const again = await t.executeAndWait({ flow_id: flowId });
    const skipped = (await logsOf(t, { job_id: again.job_id, level: 'debug', search: 'skipped' })).items.reverse();
    assert.equal(
      skipped.map((l) => l.message),
      ITEMS.map((i) => `Step 1/3 fetch (rss) item skipped, already processed: ${i.guid} "${i.title}"`),
    );
  });

  debug.run();
}
