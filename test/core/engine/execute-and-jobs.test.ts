import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { definePlugin, defineHandler, defineProvider, type DataPacket, type PluginDefinition, services } from '../../../sdk/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

interface World {
  feed: Array<{ id: string; title: string; content?: string }>;
  published: DataPacket[];
  failPublish: boolean;
  gate: Promise<void> | null;
}

function fixtures(world: World): PluginDefinition {
  return definePlugin({
    id: 'engine-fixtures',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: {
      handlers: services.handlers,
      providers: services.providers,
      routes: services.routes,
      intervals: services.intervals,
      stepTypes: services.stepTypes,
      engine: services.engineEvents,
      registries: services.registries,
    },
    setup(host) {
      for (const item of [
        defineHandler({
          slug: 'list-feed',
          type: 'fetch',
          label: 'List feed',
          description: 'Items from the test world, newest first.',
          settings: { type: 'object', properties: { max_items: { type: 'integer', minimum: 1, maximum: 50, default: 1 } } },
          async fetch() {
            if (world.gate) await world.gate;
            return world.feed.map((item) => ({
              type: 'item',
              data: { id: item.id, title: item.title, content: item.content ?? `Body of ${item.title}` },
              metadata: {},
            }));
          },
        }),
        defineHandler({
          slug: 'collect',
          type: 'publish',
          label: 'Collect',
          description: 'Records what it is given.',
          async publish(ctx, _settings, packets) {
            if (world.failPublish) throw new Error('remote said no');
            world.published.push(...packets.map((p) => ({ ...p, metadata: { ...p.metadata, job_id: ctx.jobId, engine: ctx.engineData } })));
            return packets;
          },
        }),
      ])
        host.handlers.add(item);
      for (const item of [
        defineProvider({
          slug: 'shout',
          label: 'Shout',
          configured: () => true,
          models: () => ['loud-1'],
          complete: async ({ messages }) => ({
            content: messages
              .map((m) => m.content)
              .join(' | ')
              .toUpperCase(),
          }),
        }),
      ])
        host.providers.add(item);
      // An engine hook: every packet entering a publish step gets tagged.
      host.engine.stepStarting.tapPromise('x', async (packets, step) =>
        step.stepType === 'publish' ? packets.map((p) => ({ ...p, metadata: { ...p.metadata, tagged: true } })) : packets,
      );
    },
  }) as PluginDefinition;
}

