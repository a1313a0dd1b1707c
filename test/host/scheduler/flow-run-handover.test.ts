// A scheduled run is handed to the engine, not run inside Agenda's handler: the flow.run
// job is finished (its slot free for the next due flow) while the run itself still goes
// on. Before, the handler held one of Agenda's few flow.run slots for the whole run.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defineHandler, definePlugin, services, type PluginDefinition } from '../../../sdk/index.js';
import { createTestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

// One hold per test (a suite per store): the test releases it.
let release: () => void = () => undefined;
let held = Promise.resolve();
const hold = () => (held = new Promise<void>((resolve) => (release = resolve)));

const holding = definePlugin({
  id: 'holding',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler({
        slug: 'hold',
        type: 'fetch',
        label: 'Hold',
        description: 'Waits until the test releases it.',
        fetch: async () => held.then(() => []),
      }),
    );
  },
}) as PluginDefinition;

const until = async (what: string, check: () => Promise<boolean>) => {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
};

for (const store of testStores('flow.run hands over')) {
  const test = suite(`scheduler: a scheduled run is handed to the engine (${store.label})`);
  test('the flow.run job finishes while its run is still processing', async () => {
    hold();
    const t = await createTestHost({ plugins: [holding], config: store.config() });
    try {
      const pipelineId = (
        await t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
          body: { pipeline_name: 'Held', steps: [{ step_type: 'fetch' }] },
        })
      ).body.data.pipeline_id;
      const stepId = (
        await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
      ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
      const flowId = (
        await t.request<{ data: { flow_id: number } }>('POST', '/flows', {
          body: {
            pipeline_id: pipelineId,
            flow_name: 'Held',
            flow_config: { [stepId]: { handler_slug: 'hold' } },
            scheduling_config: { interval: 'every_5_minutes' },
          },
        })
      ).body.data.flow_id;
      const agendaJobs = t.host.store.collection<Record<string, unknown>>('agenda_jobs');
      await agendaJobs.updateOne({ name: 'flow.run', 'data.flowId': flowId }, { $set: { nextRunAt: new Date(Date.now() + 100) } });
      const jobs = t.host.store.collection<{ job_id: number; status: string }>('jobs');
      await until(
        'the scheduled run to start',
        async () => (await jobs.count({ flow_id: flowId, source: 'schedule', status: 'processing' })) === 1,
      );
      await until(
        'the flow.run job to finish',
        async () => (await agendaJobs.findOne({ name: 'flow.run', 'data.flowId': flowId }))?.lastFinishedAt instanceof Date,
      );
      assert.is(await jobs.count({ flow_id: flowId, source: 'schedule', status: 'processing' }), 1, 'the run is still going');
      release();
      await until(
        'the run to end',
        async () => (await jobs.count({ flow_id: flowId, source: 'schedule', status: { $in: ['pending', 'processing'] } })) === 0,
      );
      assert.is(await jobs.count({ flow_id: flowId, source: 'schedule' }), 1, 'one run for the one slot');
    } finally {
      release();
      await t.stop();
    }
  });
  test.run();
}
