// Issue 53: an administrator cancels a stuck or unwanted run (POST /jobs/{id}/cancel): a
// pending or running job ends `cancelled`, a running one frees its flow at once and stops at
// its next step without overwriting the cancel; an ended job is 409, an unknown one 404.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

const gate: { open: () => void; wait: Promise<void> | null; entered: number[]; after: number[] } = {
  open: () => undefined,
  wait: null,
  entered: [],
  after: [],
};

const fixtures = definePlugin({
  id: 'cancel-fixtures',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler({
        slug: 'cancel-gated',
        type: 'fetch',
        label: 'Gated',
        description: 'Waits for the test.',
        async fetch(ctx) {
          gate.entered.push(ctx.jobId!);
          if (gate.wait) await gate.wait;
          return [{ type: 'item', data: { title: 'gated' }, metadata: { item_id: `gated-${ctx.jobId}` } }];
        },
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'cancel-after',
        type: 'fetch',
        label: 'After',
        description: 'Notes that the second step ran.',
        async fetch(ctx) {
          gate.after.push(ctx.jobId!);
          return [];
        },
      }),
    );
  },
});

type Body = { data: Record<string, unknown> & { pipeline_id: number; flow_id: number } };

for (const store of testStores('engine: cancelling a job')) {
  const test = suite<{ t: TestHost; flowId: number }>(`engine: cancelling a job (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [fixtures], config: { ...store.config(), schedulerProcessEvery: 60_000 } });
    const t = ctx.t;
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', {
        body: { pipeline_name: 'Two steps', steps: [{ step_type: 'fetch' }, { step_type: 'fetch' }] },
      })
    ).body.data.pipeline_id;
    const steps = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string; execution_order: number }> } } }>(
        'GET',
        `/pipelines/${pipelineId}`,
      )
    ).body.data.pipeline.pipeline_steps.sort((a, b) => a.execution_order - b.execution_order);
    ctx.flowId = (
      await t.request<Body>('POST', '/flows', {
        body: {
          pipeline_id: pipelineId,
          flow_name: 'Cancellable',
          flow_config: {
            [steps[0]!.pipeline_step_id]: { handler_slug: 'cancel-gated' },
            [steps[1]!.pipeline_step_id]: { handler_slug: 'cancel-after' },
          },
        },
      })
    ).body.data.flow_id;
  });
  test.after(async (ctx) => ctx.t.stop());

  test('a running job is cancelled: its flow is free at once, its run stops before the next step and keeps the cancel', async ({
    t,
    flowId,
  }) => {
    gate.wait = new Promise((resolve) => (gate.open = resolve));
    const started = await t.request<{ data: { job_id: number } }>('POST', '/execute', { body: { flow_id: flowId } });
    const jobId = started.body.data.job_id;
    const deadline = Date.now() + 10_000;
    while (!gate.entered.includes(jobId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.ok(gate.entered.includes(jobId), 'the run is in its first step');

    const cancelled = await t.request<{ data: Record<string, unknown> }>('POST', `/jobs/${jobId}/cancel`);
    assert.is(cancelled.status, 200);
    assert.equal(cancelled.body.data, { job_id: jobId, status: 'cancelled', previous_status: 'processing', flow_id: flowId });
    assert.is((await t.host.flows.record(flowId))!.running_job_id, null, 'the flow is free');

    gate.wait = null;
    const next = await t.executeAndWait({ flow_id: flowId });
    assert.is(next.status, 'completed', 'a new run of the flow is accepted and runs');

    gate.open();
    const deadline2 = Date.now() + 10_000;
    while (t.host.engine.running() > 0 && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 10));
    await t.host.engine.drain();
    const job = (await t.request<{ data: { status: string; error: string } }>('GET', `/jobs/${jobId}`)).body.data;
    assert.is(job.status, 'cancelled', 'the run that ended after the cancel did not overwrite it');
    assert.match(job.error, /^Cancelled by /);
    assert.not.ok(gate.after.includes(jobId), 'its second step never ran');
    assert.is((await t.host.flows.record(flowId))!.last_run_status, 'completed', 'the cancelled run recorded no outcome');
  });

  test('a delayed job is cancelled before it is due; an ended job answers 409 job_finished, an unknown one 404', async ({ t, flowId }) => {
    const timestamp = Math.floor(t.clock.now().getTime() / 1000) + 3600;
    const delayed = await t.request<{ data: { job_id: number } }>('POST', '/execute', { body: { flow_id: flowId, timestamp } });
    const jobId = delayed.body.data.job_id;
    const cancelled = await t.request<{ data: { previous_status: string } }>('POST', `/jobs/${jobId}/cancel`);
    assert.is(cancelled.status, 200);
    assert.is(cancelled.body.data.previous_status, 'pending');
    assert.is(await t.host.engine.run(jobId), null, 'when it comes due it does not run');
    const again = await t.request<{ code: string; data: { job_status: string } }>('POST', `/jobs/${jobId}/cancel`);
    assert.is(again.status, 409);
    assert.is(again.body.code, 'job_finished');
    assert.is(again.body.data.job_status, 'cancelled');
    const listed = await t.request<{ data: Array<{ job_id: number }> }>('GET', '/jobs?status=cancelled');
    assert.ok(
      listed.body.data.some((j) => j.job_id === jobId),
      'GET /jobs?status=cancelled lists it',
    );
    const unknown = await t.request<{ code: string }>('POST', '/jobs/999999/cancel');
    assert.is(unknown.status, 404);
    assert.is(unknown.body.code, 'job_not_found');
  });

  test.run();
}
