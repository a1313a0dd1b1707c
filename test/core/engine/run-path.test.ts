// One run path: an execute request starts at once in this process (no wait for the
// scheduler's next poll), and a stored run whose process died before starting it is
// picked up by the engine's sweep.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { FlowRunMarks } from '../../../core/flows/run-marks.js';

const feed = definePlugin({
  id: 'run-path-fixtures',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler({
        slug: 'tick',
        type: 'fetch',
        label: 'Tick',
        description: 'One item per run.',
        fetch: async (ctx) => [{ type: 'tick', data: { title: 'tick' }, metadata: { item_id: `tick-${ctx.jobId}` } }],
      }),
    );
  },
});

for (const store of testStores('engine: one run path')) {
  const test = suite<{ t: TestHost }>(`engine: one run path (${store.label})`);
  test.before(async (ctx) => {
    // The scheduler polls once a minute here: a run that waited for it would time out.
    ctx.t = await createTestHost({ plugins: [feed], config: { ...store.config(), schedulerProcessEvery: 60_000 } });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('POST /execute runs at once, not at the next scheduler poll', async ({ t }) => {
    const started = Date.now();
    const job = await t.executeAndWait({ workflow: { steps: [{ type: 'fetch', handler_slug: 'tick' }] } }, 5_000);
    assert.is(job.status, 'completed');
    assert.ok(Date.now() - started < 5_000);
  });

  test('a stored immediate run nobody started is started by the sweep, once', async ({ t }) => {
    const jobs = t.host.jobs;
    const orphan = await jobs.create({
      flow_id: null,
      pipeline_id: null,
      label: 'orphan',
      source: 'execute',
      workflow: [{ type: 'fetch', handler_slug: 'tick', handler_config: {} }],
    });
    assert.is((await jobs.get(orphan.job_id)).status, 'pending');
    assert.is(await t.host.engine.resumeQueued(60), 0, 'too young: its own process may still start it');
    t.clock.advance(61_000);
    assert.is(await t.host.engine.resumeQueued(60), 1);
    const done = await t.waitForJob(orphan.job_id);
    assert.is(done.status, 'completed');
    assert.is(await t.host.engine.resumeQueued(60), 0);
  });

  test('start-up releases a flow mark whose run died after writing its job, and records the outcome once', async ({ t }) => {
    type Body = { data: Record<string, unknown> & { pipeline_id: number; flow_id: number } };
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Marks', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Marked' } })).body.data.flow_id;
    const { jobs, flows } = t.host;
    // The marks the engine and start-up keep (core/flows/run-marks.ts), over the same store.
    const marks = new FlowRunMarks(t.host.store);
    const ended = await jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: 'ended', source: 'execute' });
    await jobs.finish(ended.job_id, 'failed', { steps: [], error: 'boom' });
    const running = await jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: 'running', source: 'execute' });
    await jobs.jobs.updateOne({ job_id: running.job_id }, { $set: { status: 'processing' } });
    const mark = (jobId: number) =>
      flows.collection.updateOne({ flow_id: flowId }, { $set: { running_job_id: jobId, running_since: t.clock.now() } });
    const later = new Date(t.clock.now().getTime() + 1000);

    await mark(running.job_id);
    assert.is((await marks.repairRunningMarks(jobs.jobs, later)).length, 0, 'a running job keeps its mark');
    await mark(ended.job_id);
    assert.is(
      (await marks.repairRunningMarks(jobs.jobs, t.clock.now())).length,
      0,
      'a run that may be ending on another host right now is left alone',
    );
    assert.is((await marks.repairRunningMarks(jobs.jobs, later)).length, 1);
    let flow = (await flows.record(flowId))!;
    assert.is(flow.running_job_id, null);
    assert.is(flow.last_run_status, 'failed');
    assert.is(flow.consecutive_failures, 1);
    // Its outcome was recorded already (the flow's last run is not older): not counted twice.
    await mark(ended.job_id);
    assert.is((await marks.repairRunningMarks(jobs.jobs, later)).length, 1);
    flow = (await flows.record(flowId))!;
    assert.is(flow.running_job_id, null);
    assert.is(flow.consecutive_failures, 1);
    // A mark left by a job that is gone is released too.
    await mark(999_999);
    assert.is((await marks.repairRunningMarks(jobs.jobs, later)).length, 1);
    assert.is(await marks.runningJobOf(flowId), null);
  });

  test('a queued job another runner claimed first is left to it, and the flow is not left marked', async ({ t }) => {
    type Body = { data: Record<string, unknown> & { pipeline_id: number; flow_id: number } };
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Taken', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Taken' } })).body.data.flow_id;
    const { jobs, engine } = t.host;
    const marks = new FlowRunMarks(t.host.store);
    const job = await jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: 'taken', source: 'webhook', queued: true });
    assert.ok(await jobs.claim(job.job_id), 'another runner claims it');
    assert.is(await engine.run(job.job_id, flowId), null);
    assert.is(await marks.runningJobOf(flowId), null);
    assert.is((await jobs.get(job.job_id)).status, 'processing');
  });

  test("a flow's run reads its pipeline once (for the plan and for its log lines' agent)", async ({ t }) => {
    type Body = { data: Record<string, unknown> & { pipeline_id: number; flow_id: number } };
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Once', agent_id: 4, steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
    const stepId = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
    ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
    const flowId = (
      await t.request<Body>('POST', '/flows', {
        body: { pipeline_id: pipelineId, flow_name: 'Once', flow_config: { [stepId]: { handler_slug: 'tick' } } },
      })
    ).body.data.flow_id;
    const reads: string[] = [];
    t.host.hooks.storeOperationTimed.tap('pipeline-reads', (timing) => {
      if (timing.collection === 'pipelines') reads.push(timing.operation);
    });
    const stored = await t.host.jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: 'Once', source: 'execute' });
    assert.is(await t.host.engine.run(stored.job_id), 'completed');
    assert.equal(reads, ['findOne'], `the run read the pipeline ${reads.length} times`);
    const job = await t.host.jobs.get(stored.job_id);
    // The run's lines still carry the pipeline's agent.
    const lines = await t.request<{
      data: { items?: Array<{ context: Record<string, unknown> }> } | Array<{ context: Record<string, unknown> }>;
    }>('GET', `/logs?job_id=${job.job_id}&agent_id=4`);
    assert.is(lines.status, 200, JSON.stringify(lines.body));
    assert.ok(JSON.stringify(lines.body).includes('started'), JSON.stringify(lines.body));
  });

  test.run();
}
