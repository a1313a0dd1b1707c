// One run path: an execute request starts at once in this process (no wait for the
// scheduler's next poll), and a stored run whose process died before starting it is
// picked up by the engine's sweep.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

const feed = definePlugin({
  id: 'run-path-fixtures',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(defineHandler({ slug: 'tick', type: 'fetch', label: 'Tick', description: 'One item per run.', fetch: async (ctx) => [{ type: 'tick', data: { title: 'tick' }, metadata: { item_id: `tick-${ctx.jobId}` } }] }));
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
    const orphan = await jobs.create({ flow_id: null, pipeline_id: null, label: 'orphan', source: 'execute', workflow: [{ type: 'fetch', handler_slug: 'tick', handler_config: {} }] });
    assert.is((await jobs.get(orphan.job_id)).status, 'pending');
    assert.is(await t.host.engine.resumeQueued(60), 0, 'too young: its own process may still start it');
    t.clock.advance(61_000);
    assert.is(await t.host.engine.resumeQueued(60), 1);
    const done = await t.waitForJob(orphan.job_id);
    assert.is(done.status, 'completed');
    assert.is(await t.host.engine.resumeQueued(60), 0);
  });

  test.run();
}
