// The run record (issue 53): each step's input and output items (bounded, secrets masked,
// with what was cut), what started the run and the flow's configuration as it ran, in
// GET /jobs/{id}; a step's record is stored when the step ends, not only with the run's end.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { validateJobDetail as validateDetail } from '../../support/job-detail-validator.js';
import { ITEM_SECRET, SETTING_SECRET, newRemote, recordProbe, twoStepFlow, type Remote } from '../../support/run-record-probe.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

async function jobDetail(t: TestHost, jobId: number): Promise<Body> {
  const res = await t.request<Body>('GET', `/jobs/${jobId}`, { query: { include: 'packets' } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.ok(validateDetail(res.body), JSON.stringify(validateDetail.errors));
  return res.body.data;
}

for (const store of testStores('run record')) {
  type Ctx = { t: TestHost; remote: Remote };
  const test = suite<Ctx>(`run record (${store.label})`);
  test.before(async (ctx) => {
    ctx.remote = newRemote();
    ctx.t = await createTestHost({ plugins: [recordProbe(ctx.remote)], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
  });

  test('a failed run keeps each step’s input and output items, secrets masked, and what started it', async ({ t, remote }) => {
    const { flowId, steps } = await twoStepFlow(t);
    remote.failAt = 3;
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'failed');
    const detail = await jobDetail(t, job.job_id);
    const [fetch, publish] = detail.steps as Body[];
    assert.is(fetch!.input.count, 0);
    assert.equal(fetch!.input.items, []);
    assert.equal(
      fetch!.output.items.map((i: Body) => i.data.guid),
      [1, 2, 3, 4, 5].map((n) => `urn:rec:${n}`),
    );
    assert.is(fetch!.output.count, 5);
    assert.is(fetch!.output.truncated, null);
    assert.is(fetch!.output.items[0].data.title, 'Story 1');
    assert.is(publish!.status, 'failed');
    assert.is(publish!.error, 'remote refused item 3');
    assert.is(publish!.input.items.length, 5);
    assert.is(publish!.output, null);
    // The item's secret-looking field is masked wherever the record shows it.
    assert.ok(fetch!.output.masked);
    assert.not.ok(JSON.stringify(detail).includes(ITEM_SECRET), 'no item secret in the record');
    assert.match(String(fetch!.output.items[0].data.api_token), /^•+/);
    // What started it, and the flow as it ran (the handler's secret masked).
    assert.equal(detail.trigger, { kind: 'execute', retry_of: null, retried_by: null, user_login: 'admin' });
    assert.equal(
      detail.ran_with.map((s: Body) => [s.flow_step_id, s.step_type, s.handler_slug, s.enabled]),
      [
        [steps[0], 'fetch', 'rec-feed', true],
        [steps[1], 'publish', 'rec-pub', true],
      ],
    );
    assert.is(detail.ran_with[0].handler_config.max_items, 5);
    assert.type(detail.ran_with[1].handler_config.api_key, 'string');
    assert.not.ok(JSON.stringify(detail).includes(SETTING_SECRET), 'no handler secret in the record');
    // Without include=packets the bodies stay out, as before.
    const plain = (await t.request<Body>('GET', `/jobs/${job.job_id}`)).body.data;
    assert.is(plain.steps[0].input, undefined);
    assert.not.ok(JSON.stringify(plain.steps).includes('Body 1'));
  });

  test('a step’s record is stored when the step ends, before the run ends', async ({ t, remote }) => {
    const { flowId } = await twoStepFlow(t);
    remote.failAt = null;
    let release!: () => void;
    remote.hold = new Promise((resolve) => {
      release = resolve;
    });
    const publishing = new Promise<void>((resolve) => {
      remote.holding = resolve;
    });
    const started = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } });
    const jobId = started.body.data?.job_id ?? started.body.job_id;
    await publishing;
    // The run is inside its second step: the first step's record is in the store already.
    const during = await jobDetail(t, jobId);
    assert.is(during.status, 'processing');
    assert.is(during.steps.length, 1);
    assert.is(during.steps[0].output.count, 5);
    assert.is(during.ran_with.length, 2);
    remote.holding = null;
    remote.hold = null;
    release();
    const done = await t.waitForJob(jobId);
    assert.is(done.status, 'completed');
    const after = await jobDetail(t, jobId);
    assert.equal(
      after.steps[1].published.map((p: Body) => p.id),
      [1, 2, 3, 4, 5].map((n) => `post-urn:rec:${n}`),
    );
    assert.is(after.steps[1].output.count, 5);
  });

  test('a webhook run says so, with its request id and its payload (secrets masked)', async ({ t, remote }) => {
    const { flowId } = await twoStepFlow(t);
    remote.failAt = null;
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    const payload = { event: 'story.published', items: [{ id: 7 }], password: 'payload-secret-value-123456' };
    const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${enabled.body.data.token as string}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    });
    assert.is(res.status, 200);
    const jobId = ((await res.json()) as Body).job_id as number;
    await t.waitForJob(jobId);
    const detail = await jobDetail(t, jobId);
    assert.is(detail.trigger.kind, 'webhook');
    assert.is(detail.trigger.user_login, null);
    assert.is(detail.trigger.webhook.request_id, res.headers.get('x-request-id'));
    assert.equal(detail.trigger.webhook.payload.items, [{ id: 7 }]);
    assert.is(detail.trigger.webhook.payload.event, 'story.published');
    assert.is(detail.trigger.webhook.truncated, null);
    assert.not.ok(JSON.stringify(detail).includes('payload-secret-value-123456'), 'the payload’s secret is masked');
  });

  test.run();

  const small = suite<Ctx>(`run record past its size (${store.label})`);
  small.before(async (ctx) => {
    ctx.remote = newRemote();
    ctx.remote.body = 'x'.repeat(600);
    ctx.t = await createTestHost({ plugins: [recordProbe(ctx.remote)], config: { ...store.config(), stepRecordBytes: 2048 } });
  });
  small.after(async (ctx) => {
    await ctx.t.stop();
  });

  small('items past FLOWHOST_STEP_RECORD_BYTES are counted, not kept: the marker says how many and how many bytes', async ({ t }) => {
    const { flowId } = await twoStepFlow(t);
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed');
    const output = (await jobDetail(t, job.job_id)).steps[0].output as Body;
    assert.is(output.count, 5);
    assert.ok(output.items.length >= 1 && output.items.length < 5, String(output.items.length));
    assert.is(output.truncated.items, 5 - output.items.length);
    assert.ok(output.truncated.bytes > 600 * output.truncated.items, String(output.truncated.bytes));
    assert.ok(JSON.stringify(output.items).length <= 2048);
  });

  small.run();
}
