// Issue 53, cause 4: a delayed run whose scheduler lock a killed host left is taken over
// within a run lease, not after Agenda's default lock lifetime of 10 minutes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

const LEASE = 2;

for (const store of testStores('engine: a dead host’s delayed-run lock')) {
  const test = suite<{ t: TestHost }>(`engine: a dead host’s delayed-run lock (${store.label})`);
  test.before(async (ctx) => {
    // The production lock lifetime (10 min; the test host's default is 2 s).
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), schedulerProcessEvery: 200, schedulerLockLifetime: 600_000, runLeaseSeconds: LEASE },
    });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('a delayed execute locked by a host that died runs within a few leases', async ({ t }) => {
    const at = Math.floor(Math.max(Date.now(), t.clock.now().getTime()) / 1000) + 3600;
    const res = await t.request<{ data: { job_id: number } }>('POST', '/execute', {
      body: { workflow: { steps: [{ type: 'fetch', handler_slug: 'cms-local' }] }, timestamp: at },
    });
    assert.is(res.status, 200);
    const jobId = res.body.data.job_id;
    // What a host killed just after locking it leaves: the run due now, locked a moment ago.
    const moved = await t.host.store
      .collection('agenda_jobs')
      .updateOne(
        { name: 'job.run', 'data.jobId': jobId },
        { $set: { nextRunAt: new Date(Date.now() - 1000), lockedAt: new Date(), lastModifiedBy: 'dead-host' } },
      );
    assert.is(moved.matchedCount, 1);
    const job = await t.waitForJob(jobId, (LEASE * 3 + 5) * 1000);
    assert.ok(!['pending', 'processing'].includes(job.status), job.status);
  });

  test.run();
}
