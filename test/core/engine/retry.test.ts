// Issue 53, "A failed run cannot be inspected or retried": POST /jobs/{id}/retry starts a
// failed run again from its failed step (earlier steps not run again, the step given the
// input it had, items already published not published again) or from the start; the new
// job records `retry_of`. A failed run keeps the claims of the items it published, so the
// next run does not publish them again either, and gives the rest back.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { validateJobDetail } from '../../support/job-detail-validator.js';
import { newRemote, recordProbe, twoStepFlow, type Remote } from '../../support/run-record-probe.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const LEASE = 30;
const guids = (...n: number[]) => n.map((i) => `urn:rec:${i}`);

for (const store of testStores('engine: retry')) {
  type Ctx = { t: TestHost; remote: Remote };
  const test = suite<Ctx>(`engine: retry a failed run (${store.label})`);
  test.before(async (ctx) => {
    ctx.remote = newRemote();
    ctx.t = await createTestHost({
      plugins: [recordProbe(ctx.remote)],
      config: { ...store.config(), schedulerProcessEvery: 60_000, runLeaseSeconds: LEASE },
    });
  });
  test.before.each(({ remote }) => {
    Object.assign(remote, newRemote());
  });
  test.after(async (ctx) => ctx.t.stop());

  const detail = async (t: TestHost, jobId: number): Promise<Body> => {
    const res = await t.request<Body>('GET', `/jobs/${jobId}`, { query: { include: 'packets' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(validateJobDetail(res.body), JSON.stringify(validateJobDetail.errors));
    return res.body.data;
  };

  /** Retries a job through the API and waits for the retry's end; answers the retry's detail. */
  const retryAndWait = async (t: TestHost, jobId: number, body: Body = {}): Promise<Body> => {
    const res = await t.request<Body>('POST', `/jobs/${jobId}/retry`, { body });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.data.retry_of, jobId);
    assert.is(res.body.data.status, 'pending');
    const retryId = res.body.data.job_id as number;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const job = await detail(t, retryId);
      if (!['pending', 'processing'].includes(job.status)) return job;
      if (Date.now() > deadline) assert.unreachable(`retry job ${retryId} still ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  test('fails at item 3 of 5: two published; the retry from the failed step publishes 3, 4, 5 and none twice', async ({ t, remote }) => {
    const { flowId } = await twoStepFlow(t);
    remote.failAt = 3;
    const failed = await t.executeAndWait({ flow_id: flowId });
    assert.is(failed.status, 'failed');
    assert.equal(remote.posted, guids(1, 2));
    const before = await detail(t, failed.job_id);
    const publish = before.steps[1];
    assert.is(publish.status, 'failed');
    assert.equal(
      publish.published.map((p: Body) => p.id),
      ['post-urn:rec:1', 'post-urn:rec:2'],
      'the failed step lists what it published before failing',
    );
    assert.is(before.trigger.retried_by, null);

    remote.failAt = null; // the cause fixed
    const retry = await retryAndWait(t, failed.job_id);
    assert.is(retry.status, 'completed', JSON.stringify(retry));
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5), 'each item published once in all');
    assert.is(remote.feedRequests, 1, 'the fetch step is not run again');
    assert.equal(
      retry.steps.map((s: Body) => [s.step_type, s.status, s.items_in, s.items_out]),
      [['publish', 'completed', 5, 5]],
    );
    assert.equal(retry.trigger.kind, 'retry');
    assert.is(retry.trigger.retry_of, failed.job_id);
    assert.is(retry.trigger.retry_from, 'failed_step');
    assert.is(retry.trigger.user_login, 'admin');
    assert.is((await detail(t, failed.job_id)).trigger.retried_by, retry.job_id);

    // One retry per job: the second is refused, naming the first.
    const again = await t.request<Body>('POST', `/jobs/${failed.job_id}/retry`, { body: {} });
    assert.is(again.status, 409, JSON.stringify(again.body));
    assert.is(again.body.code, 'job_already_retried');
    assert.is(again.body.data.retried_by, retry.job_id);
    // A completed job is not retried.
    const done = await t.request<Body>('POST', `/jobs/${retry.job_id}/retry`);
    assert.is(done.status, 409, JSON.stringify(done.body));
    assert.is(done.body.code, 'job_not_retryable');
    assert.is(done.body.data.job_status, 'completed');
    // Every item is processed: the next run has nothing new.
    const next = await t.executeAndWait({ flow_id: flowId });
    assert.is(next.status, 'completed_no_items');
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5));
  });

  test('a failed run keeps what it published processed: the next run does 3, 4, 5 only, and a later retry nothing', async ({
    t,
    remote,
  }) => {
    const { flowId } = await twoStepFlow(t);
    remote.failAt = 3;
    const failed = await t.executeAndWait({ flow_id: flowId });
    assert.is(failed.status, 'failed');
    remote.failAt = null;
    const next = await t.executeAndWait({ flow_id: flowId });
    assert.is(next.status, 'completed');
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5), 'items 1 and 2 stayed processed; 3, 4, 5 were given back');
    const retry = await retryAndWait(t, failed.job_id);
    assert.is(retry.status, 'completed', JSON.stringify(retry));
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5), 'the items another run did meanwhile are not done again');
  });

  test('a retry from the start runs the flow as it is now; processed items are not published again', async ({ t, remote }) => {
    const { flowId } = await twoStepFlow(t);
    remote.failAt = 4;
    const failed = await t.executeAndWait({ flow_id: flowId });
    assert.equal(remote.posted, guids(1, 2, 3));
    remote.failAt = null;
    const retry = await retryAndWait(t, failed.job_id, { from: 'start' });
    assert.is(retry.status, 'completed', JSON.stringify(retry));
    assert.is(retry.trigger.retry_from, 'start');
    assert.is(remote.feedRequests, 2, 'the fetch step ran again');
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5));
    assert.equal(
      retry.steps.map((s: Body) => [s.step_type, s.items_out]),
      [
        ['fetch', 2],
        ['publish', 2],
      ],
    );
  });

  test('a failed retry is retried in turn, from where it failed', async ({ t, remote }) => {
    const { flowId } = await twoStepFlow(t);
    remote.failAt = 2;
    const failed = await t.executeAndWait({ flow_id: flowId });
    remote.failAt = 4;
    const first = await retryAndWait(t, failed.job_id);
    assert.is(first.status, 'failed');
    assert.equal(remote.posted, guids(1, 2, 3));
    remote.failAt = null;
    const second = await retryAndWait(t, first.job_id);
    assert.is(second.status, 'completed', JSON.stringify(second));
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5));
    assert.is(second.trigger.retry_of, first.job_id);
  });

  test('a run interrupted mid-publish (its host taken for dead) is retried from that step', async ({ t, remote }) => {
    const { flowId } = await twoStepFlow(t);
    // Item 3's publish waits: the host "dies" there (its lease lapses).
    let reached!: () => void;
    const atThird = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    remote.holding = () => {
      if (remote.posted.length === 2 && !remote.hold) {
        remote.hold = gate;
        reached();
      }
    };
    const started = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } });
    const jobId = started.body.data.job_id as number;
    await atThird;
    // A dead host never finishes item 3: when the held call goes on, it fails.
    remote.failAt = 3;
    t.clock.advance((LEASE + 1) * 1000);
    const swept = await t.host.engine.recoverStale();
    assert.ok(swept.failed.includes(jobId), `${jobId} in ${swept.failed}`);
    release();
    const interrupted = await detail(t, jobId);
    assert.is(interrupted.status, 'failed');
    assert.match(interrupted.error, /Interrupted/);
    remote.failAt = null;
    const retry = await retryAndWait(t, jobId);
    assert.is(retry.status, 'completed', JSON.stringify(retry));
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5));
  });

  test('an ephemeral workflow is retried from its failed step too', async ({ t, remote }) => {
    remote.failAt = 2;
    const failed = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'rec-feed', handler_config: { max_items: 5 } },
          { type: 'publish', handler_slug: 'rec-pub', handler_config: {} },
        ],
      },
    });
    assert.is(failed.status, 'failed');
    assert.equal(remote.posted, guids(1));
    remote.failAt = null;
    const retry = await retryAndWait(t, failed.job_id);
    assert.is(retry.status, 'completed', JSON.stringify(retry));
    assert.equal(remote.posted, guids(1, 2, 3, 4, 5));
    assert.is(remote.feedRequests, 1);
  });

  test('bad requests: unknown job 404, unknown from 400, a running job 409', async ({ t }) => {
    const missing = await t.request<Body>('POST', '/jobs/999999/retry', { body: {} });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'job_not_found');
    const bad = await t.request<Body>('POST', '/jobs/1/retry', { body: { from: 'middle' } });
    assert.is(bad.status, 400, JSON.stringify(bad.body));
    assert.is(bad.body.code, 'rest_invalid_param');
  });

  test.run();
}
