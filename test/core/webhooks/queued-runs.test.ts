import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { handlerPlugin } from '../../support/handler-plugin.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** The order payloads were seen in, and a gate that holds the first run until released. */
const seen: unknown[] = [];
let release: () => void = () => undefined;
let gate: Promise<void> = Promise.resolve();
const gated = handlerPlugin('queued-fixtures', [
  defineHandler({
    slug: 'gated-input',
    type: 'fetch',
    label: 'Gated',
    description: 'Waits for the gate, then records the payload.',
    async fetch(ctx) {
      await gate;
      seen.push((ctx.engineData.webhook_trigger as Body).payload.n);
      return [];
    },
  }),
]);

for (const store of testStores('webhooks: queued runs')) {
  const test = suite<{ t: TestHost }>(`webhooks: a trigger during a run waits for it, never skipped (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [gated], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('five triggers while the flow runs: every one runs, in order, none skipped', async ({ t }) => {
    seen.length = 0;
    gate = new Promise((resolve) => (release = resolve));
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Queue', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const stepId = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    const flowId = (
      await t.request<Body>('POST', '/flows', {
        body: { pipeline_id: pipelineId, flow_name: 'Queued', flow_config: { [stepId]: { handler_slug: 'gated-input' } } },
      })
    ).body.data.flow_id;
    const token = (await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } })).body.data.token as string;
    const fire = async (n: number) => {
      const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ n }),
      });
      assert.is(res.status, 200);
      return ((await res.json()) as Body).job_id as number;
    };
    const first = await fire(0);
    // Wait until the first run holds the flow.
    for (let i = 0; i < 200 && (await t.host.flows.collection.findOne({ flow_id: flowId }))!.running_job_id !== first; i++)
      await new Promise((r) => setTimeout(r, 10));
    const rest: number[] = [];
    for (let n = 1; n <= 5; n++) rest.push(await fire(n));
    // Each run attempt that meets the held flow puts its job back in the flow's queue: wait
    // until all five have, then let the first run end.
    const jobs = t.host.store.collection('jobs');
    for (let i = 0; i < 500 && (await jobs.count({ flow_id: flowId, status: 'pending', queued: true })) < 5; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.is(await jobs.count({ flow_id: flowId, status: 'pending', queued: true }), 5, 'the five triggers wait in the queue');
    release();
    for (let i = 0; i < 500; i++) {
      if ((await jobs.count({ flow_id: flowId, status: { $in: ['pending', 'processing'] } })) === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const statuses = (await jobs.find({ flow_id: flowId }, { sort: { job_id: 1 } })).map((j) => j.status);
    assert.equal(statuses, [
      'completed_no_items',
      'completed_no_items',
      'completed_no_items',
      'completed_no_items',
      'completed_no_items',
      'completed_no_items',
    ]);
    assert.equal(seen, [0, 1, 2, 3, 4, 5], 'in the order accepted');
    assert.is(rest.length, 5);
  });

  test('a manual run of a flow busy with a webhook run is refused 409 flow_running, and no job is made (the spec: a flow never runs concurrently with itself)', async ({
    t,
  }) => {
    gate = new Promise((resolve) => (release = resolve));
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Skip', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const stepId = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    const flowId = (
      await t.request<Body>('POST', '/flows', {
        body: { pipeline_id: pipelineId, flow_name: 'Skipping', flow_config: { [stepId]: { handler_slug: 'gated-input' } } },
      })
    ).body.data.flow_id;
    const token = (await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } })).body.data.token as string;
    await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: '{"n":9}',
    });
    for (let i = 0; i < 200 && !(await t.host.flows.collection.findOne({ flow_id: flowId }))!.running_job_id; i++)
      await new Promise((r) => setTimeout(r, 10));
    const jobs = t.host.store.collection('jobs');
    const before = await jobs.count({ flow_id: flowId });
    const manual = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } });
    assert.is(manual.status, 409, JSON.stringify(manual.body));
    assert.is(manual.body.code, 'flow_running');
    assert.is(typeof manual.body.data.running_job_id, 'number');
    assert.is(await jobs.count({ flow_id: flowId }), before, 'the refused run made no job');
    release();
  });

  test.run();
}
