// Small things every user sees (issue 31), on both stores: a preference never points at a
// deleted pipeline, refused POST /flows calls spend no flow id, and POST /execute for a
// flow that is running says so instead of "started".
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler } from '../../../sdk/index.js';
import { handlerPlugin } from '../../support/handler-plugin.js';
import { testStores } from '../../support/test-stores.js';

interface Answer {
  success?: boolean;
  code?: string;
  message?: string;
  selected_pipeline_id?: number | null;
  data: Record<string, unknown> & { status?: number };
}

/** A publish handler that holds its run until released, and says when a run started. */
function gate() {
  let release = () => {};
  let started = () => {};
  const state = {
    started: Promise.resolve(),
    arm() {
      state.started = new Promise<void>((resolve) => (started = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      return { held, release: () => release() };
    },
    held: Promise.resolve(),
  };
  const plugin = handlerPlugin('user-visible-gate', [
    defineHandler({
      slug: 'gate-pub',
      type: 'publish',
      label: 'Gate',
      description: 'Waits until released.',
      publish: async (_ctx, _s, packets) => {
        started();
        await state.held;
        return packets;
      },
    }),
  ]);
  return { plugin, state };
}

async function pipelineWithStep(t: TestHost, name: string): Promise<{ pipelineId: number; stepId: string }> {
  const pipeline = await t.request<Answer>('POST', '/pipelines', { body: { pipeline_name: name } });
  const pipelineId = pipeline.body.data.pipeline_id as number;
  const step = await t.request<Answer>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'publish', execution_order: 0 } });
  return { pipelineId, stepId: step.body.data.pipeline_step_id as string };
}

for (const store of testStores('user-visible answers')) {
  const { plugin, state } = gate();
  const test = suite<{ t: TestHost }>(`user-visible answers (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [plugin], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('a preference naming a deleted pipeline reads as none, and is cleared in the store', async ({ t }) => {
    const { pipelineId } = await pipelineWithStep(t, 'Chosen');
    const set = await t.request<Answer>('POST', '/users/me', { body: { selected_pipeline_id: pipelineId } });
    assert.is(set.body.selected_pipeline_id, pipelineId);
    assert.is((await t.request('DELETE', `/pipelines/${pipelineId}`)).status, 200);
    const mine = await t.request<Answer>('GET', '/users/me');
    assert.equal([mine.status, mine.body.selected_pipeline_id], [200, null]);
    const byId = await t.request<Answer>('GET', `/users/${(mine.body as unknown as { user_id: number }).user_id}`);
    assert.is(byId.body.selected_pipeline_id, null);
    const stored = await t.host.store.collection<{ selected_pipeline_id: number | null }>('user_preferences').find({});
    assert.ok(
      stored.every((doc) => doc.selected_pipeline_id !== pipelineId),
      JSON.stringify(stored),
    );
  });

  test('refused POST /flows calls spend no flow id', async ({ t }) => {
    const { pipelineId, stepId } = await pipelineWithStep(t, 'Ids');
    const first = await t.request<Answer>('POST', '/flows', { body: { pipeline_id: pipelineId } });
    assert.is(first.status, 200, JSON.stringify(first.body));
    const firstId = first.body.data.flow_id as number;
    const refusals = [
      { pipeline_id: pipelineId, flow_config: { 'no-such-step': { handler_slug: 'gate-pub' } } },
      { pipeline_id: pipelineId, flow_config: { [stepId]: { handler_slug: 'no-such-handler' } } },
      { pipeline_id: pipelineId, scheduling_config: { interval: 'every_blue_moon' } },
      { pipeline_id: 999_999 },
    ];
    for (const body of refusals) {
      const refused = await t.request<Answer>('POST', '/flows', { body });
      assert.ok(
        refused.status >= 400 && refused.status < 500,
        `${JSON.stringify(body)} → ${refused.status} ${JSON.stringify(refused.body)}`,
      );
    }
    const next = await t.request<Answer>('POST', '/flows', {
      body: { pipeline_id: pipelineId, flow_config: { [stepId]: { handler_slug: 'gate-pub' } } },
    });
    assert.is(next.status, 200, JSON.stringify(next.body));
    assert.is(next.body.data.flow_id, firstId + 1);
  });

  test('POST /execute for a running flow answers 409 flow_running, starts nothing, spends no job', async ({ t }) => {
    const { pipelineId, stepId } = await pipelineWithStep(t, 'Busy');
    const flow = await t.request<Answer>('POST', '/flows', {
      body: { pipeline_id: pipelineId, flow_config: { [stepId]: { handler_slug: 'gate-pub' } } },
    });
    const flowId = flow.body.data.flow_id as number;
    const gateRun = state.arm();
    state.held = gateRun.held;
    const first = await t.request<Answer>('POST', '/execute', { body: { flow_id: flowId } });
    assert.is(first.status, 200, JSON.stringify(first.body));
    await state.started;
    const jobs = t.host.store.collection('jobs');
    const before = await jobs.count({});
    const busy = await t.request<Answer>('POST', '/execute', { body: { flow_id: flowId } });
    assert.is(busy.status, 409, JSON.stringify(busy.body));
    assert.is(busy.body.code, 'flow_running');
    assert.equal([busy.body.data.status, busy.body.data.flow_id, busy.body.data.running_job_id], [409, flowId, first.body.data.job_id]);
    assert.match(busy.body.message ?? '', /already running.*not started/);
    assert.is(await jobs.count({}), before);
    gateRun.release();
    assert.is((await t.waitForJob(first.body.data.job_id as number)).status, 'completed');
    const again = await t.request<Answer>('POST', '/execute', { body: { flow_id: flowId } });
    assert.is(again.status, 200, JSON.stringify(again.body));
    assert.is(again.body.data.job_id, (first.body.data.job_id as number) + 1);
    assert.is((await t.waitForJob(again.body.data.job_id as number)).status, 'completed');
  });

  test('a blank pipeline name is refused on create and rename, naming the field; nothing is stored', async ({ t }) => {
    const before = (await t.request<{ data: { pipelines: unknown[] } }>('GET', '/pipelines')).body.data.pipelines.length;
    const blank = await t.request<Answer & { data: { params?: Record<string, string> } }>('POST', '/pipelines', {
      body: { pipeline_name: '   ' },
    });
    assert.is(blank.status, 400, JSON.stringify(blank.body));
    assert.is(blank.body.code, 'rest_invalid_param');
    assert.ok(blank.body.data.params?.pipeline_name, JSON.stringify(blank.body));
    assert.is((await t.request<{ data: { pipelines: unknown[] } }>('GET', '/pipelines')).body.data.pipelines.length, before);
    const { pipelineId } = await pipelineWithStep(t, 'Named');
    const rename = await t.request<Answer>('PATCH', `/pipelines/${pipelineId}`, { body: { pipeline_name: '\t ' } });
    assert.is(rename.status, 400);
    const kept = await t.request<{ data: { pipeline: { pipeline_name: string } } }>('GET', '/pipelines', {
      query: { pipeline_id: pipelineId },
    });
    assert.is(kept.body.data.pipeline.pipeline_name, 'Named');
  });

  test.run();
}
