// Issue 53, "Scale-out stalls for good after a host dies": a run's hold on its job and flow
// is a lease. A host that dies stops renewing it; once it lapsed the sweep fails the job as
// interrupted, frees the flow and its queue goes on, whatever the flow's triggers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

const feed = definePlugin({
  id: 'run-lease-fixtures',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler({
        slug: 'lease-tick',
        type: 'fetch',
        label: 'Tick',
        description: 'One item per run.',
        fetch: async (ctx) => [{ type: 'tick', data: { title: 'tick' }, metadata: { item_id: `tick-${ctx.jobId}` } }],
      }),
    );
  },
});

const LEASE = 30;

for (const store of testStores('engine: run leases')) {
  const test = suite<{ t: TestHost }>(`engine: run leases (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [feed], config: { ...store.config(), schedulerProcessEvery: 60_000, runLeaseSeconds: LEASE } });
  });
  test.after(async (ctx) => ctx.t.stop());

  type Body = { data: Record<string, unknown> & { pipeline_id: number; flow_id: number } };
  /** A flow whose one step fetches one new item per run. */
  async function tickFlow(t: TestHost, name: string): Promise<{ flowId: number; pipelineId: number }> {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: name, steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const stepId = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
    ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
    const flowId = (
      await t.request<Body>('POST', '/flows', {
        body: { pipeline_id: pipelineId, flow_name: name, flow_config: { [stepId]: { handler_slug: 'lease-tick' } } },
      })
    ).body.data.flow_id;
    return { flowId, pipelineId };
  }

  /** What a host killed mid-run leaves: its job `processing` and the flow marked by it, renewed now and never again. */
  async function deadRun(t: TestHost, flowId: number, pipelineId: number, marked = true): Promise<number> {
    const job = await t.host.jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: 'dead', source: 'webhook', queued: true });
    assert.ok(await t.host.jobs.claim(job.job_id));
    if (marked)
      await t.host.flows.collection.updateOne({ flow_id: flowId }, { $set: { running_job_id: job.job_id, running_since: t.clock.now() } });
    return job.job_id;
  }

  test('a webhook-only flow whose run died goes on once the lease lapsed: the dead job failed, the queue run', async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Webhook only');
    const dead = await deadRun(t, flowId, pipelineId);
    const queued = [];
    for (let i = 0; i < 3; i++)
      queued.push(
        (await t.host.jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: `q${i}`, source: 'webhook', queued: true })).job_id,
      );
    await t.host.engine.resumeQueued();
    assert.is((await t.host.jobs.get(dead)).status, 'processing', 'within its lease the holder may be alive');
    assert.is((await t.host.jobs.get(queued[0]!)).status, 'pending');
    t.clock.advance((LEASE + 1) * 1000);
    await t.host.engine.resumeQueued();
    const failed = await t.host.jobs.get(dead);
    assert.is(failed.status, 'failed');
    assert.match(String(failed.error), /Interrupted/);
    for (const jobId of queued) assert.is((await t.waitForJob(jobId)).status, 'completed');
    const flow = (await t.host.flows.record(flowId))!;
    assert.is(flow.running_job_id, null);
    const again = await t.executeAndWait({ flow_id: flowId });
    assert.is(again.status, 'completed', 'the flow accepts new runs');
  });

  test('POST /execute refuses a flow whose run holds its lease, and runs it once that lease lapsed', async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Execute');
    await deadRun(t, flowId, pipelineId);
    const refused = await t.request<{ code: string }>('POST', '/execute', { body: { flow_id: flowId } });
    assert.is(refused.status, 409);
    assert.is(refused.body.code, 'flow_running');
    t.clock.advance((LEASE + 1) * 1000);
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed');
  });

  // A host killed between storing an execute's job and starting its run (the chaos suites
  // kill hosts under execute load) left the job pending for a minute: the sweep took only
  // immediate runs older than that, past the recovery bound and a chaos run's quiet period.
  test('an immediate run stored by a host that died before starting it is started once a lease passed, not a minute', async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Orphan');
    const orphan = await t.host.jobs.create({ flow_id: flowId, pipeline_id: pipelineId, label: 'orphan', source: 'execute' });
    await t.host.engine.resumeQueued();
    assert.is((await t.host.jobs.get(orphan.job_id)).status, 'pending', 'within a lease its own process may still start it');
    t.clock.advance((LEASE + 1) * 1000);
    await t.host.engine.resumeQueued();
    assert.is((await t.waitForJob(orphan.job_id)).status, 'completed');
  });

  // The chaos suites found such delayed executes pending for good on both stores: the host
  // died after storing the job and before its Agenda job was saved (no action id), or after
  // Agenda's handler handed the run over (Agenda's job done) and before the engine claimed it.
  test('a delayed run nobody started after its time (its host died) is started once a lease past its time, once', async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Delayed orphan');
    const due = new Date(t.clock.now().getTime() + 5_000);
    const orphan = await t.host.jobs.create({
      flow_id: flowId,
      pipeline_id: pipelineId,
      label: 'delayed orphan',
      source: 'execute',
      scheduled_for: due,
    });
    t.clock.advance((LEASE + 1) * 1000);
    await t.host.engine.resumeQueued();
    assert.is((await t.host.jobs.get(orphan.job_id)).status, 'pending', 'within a lease of its time its scheduler may still start it');
    t.clock.advance(5_000);
    await t.host.engine.resumeQueued();
    assert.is((await t.waitForJob(orphan.job_id)).status, 'completed');
    assert.is(await t.host.engine.resumeQueued(), 0, 'started once');
  });

  test('a job claimed without its flow mark (killed between the two writes) is failed by the sweep', async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Claimed only');
    const dead = await deadRun(t, flowId, pipelineId, false);
    t.clock.advance((LEASE + 1) * 1000);
    const swept = await t.host.engine.recoverStale();
    assert.ok(swept.failed.includes(dead), `${dead} in ${swept.failed}`);
    assert.is((await t.host.jobs.get(dead)).status, 'failed');
  });

  test('a flow still marked by a finished job (killed between its two end writes) is freed once the mark lapsed', async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Half ended');
    const dead = await deadRun(t, flowId, pipelineId);
    await t.host.jobs.bulk(t.host.jobs.finishOps(dead, 'completed', { steps: [] }, null));
    assert.equal((await t.host.engine.recoverStale()).freed, [], 'a run ending right now is left to end');
    t.clock.advance((LEASE + 1) * 1000);
    assert.equal((await t.host.engine.recoverStale()).freed, [flowId]);
    const flow = (await t.host.flows.record(flowId))!;
    assert.is(flow.running_job_id, null);
    assert.is(flow.last_run_status, 'completed', "the finished job's outcome is recorded");
  });

  test("a job failed by the sweep is not overwritten by its holder's late end, nor its outcome recorded", async ({ t }) => {
    const { flowId, pipelineId } = await tickFlow(t, 'Late holder');
    const dead = await deadRun(t, flowId, pipelineId);
    t.clock.advance((LEASE + 1) * 1000);
    await t.host.engine.recoverStale();
    const [jobWrite] = await t.host.jobs.bulk(t.host.jobs.finishOps(dead, 'completed', { steps: [] }, null));
    assert.is((jobWrite as { matchedCount: number }).matchedCount, 0);
    assert.is((await t.host.jobs.get(dead)).status, 'failed');
  });

  test.run();
}
