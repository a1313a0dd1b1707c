// Issue 55, the review step: an `approval` step pauses its job `waiting` in the store with
// its items; approve/reject (item by item or all) through the API, a signed one-time link,
// a webhook delivery or a timeout decide them; the approved items go on to publish.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { approvalFlow, approvalProbe, jobIn, newApprovalRemote, type ApprovalRemote } from '../../support/approval-probe.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const ids = (...n: number[]) => n.map((i) => `urn:appr:${i}`);

for (const store of testStores('engine: approval step')) {
  type Ctx = { t: TestHost; remote: ApprovalRemote };
  const test = suite<Ctx>(`engine: approval step (${store.label})`);
  test.before(async (ctx) => {
    ctx.remote = newApprovalRemote();
    ctx.t = await createTestHost({ plugins: [approvalProbe(ctx.remote)], config: { ...store.config(), schedulerProcessEvery: 60_000 } });
  });
  test.before.each(({ remote }) => {
    Object.assign(remote, newApprovalRemote());
  });
  test.after(async (ctx) => ctx.t.stop());

  /** Runs the flow and answers its job once it waits. */
  const waitingRun = async (t: TestHost, flowId: number): Promise<Body> => {
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'waiting', JSON.stringify(job));
    return job as Body;
  };
  const decide = (t: TestHost, jobId: number, word: 'approve' | 'reject', items?: string[]) =>
    t.request<Body>('POST', `/jobs/${jobId}/${word}`, { body: items ? { items } : {} });

  test('the run waits with its items; approve two, reject one: two published, the rejection recorded', async ({ t, remote }) => {
    const flowId = await approvalFlow(t);
    const job = await waitingRun(t, flowId);
    assert.equal(remote.posted, [], 'nothing published while waiting');
    assert.equal(
      job.review.items.map((i: Body) => [i.item_id, i.title, i.decision, i.packet.data.guid]),
      ids(1, 2, 3).map((id, n) => [id, `Story ${n + 1}`, null, id]),
    );
    assert.is(job.review.pending, 3);
    assert.equal(
      job.steps.map((s: Body) => s.step_type),
      ['fetch'],
    );

    // The waiting list: GET /jobs?status=waiting carries each job's review.
    const list = await t.request<Body>('GET', '/jobs', { query: { status: 'waiting' } });
    assert.is(list.status, 200, JSON.stringify(list.body));
    const listed = list.body.data.find((j: Body) => j.job_id === job.job_id);
    assert.ok(listed, 'the waiting job is listed');
    assert.is(listed.review.items.length, 3);

    const one = await decide(t, job.job_id, 'approve', ids(1));
    assert.is(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.data.decided, ids(1));
    assert.is(one.body.data.pending, 2);
    assert.is(one.body.data.resumed, false);
    const rejected = await decide(t, job.job_id, 'reject', ids(2));
    assert.is(rejected.body.data.pending, 1);
    assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 1);
    const last = await decide(t, job.job_id, 'approve', ids(3));
    assert.is(last.body.data.resumed, true);
    const done = await jobIn(t, job.job_id, ['completed', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.equal(remote.posted, ids(1, 3));
    assert.equal(
      done.steps.map((s: Body) => [s.step_type, s.status, s.items_in, s.items_out]),
      [
        ['fetch', 'completed', 0, 3],
        ['approval', 'completed', 3, 2],
        ['publish', 'completed', 2, 2],
      ],
    );
    assert.equal(done.steps[1].review, { approved: 2, rejected: 1 });
    assert.equal(
      done.review.items.map((i: Body) => [i.item_id, i.decision, i.decided_by]),
      [
        [ids(1)[0], 'approved', 'admin'],
        [ids(2)[0], 'rejected', 'admin'],
        [ids(3)[0], 'approved', 'admin'],
      ],
    );
    // A rejected item stays processed: the next run has nothing new to review.
    const next = await t.executeAndWait({ flow_id: flowId });
    assert.is(next.status, 'completed_no_items');
  });

  test('approve all at once; then the job is no longer waiting (409, declared code)', async ({ t, remote }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    const all = await decide(t, job.job_id, 'approve');
    assert.is(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.data.decided, ids(1, 2, 3));
    assert.is((await jobIn(t, job.job_id, ['completed', 'failed'])).status, 'completed');
    assert.equal(remote.posted, ids(1, 2, 3));
    const late = await decide(t, job.job_id, 'reject');
    assert.is(late.status, 409, JSON.stringify(late.body));
    assert.is(late.body.code, 'job_not_waiting');
    assert.is(late.body.data.job_status, 'completed');
  });

  test('reject all: nothing published, the run completes', async ({ t, remote }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    assert.is((await decide(t, job.job_id, 'reject')).status, 200);
    const done = await jobIn(t, job.job_id, ['completed', 'completed_no_items', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.equal(remote.posted, []);
    assert.equal(done.steps[1].review, { approved: 0, rejected: 3 });
  });

  test('bad requests: unknown items 400, bad body 400, unknown job 404, anonymous 401, a subscriber 403', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    const unknown = await decide(t, job.job_id, 'approve', ['urn:appr:1', 'urn:nope']);
    assert.is(unknown.status, 400, JSON.stringify(unknown.body));
    assert.is(unknown.body.code, 'review_items_unknown');
    assert.equal(unknown.body.data.unknown_items, ['urn:nope']);
    assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 3, 'a refused request decides nothing');
    for (const body of [{ items: 'urn:appr:1' }, { items: [1] }, { items: [''] }, { other: true }]) {
      const res = await t.request<Body>('POST', `/jobs/${job.job_id}/approve`, { body });
      assert.is(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    const missing = await decide(t, 999_999, 'approve');
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'job_not_found');
    const anonymous = await t.request<Body>('POST', `/jobs/${job.job_id}/approve`, { as: 'anonymous', body: {} });
    assert.is(anonymous.status, 401);
    const subscriber = await t.createUser(`sub${job.job_id}`, 'subscriber');
    const forbidden = await t.request<Body>('POST', `/jobs/${job.job_id}/reject`, { as: subscriber, body: {} });
    assert.is(forbidden.status, 403);
    assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 3);
    // Cancelled while waiting: ended, its items given back.
    const cancel = await t.request<Body>('POST', `/jobs/${job.job_id}/cancel`);
    assert.is(cancel.status, 200, JSON.stringify(cancel.body));
    assert.is(cancel.body.data.previous_status, 'waiting');
    assert.is((await decide(t, job.job_id, 'approve')).body.code, 'job_not_waiting');
  });

  const linkOf = async (t: TestHost, jobId: number): Promise<{ review: URL; webhook: URL | null }> => {
    const res = await t.request<Body>('GET', `/jobs/${jobId}/review-links`);
    assert.is(res.status, 200, JSON.stringify(res.body));
    return { review: new URL(res.body.data.review_url), webhook: res.body.data.webhook_url ? new URL(res.body.data.webhook_url) : null };
  };
  const anon = (t: TestHost, method: string, url: URL, body?: unknown, headers: Record<string, string> = {}) =>
    t.request<Body>(method, `${url.pathname}${url.search}`, { absolute: true, as: 'anonymous', body, headers });

  test('the signed link: the page offers the choice; it works once; a tampered or another job’s token is refused', async ({
    t,
    remote,
  }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    const { review } = await linkOf(t, job.job_id);
    assert.is(review.origin, new URL(t.url).origin, 'an absolute link on this host');
    const token = review.searchParams.get('token')!;
    const shown = await anon(t, 'GET', review);
    assert.is(shown.status, 200);
    assert.match(String(shown.body), 'Approve all');
    assert.match(String(shown.body), '3 items');
    assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 3, 'showing the page decides nothing');

    const tampered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}A`;
    const path = new URL(review.pathname, review);
    const bad = await anon(t, 'POST', path, { token: tampered, decision: 'approve' });
    assert.is(bad.status, 403, JSON.stringify(bad.body));
    assert.is(bad.body.code, 'review_link_invalid');
    const otherJob = new URL(path.pathname.replace(`/jobs/${job.job_id}/`, `/jobs/${job.job_id + 1}/`), review);
    assert.is((await anon(t, 'POST', otherJob, { token, decision: 'approve' })).body.code, 'review_link_invalid');

    // The page's form: a form-encoded POST answers a page.
    const used = await anon(t, 'POST', path, `token=${encodeURIComponent(token)}&decision=approve`, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    assert.is(used.status, 200, String(used.body));
    assert.match(String(used.body), '3 items approved');
    assert.is((await jobIn(t, job.job_id, ['completed', 'failed'])).status, 'completed');
    assert.equal(remote.posted, ids(1, 2, 3));
    const again = await anon(t, 'POST', path, { token, decision: 'reject' });
    assert.is(again.status, 409, JSON.stringify(again.body));
    assert.ok(['review_link_used', 'job_not_waiting'].includes(again.body.code), again.body.code);
    const page = await anon(t, 'GET', review);
    assert.is(page.status, 409, 'the page says it cannot be used any more');
  });

  test('the signed link is refused once used, even while the job waits again (one use, in the store)', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    const { review } = await linkOf(t, job.job_id);
    const token = review.searchParams.get('token')!;
    const path = new URL(review.pathname, review);
    const [a, b] = await Promise.all([
      anon(t, 'POST', path, { token, decision: 'approve' }),
      anon(t, 'POST', path, { token, decision: 'reject' }),
    ]);
    assert.equal([a.status, b.status].sort(), [200, 409], `${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`);
    assert.is((await jobIn(t, job.job_id, ['completed', 'failed'])).status, 'completed');
  });

  test('the signed link expires', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t, { link_hours: 1 }));
    const { review } = await linkOf(t, job.job_id);
    t.clock.advance(61 * 60_000);
    try {
      const res = await anon(t, 'POST', new URL(review.pathname, review), { token: review.searchParams.get('token'), decision: 'approve' });
      assert.is(res.status, 410, JSON.stringify(res.body));
      assert.is(res.body.code, 'review_link_expired');
      assert.is((await anon(t, 'GET', review)).status, 410);
      assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 3);
    } finally {
      t.clock.set(Date.now());
    }
  });

  test('webhook mode: one delivery to the signed URL resumes the run with its payload merged', async ({ t, remote }) => {
    const job = await waitingRun(t, await approvalFlow(t, { mode: 'webhook' }));
    assert.is(job.review.mode, 'webhook');
    const { webhook, review } = await linkOf(t, job.job_id);
    assert.ok(webhook);
    // The review link's token is not the webhook's.
    const wrong = await anon(
      t,
      'POST',
      new URL(`${webhook.pathname}?token=${encodeURIComponent(review.searchParams.get('token')!)}`, webhook),
      {
        ok: 1,
      },
    );
    assert.is(wrong.status, 403, JSON.stringify(wrong.body));
    const delivered = await anon(t, 'POST', webhook, { approved_by: 'editor-bot', note: 'ship it' });
    assert.is(delivered.status, 200, JSON.stringify(delivered.body));
    const done = await jobIn(t, job.job_id, ['completed', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.is(done.engine_data.approved_by, 'editor-bot');
    assert.is(done.engine_data.note, 'ship it');
    assert.equal(remote.posted, ids(1, 2, 3));
    assert.is(remote.seen[0]!.approved_by, 'editor-bot', 'the publish step saw the payload in its engine data');
    assert.is(done.review.ended_by, 'webhook');
    const again = await anon(t, 'POST', webhook, { approved_by: 'twice' });
    assert.is(again.status, 409, JSON.stringify(again.body));
    const notObject = await anon(t, 'POST', webhook, [1, 2]);
    assert.is(notObject.status, 400, JSON.stringify(notObject.body));
  });

  for (const outcome of ['approve', 'reject'] as const) {
    test(`a timeout decides the pending items: ${outcome}`, async ({ t, remote }) => {
      const job = await waitingRun(t, await approvalFlow(t, { timeout_minutes: 30, on_timeout: outcome }));
      assert.ok(job.review.timeout_at);
      await decide(t, job.job_id, 'reject', ids(2));
      await t.host.engine.resumeQueued();
      assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 2, 'not before its time');
      t.clock.advance(31 * 60_000);
      try {
        await t.host.engine.resumeQueued();
        const done = await jobIn(t, job.job_id, ['completed', 'failed']);
        assert.is(done.status, 'completed', JSON.stringify(done));
        assert.equal(remote.posted, outcome === 'approve' ? ids(1, 3) : []);
        assert.is(done.review.ended_by, 'timeout');
        assert.equal(
          done.review.items.map((i: Body) => i.decided_by),
          ['timeout', 'admin', 'timeout'],
        );
      } finally {
        t.clock.set(Date.now());
      }
    });
  }

  test('a retry waits only for the items the retried run had not decided', async ({ t, remote }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    await decide(t, job.job_id, 'approve', ids(1));
    await decide(t, job.job_id, 'reject', ids(2));
    const cancel = await t.request<Body>('POST', `/jobs/${job.job_id}/cancel`);
    assert.is(cancel.status, 200, JSON.stringify(cancel.body));
    const retried = await t.request<Body>('POST', `/jobs/${job.job_id}/retry`, { body: {} });
    assert.is(retried.status, 200, JSON.stringify(retried.body));
    const retry = await jobIn(t, retried.body.data.job_id, ['waiting', 'completed', 'failed']);
    assert.is(retry.status, 'waiting', JSON.stringify(retry));
    assert.equal(
      retry.review.items.map((i: Body) => i.item_id),
      ids(3),
      'only the undecided item is asked again',
    );
    await decide(t, retry.job_id, 'approve');
    const done = await jobIn(t, retry.job_id, ['completed', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.equal(remote.posted, ids(1, 3));
  });

  test('a run changed while it waited keeps the configuration it started with; the resume’s is kept beside it', async ({ t, remote }) => {
    const flowId = await approvalFlow(t);
    const job = await waitingRun(t, flowId);
    const before = (await t.request<Body>('GET', `/jobs/${job.job_id}`)).body.data;
    assert.type(before.revision, 'number');
    const fetchStep = before.ran_with[0];
    assert.is(fetchStep.handler_config.max_items, 5);
    const changed = await t.request<Body>('PUT', `/flows/steps/${fetchStep.flow_step_id}/handler`, {
      body: { handler_slug: 'appr-feed', settings: { max_items: 2 } },
    });
    assert.is(changed.status, 200, JSON.stringify(changed.body));
    await decide(t, job.job_id, 'approve');
    const done = await jobIn(t, job.job_id, ['completed', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.is(done.revision, before.revision, 'the revision the fetch ran with');
    assert.is(done.pipeline_revision, before.pipeline_revision);
    assert.equal(done.ran_with, before.ran_with, 'ran_with is what the run started with');
    assert.equal(before.resumed_with, [], 'nothing resumed while it waited');
    assert.is(done.resumed_with.length, 1, JSON.stringify(done.resumed_with));
    const resumed = done.resumed_with[0];
    assert.is(resumed.position, 2);
    assert.ok(resumed.revision > before.revision, JSON.stringify(resumed));
    assert.is(resumed.ran_with[0].handler_config.max_items, 2);

    // Nothing changed while waiting: nothing beside the start's.
    remote.count = 5;
    const again = await waitingRun(t, flowId);
    await decide(t, again.job_id, 'reject');
    const same = await jobIn(t, again.job_id, ['completed', 'failed']);
    assert.equal(same.resumed_with, []);
    assert.is(same.revision, resumed.revision);
  });

  test('the approval step removed while a job waits: approve answers 409 review_step_removed, the job fails saying so', async ({
    t,
    remote,
  }) => {
    const flowId = await approvalFlow(t);
    const job = await waitingRun(t, flowId);
    const flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    const psid = job.review.flow_step_id.slice(0, -`_${flowId}`.length);
    const removed = await t.request<Body>('DELETE', `/pipelines/${flow.pipeline_id}/steps/${psid}`);
    assert.is(removed.status, 200, JSON.stringify(removed.body));
    const approve = await decide(t, job.job_id, 'approve');
    assert.is(approve.status, 409, JSON.stringify(approve.body));
    assert.is(approve.body.code, 'review_step_removed');
    assert.match(approve.body.message, 'approval step');
    assert.match(approve.body.message, 'removed from the flow while the run waited');
    const failed = await jobIn(t, job.job_id, ['failed', 'completed']);
    assert.is(failed.status, 'failed');
    assert.not.match(failed.error, 'undefined');
    assert.match(failed.error, `job ${job.job_id} waited at (step 2) was removed from the flow`);
    assert.is(failed.review.ended_by, 'removed');
    assert.ok(failed.review.ended_at);
    assert.equal(remote.posted, []);
    // Its items were given back: the next run fetches them again.
    assert.is((await decide(t, job.job_id, 'approve')).body.code, 'job_not_waiting');
  });

  test('the review page lists what is decided: each item’s title, text (plain) and id', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    const { review } = await linkOf(t, job.job_id);
    const shown = await anon(t, 'GET', review);
    assert.is(shown.status, 200);
    const body = String(shown.body);
    for (const n of [1, 2, 3]) {
      assert.match(body, `Story ${n}`);
      assert.match(body, `Body ${n}`);
      assert.match(body, `urn:appr:${n}`);
    }
    assert.not.match(body, '<p>Body', 'the text is shown as text, not as markup');
    assert.not.match(body, '&lt;p&gt;', 'the markup is not shown either');
    await t.request('POST', `/jobs/${job.job_id}/cancel`);
  });

  test('a used link: the page’s form answers an HTML page (409), an API caller JSON review_link_used', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    const { review } = await linkOf(t, job.job_id);
    const token = review.searchParams.get('token')!;
    const path = new URL(review.pathname, review);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const used = await anon(t, 'POST', path, `token=${encodeURIComponent(token)}&decision=reject`, form);
    assert.is(used.status, 200, String(used.body));
    const again = await anon(t, 'POST', path, `token=${encodeURIComponent(token)}&decision=approve`, form);
    assert.is(again.status, 409, String(again.body));
    assert.match(String(again.headers.get('content-type')), 'text/html');
    assert.match(String(again.body), 'already been used');
    const json = await anon(t, 'POST', path, { token, decision: 'approve' });
    assert.is(json.status, 409);
    assert.is(json.body.code, 'review_link_used');
    const bad = await anon(t, 'POST', path, `token=v1.nope&decision=approve`, form);
    assert.is(bad.status, 403);
    assert.match(String(bad.headers.get('content-type')), 'text/html');
  });

  test('an expired link: review-links issues a fresh one that works; the old one stays refused', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t, { link_hours: 1 }));
    const old = await linkOf(t, job.job_id);
    t.clock.advance(61 * 60_000);
    try {
      const fresh = await linkOf(t, job.job_id);
      assert.is.not(fresh.review.href, old.review.href, 'a new link');
      const links = await t.request<Body>('GET', `/jobs/${job.job_id}/review-links`);
      assert.ok(new Date(links.body.data.expires_at).getTime() > t.clock.now().getTime(), 'not expired');
      assert.is((await anon(t, 'GET', old.review)).status, 410);
      assert.is((await anon(t, 'GET', fresh.review)).status, 200);
    } finally {
      t.clock.set(Date.now());
    }
    await t.request('POST', `/jobs/${job.job_id}/cancel`);
  });

  test('webhook mode: a delivery with no body is refused (400) and decides nothing', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t, { mode: 'webhook' }));
    const { webhook } = await linkOf(t, job.job_id);
    const empty = await anon(t, 'POST', webhook!);
    assert.is(empty.status, 400, JSON.stringify(empty.body));
    assert.is(empty.body.code, 'rest_invalid_param');
    assert.is((await jobIn(t, job.job_id, ['waiting'])).review.pending, 3);
    assert.is((await anon(t, 'POST', webhook!, { ok: true })).status, 200, 'the link was not used up');
  });

  test('a cancelled waiting job’s review ends: ended_at, ended_by cancelled, nothing pending', async ({ t }) => {
    const job = await waitingRun(t, await approvalFlow(t));
    assert.is((await t.request<Body>('POST', `/jobs/${job.job_id}/cancel`)).status, 200);
    const cancelled = await jobIn(t, job.job_id, ['cancelled']);
    assert.ok(cancelled.review.ended_at, JSON.stringify(cancelled.review));
    assert.is(cancelled.review.ended_by, 'cancelled');
    assert.is(cancelled.review.pending, 0);
  });

  test('approval settings are checked at save (400 naming the field); null removes a key; GET /step-types shows them', async ({ t }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Checked' } })).body.data.pipeline_id;
    const added = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'approval', execution_order: 0 } });
    const psid = added.body.data.pipeline_step_id;
    const put = (body: Body) => t.request<Body>('PUT', `/pipelines/steps/${psid}/config`, { body });
    for (const [body, field] of [
      [{ mode: 'sometimes' }, 'mode'],
      [{ timeout_minutes: -5 }, 'timeout_minutes'],
      [{ link_hours: 'x' }, 'link_hours'],
      [{ on_timeout: 'maybe' }, 'on_timeout'],
      [{ junk: 1 }, 'junk'],
    ] as const) {
      const res = await put(body);
      assert.is(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'rest_invalid_param');
      assert.match(res.body.message, field);
      assert.ok(field in res.body.data.params, JSON.stringify(res.body.data));
    }
    const ok = await put({ mode: 'webhook', timeout_minutes: 60, on_timeout: 'approve' });
    assert.is(ok.status, 200, JSON.stringify(ok.body));
    assert.equal([ok.body.data.mode, ok.body.data.timeout_minutes, ok.body.data.on_timeout], ['webhook', 60, 'approve']);
    const unset = await put({ mode: null });
    assert.is(unset.status, 200, JSON.stringify(unset.body));
    assert.not.ok('mode' in unset.body.data, `null removed the key: ${JSON.stringify(unset.body.data)}`);
    assert.is(unset.body.data.timeout_minutes, 60);

    const types = await t.request<Body>('GET', '/step-types');
    assert.is(types.status, 200, JSON.stringify(types.body));
    const approval = types.body.data.approval;
    assert.is(approval.handler_type, null);
    assert.equal(Object.keys(approval.settings).sort(), ['link_hours', 'mode', 'on_timeout', 'timeout_minutes']);
    assert.equal(approval.settings.mode.options, ['review', 'webhook']);
    assert.equal(types.body.data.fetch.settings, {});
  });

  test('an ephemeral workflow waits too and goes on when approved', async ({ t, remote }) => {
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'appr-feed', handler_config: { max_items: 5 } },
          { type: 'approval', handler_config: { timeout_minutes: 5 } },
          { type: 'publish', handler_slug: 'appr-pub' },
        ],
      },
    });
    assert.is(job.status, 'waiting', JSON.stringify(job));
    await decide(t, job.job_id, 'approve', ids(2));
    await decide(t, job.job_id, 'reject');
    assert.is((await jobIn(t, job.job_id, ['completed', 'failed'])).status, 'completed');
    assert.ok(remote.posted.includes('urn:appr:2'));
  });

  test.run();
}