for (const store of testStores('engine: execute, items, jobs')) {
  type Ctx = { t: TestHost; world: World; flowId: number; pipelineId: number };
  const test = suite<Ctx>(`engine: execute, items, jobs (${store.label})`);

  async function waitForJob(t: TestHost, jobId: number, done = (s: string) => !['pending', 'processing'].includes(s)): Promise<Body> {
    for (let i = 0; i < 400; i++) {
      const res = await t.request<{ data: Body }>('GET', `/jobs/${jobId}`);
      if (done(res.body.data.status)) return res.body.data;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  test.before(async (ctx) => {
    ctx.world = { feed: [{ id: 'a', title: 'First' }], published: [], failPublish: false, gate: null };
    ctx.t = await createTestHost({ plugins: [fixtures(ctx.world)], config: store.config() });
    const t = ctx.t;
    ctx.pipelineId = (
      await t.request<Body>('POST', '/pipelines', {
        body: { pipeline_name: 'P', steps: [{ step_type: 'fetch' }, { step_type: 'ai' }, { step_type: 'publish' }] },
      })
    ).body.data.pipeline_id;
    const pipeline = (await t.request<Body>('GET', `/pipelines/${ctx.pipelineId}`)).body.data.pipeline;
    const [fetchId, aiId, publishId] = pipeline.pipeline_steps.map((s: Body) => s.pipeline_step_id);
    await t.request('PUT', `/pipelines/steps/${aiId}/config`, { body: { provider: 'shout', model: 'loud-1', system_prompt: 'be loud' } });
    ctx.flowId = (
      await t.request<Body>('POST', '/flows', {
        body: {
          pipeline_id: ctx.pipelineId,
          flow_name: 'Loud news',
          flow_config: {
            [fetchId]: { handler_slug: 'list-feed' },
            [publishId]: { handler_slug: 'collect' },
            [aiId]: { user_message: 'shout this' },
          },
        },
      })
    ).body.data.flow_id;
  });
  test.after(async (ctx) => ctx.t.stop());

  test('POST /execute runs a flow: fetch → ai → publish, one item, hooks applied, job completed', async ({
    t,
    world,
    flowId,
    pipelineId,
  }) => {
    const res = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId, initial_data: { source: 'test' } } });
    assert.is(res.status, 200);
    assert.is(res.body.success, true);
    assert.ok(res.body.message);
    assert.is(res.body.data.execution_type, 'immediate');
    assert.is(res.body.data.flow_id, flowId);
    assert.is(res.body.data.flow_name, 'Loud news');
    assert.ok(Number.isInteger(res.body.data.job_id));
    assert.ok(Number.isInteger(res.body.data.action_id));
    const job = await waitForJob(t, res.body.data.job_id);
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is(job.pipeline_id, pipelineId);
    assert.is(job.flow_name, 'Loud news');
    assert.is(job.engine_data.source, 'test');
    assert.equal(
      job.steps.map((s: Body) => [s.step_type, s.status, s.items_out]),
      [
        ['fetch', 'completed', 1],
        ['ai', 'completed', 1],
        ['publish', 'completed', 1],
      ],
    );
    assert.is(world.published.length, 1);
    assert.match(String(world.published[0]!.data.content), /^BE LOUD \| SHOUT THIS/);
    assert.is(world.published[0]!.metadata.tagged, true);
    assert.equal(world.published[0]!.metadata.engine, { source: 'test' });
    const flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    assert.is(flow.last_run_status, 'completed');
    assert.is(flow.is_running, false);
    assert.is(flow.recent_jobs[0].job_id, job.job_id);
  });

  test('the next run takes the next item, never the same one twice; nothing new is completed_no_items', async ({ t, world, flowId }) => {
    world.feed.unshift({ id: 'b', title: 'Second' });
    const second = await waitForJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } })).body.data.job_id);
    assert.is(second.status, 'completed');
    assert.equal(
      world.published.map((p) => p.data.id),
      ['a', 'b'],
    );
    const third = await waitForJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } })).body.data.job_id);
    assert.is(third.status, 'completed_no_items');
    assert.is(world.published.length, 2);
    const flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    assert.is(flow.consecutive_no_items, 1);
  });

  test('a handler that throws fails the job, releases its claim and counts the failure', async ({ t, world, flowId }) => {
    world.feed.unshift({ id: 'c', title: 'Third' });
    world.failPublish = true;
    const failed = await waitForJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } })).body.data.job_id);
    assert.is(failed.status, 'failed');
    assert.match(failed.error, /collect.*remote said no/);
    assert.is(failed.steps.at(-1).status, 'failed');
    let flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    assert.is(flow.consecutive_failures, 1);
    assert.is(flow.consecutive_no_items, 0);
    world.failPublish = false;
    const retried = await waitForJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } })).body.data.job_id);
    assert.is(retried.status, 'completed');
    assert.equal(
      world.published.map((p) => p.data.id),
      ['a', 'b', 'c'],
      'the released item was fetched again',
    );
    flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    assert.is(flow.consecutive_failures, 0, 'success resets the counters');
    assert.is((await t.request<Body>('GET', '/healthz', { absolute: true })).status, 200, 'the process is fine');
  });

  test('the same flow never runs concurrently with itself: a second run now is refused 409, not "started"', async ({
    t,
    world,
    flowId,
  }) => {
    let open!: () => void;
    world.gate = new Promise((r) => (open = r));
    const first = (await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } })).body.data.job_id;
    await waitForJob(t, first, (s) => s === 'processing');
    const second = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } });
    assert.equal([second.status, second.body.code, second.body.data.running_job_id], [409, 'flow_running', first]);
    assert.is((await t.request<Body>('GET', `/flows/${flowId}`)).body.data.is_running, true);
    world.gate = null;
    open();
    assert.ok(['completed', 'completed_no_items'].includes((await waitForJob(t, first)).status));
  });

  test('ephemeral workflows run without a flow; bad workflows and targets are refused', async ({ t, world }) => {
    world.feed.unshift({ id: 'd', title: 'Fourth' }, { id: 'e', title: 'Fifth' });
    const res = await t.request<Body>('POST', '/execute', {
      body: {
        workflow: {
          steps: [
            { type: 'fetch', handler_slug: 'list-feed', handler_config: { max_items: 5 } },
            { type: 'publish', handler_slug: 'collect' },
          ],
        },
      },
    });
    assert.is(res.status, 200);
    assert.is(res.body.data.step_count, 2);
    assert.is(res.body.data.flow_id, undefined);
    const job = await waitForJob(t, res.body.data.job_id);
    assert.is(job.status, 'completed');
    assert.is(job.flow_id, null);
    const both = await t.request<Body>('POST', '/execute', {
      body: { flow_id: 1, workflow: { steps: [{ type: 'fetch', handler_slug: 'list-feed' }] } },
    });
    assert.is(both.status, 400);
    const neither = await t.request<Body>('POST', '/execute', { body: { initial_data: {} } });
    assert.is(neither.status, 400);
    assert.is(neither.body.code, 'rest_missing_callback_param');
    const unknownFlow = await t.request<Body>('POST', '/execute', { body: { flow_id: 9999 } });
    assert.is(unknownFlow.status, 404);
    assert.is(unknownFlow.body.code, 'flow_not_found');
    const past = await t.request<Body>('POST', '/execute', { body: { flow_id: 1, timestamp: 1000 } });
    assert.is(past.status, 400);
    const badHandler = await t.request<Body>('POST', '/execute', {
      body: { workflow: { steps: [{ type: 'fetch', handler_slug: 'nope' }] } },
    });
    assert.is(badHandler.status, 400);
    assert.match(badHandler.body.message, /nope/);
    const badType = await t.request<Body>('POST', '/execute', { body: { workflow: { steps: [{ type: 'teleport' }] } } });
    assert.is(badType.body.code, 'invalid_step_type');
    assert.match(badType.body.message, /teleport/);
  });

  test('a timestamp delays a one-time run', async ({ t, world, flowId }) => {
    world.feed.unshift({ id: 'f', title: 'Later' });
    // 2 to 3 s ahead: with +1 the slot could be a few ms away and the run already started
    // by the time the job is read (seen once in CI on MongoDB under load).
    const at = Math.floor(Date.now() / 1000) + 3;
    t.clock.set(Date.now());
    const res = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId, timestamp: at } });
    assert.is(res.status, 200);
    assert.is(res.body.data.execution_type, 'delayed');
    assert.ok(Number.isInteger(res.body.data.action_id));
    assert.is((await t.request<Body>('GET', `/jobs/${res.body.data.job_id}`)).body.data.status, 'pending');
    const job = await waitForJob(t, res.body.data.job_id);
    assert.is(job.status, 'completed');
  });

  test('GET /jobs lists newest first with filters; DELETE /jobs and /processed-items', async ({ t, flowId, pipelineId, world }) => {
    const list = await t.request<Body>('GET', '/jobs', {
      query: { orderby: 'job_id', order: 'DESC', per_page: 50, offset: 0, hide_children: 1, _locale: 'user' },
    });
    assert.is(list.status, 200);
    assert.ok(Array.isArray(list.body.data));
    assert.is(list.body.total, list.body.data.length);
    const ids = list.body.data.map((j: Body) => j.job_id);
    assert.equal(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
    );
    for (const field of [
      'job_id',
      'pipeline_id',
      'pipeline_name',
      'flow_id',
      'flow_name',
      'label',
      'status',
      'created_at_display',
      'completed_at_display',
      'engine_data',
    ])
      assert.ok(field in list.body.data[0], field);
    const failed = await t.request<Body>('GET', '/jobs', { query: { status: 'failed', flow_id: flowId } });
    assert.is(failed.body.total, 1);
    assert.is((await t.request<Body>('GET', '/jobs', { query: { status: 'bogus' } })).status, 400);
    assert.is((await t.request<Body>('GET', '/jobs/99999')).body.code, 'job_not_found');

    const delFailed = await t.request<Body>('DELETE', '/jobs', { query: { type: 'failed', cleanup_processed: 0 } });
    assert.is(delFailed.status, 200);
    assert.match(delFailed.body.message, /Deleted 1 failed job/);
    assert.is((await t.request<Body>('GET', '/jobs', { query: { status: 'failed' } })).body.total, 0);
    assert.is((await t.request<Body>('DELETE', '/jobs')).status, 400, 'type is required');

    const before = world.published.length;
    const cleared = await t.request<Body>('DELETE', '/processed-items', { query: { clear_type: 'pipeline', target_id: pipelineId } });
    assert.is(cleared.status, 200);
    assert.ok(cleared.body.data.deleted_count >= 1);
    assert.ok(cleared.body.message);
    const again = await waitForJob(t, (await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } })).body.data.job_id);
    assert.is(again.status, 'completed');
    assert.is(world.published.length, before + 1, 'after clearing, an item is fetched again');
    const all = await t.request<Body>('DELETE', '/jobs', { query: { type: 'all', cleanup_processed: 1 } });
    assert.match(all.body.message, /processed item/);
    assert.is((await t.request<Body>('GET', '/jobs')).body.total, 0);
  });

  test('a job names its items as a reader sees them: entities decoded, markup and scripts gone, one line', async ({ t, world }) => {
    world.feed.unshift(
      { id: 'html-title', title: '<b>Tom</b> &amp; Jerry&#8217;s\n &mdash; 5 &lt; 6<script>alert("x")</script>' },
      // No title: the start of the content names it.
      { id: 'html-content', title: ' ', content: '<style>p { color: red }</style><p>Caf&eacute;&nbsp;opens</p>\n<p>today &hellip;</p>' },
      // Long content is read from its start: past a long style block, cut at 120 characters.
      {
        id: 'long-content',
        title: '',
        content: `<style>${'p { color: red } '.repeat(400)}</style>${'<p>Tom &amp; Jerry</p>'.repeat(1000)}`,
      },
    );
    const res = await t.request<Body>('POST', '/execute', {
      body: {
        workflow: {
          steps: [
            { type: 'fetch', handler_slug: 'list-feed', handler_config: { max_items: 3 } },
            { type: 'publish', handler_slug: 'collect' },
          ],
        },
      },
    });
    const job = await waitForJob(t, res.body.data.job_id);
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.equal(
      job.steps[0].items.map((i: Body) => i.title),
      ['Tom & Jerry’s — 5 < 6', 'Café opens today …', `${'Tom & Jerry '.repeat(10).slice(0, 119)}…`],
    );
  });

  test.run();
}
