// A sender's retry of a delivery it got no answer for (the host died after storing the job,
// a timeout on the way back) is safe on every flow mode when the sender sends an
// Idempotency-Key: the repeat answers the first delivery's job and starts nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { EventDedupe } from '../../../core/webhooks/event-dedupe.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Answer = { status: number; body: Body };

const SECRET = 'idempotency-secret-value-0123456789';
const TEMPLATE = {
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{body}',
  signature_source: { header: 'X-Signature', extract: { kind: 'raw' }, encoding: 'hex' },
};

for (const store of testStores('webhooks: idempotency keys')) {
  type Ctx = { t: TestHost; pipelineId: number };
  const test = suite<Ctx>(`webhooks: Idempotency-Key on the trigger (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.pipelineId = (
      await ctx.t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Idempotent', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
  });
  test.after(async (ctx) => ctx.t.stop());

  async function newFlow(t: TestHost, pipelineId: number, trigger: Record<string, unknown>): Promise<{ flowId: number; token?: string }> {
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Keyed' } })).body.data
      .flow_id as number;
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: trigger });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    return { flowId, token: enabled.body.data.token as string | undefined };
  }
  async function post(t: TestHost, flowId: number, headers: Record<string, string>, body = '{"n":1}'): Promise<Answer> {
    const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Body };
  }
  const bearer = (token: string, key?: string) => ({
    Authorization: `Bearer ${token}`,
    ...(key !== undefined ? { 'Idempotency-Key': key } : {}),
  });
  const jobsOf = (t: TestHost, flowId: number) => t.host.store.collection<Body>('jobs').find({ flow_id: flowId }, { sort: { job_id: 1 } });

  test('bearer: the same delivery twice with one key is one job; the repeat names it', async ({ t, pipelineId }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    const first = await post(t, flowId, bearer(token!, 'order-1001'));
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.duplicate, undefined);
    const repeat = await post(t, flowId, bearer(token!, 'order-1001'));
    assert.is(repeat.status, 200);
    assert.equal(repeat.body, {
      success: true,
      flow_id: flowId,
      flow_name: 'Keyed',
      job_id: first.body.job_id,
      message: 'Idempotency-Key order-1001 was already accepted; flow "Keyed" not triggered again.',
      duplicate: true,
    });
    // The draft's structured-field form ("…") is the same key.
    assert.is((await post(t, flowId, bearer(token!, '"order-1001"'))).body.job_id, first.body.job_id);
    const jobs = await jobsOf(t, flowId);
    assert.is(jobs.length, 1);
    assert.is(jobs[0]!.engine_data.webhook_trigger.idempotency_key, 'order-1001', 'the run records the key it was accepted under');
  });

  test('different keys, or none, are different deliveries (one job each)', async ({ t, pipelineId }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    const a = await post(t, flowId, bearer(token!, 'a'));
    const b = await post(t, flowId, bearer(token!, 'b'));
    const none1 = await post(t, flowId, bearer(token!));
    const none2 = await post(t, flowId, bearer(token!));
    assert.equal([a.status, b.status, none1.status, none2.status], [200, 200, 200, 200]);
    assert.is(new Set([a, b, none1, none2].map((x) => x.body.job_id)).size, 4);
    assert.is((await jobsOf(t, flowId)).length, 4);
  });

  test('a key sent by a request that does not authenticate claims nothing; a bad key on it is still a 401', async ({ t, pipelineId }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    const stranger = await post(t, flowId, { Authorization: `Bearer ${'0'.repeat(64)}`, 'Idempotency-Key': 'shared-key' });
    assert.is(stranger.status, 401);
    const strangerBadKey = await post(t, flowId, { 'Idempotency-Key': 'x'.repeat(300) });
    assert.is(strangerBadKey.status, 401, 'nothing tells a stranger how far its request got');
    const real = await post(t, flowId, bearer(token!, 'shared-key'));
    assert.is(real.status, 200);
    assert.is(real.body.duplicate, undefined);
    assert.is((await jobsOf(t, flowId)).length, 1);
    assert.is(await t.host.store.collection('webhook_events').count({ flow_id: flowId }), 1);
  });

  test('a bad key is refused with a clear 400 and no job; 255 visible characters are a key', async ({ t, pipelineId }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    const tooLong = await post(t, flowId, bearer(token!, 'k'.repeat(256)));
    assert.is(tooLong.status, 400);
    assert.is(tooLong.body.code, 'invalid_idempotency_key');
    assert.is(
      tooLong.body.message,
      'Invalid Idempotency-Key header: it is 256 characters long. Send one key of 1 to 255 visible ASCII characters (no spaces or commas), e.g. a UUID.',
    );
    assert.not.match(tooLong.body.message, /kkkk/, 'the bad value is not echoed');
    for (const [key, why] of [
      ['', /it is empty/],
      ['two words', /a space/],
      ['a, b', /more than once/],
      ['caf\u00e9', /outside visible ASCII/],
    ] as const) {
      // fetch refuses a header value outside Latin-1, not é: sent as it is.
      const answer = await post(t, flowId, bearer(token!, key));
      assert.is(answer.status, 400, `'${key}'`);
      assert.is(answer.body.code, 'invalid_idempotency_key');
      assert.match(answer.body.message, why);
    }
    assert.is((await jobsOf(t, flowId)).length, 0);
    const longest = await post(t, flowId, bearer(token!, 'k'.repeat(255)));
    assert.is(longest.status, 200);
    assert.is((await post(t, flowId, bearer(token!, 'k'.repeat(255)))).body.job_id, longest.body.job_id);
  });

  test('a key sent again with another body is a sender mistake: 422, and the first job stands alone', async ({ t, pipelineId }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    assert.is((await post(t, flowId, bearer(token!, 'reused'), '{"order":1}')).status, 200);
    const other = await post(t, flowId, bearer(token!, 'reused'), '{"order":2}');
    assert.is(other.status, 422);
    assert.is(other.body.code, 'idempotency_key_reused');
    assert.is((await jobsOf(t, flowId)).length, 1);
  });

  test('hmac flows honour the key too, with no duplicate setting turned on', async ({ t, pipelineId }) => {
    const { flowId } = await newFlow(t, pipelineId, { mode: 'hmac', template: TEMPLATE, secret: SECRET });
    const signed = (key: string) => ({
      'X-Signature': createHmac('sha256', SECRET).update('{"n":1}').digest('hex'),
      'Idempotency-Key': key,
    });
    const first = await post(t, flowId, signed('delivery-7'));
    assert.is(first.status, 200);
    const repeat = await post(t, flowId, signed('delivery-7'));
    assert.is(repeat.body.job_id, first.body.job_id);
    assert.is(repeat.body.duplicate, true);
    assert.is((await jobsOf(t, flowId)).length, 1);
  });

  test("the window: a day by default, the flow's duplicate window when it set one", async ({ t, pipelineId }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    const first = await post(t, flowId, bearer(token!, 'daily'));
    t.clock.advance(23 * 3600 * 1000);
    assert.is((await post(t, flowId, bearer(token!, 'daily'))).body.job_id, first.body.job_id, 'remembered within the day');
    t.clock.advance(3600 * 1000 + 1000);
    const nextDay = await post(t, flowId, bearer(token!, 'daily'));
    assert.is(nextDay.body.duplicate, undefined, 'a new delivery after the day');
    assert.is.not(nextDay.body.job_id, first.body.job_id);

    const windowed = await newFlow(t, pipelineId, { mode: 'bearer', dedupe_window_seconds: 60 });
    const once = await post(t, windowed.flowId, bearer(windowed.token!, 'minute'));
    t.clock.advance(61_000);
    assert.is.not((await post(t, windowed.flowId, bearer(windowed.token!, 'minute'))).body.job_id, once.body.job_id);
  });

  test('a delivery whose job was stored but whose host died before answering (or before settling) is not run twice', async ({
    t,
    pipelineId,
  }) => {
    const { flowId, token } = await newFlow(t, pipelineId, { mode: 'bearer' });
    const events = t.host.store.collection<Body>('webhook_events');
    // Died after settling the claim, before the answer left: the retry gets the job.
    const stored = await post(t, flowId, bearer(token!, 'died-after-settle'));
    const retry = await post(t, flowId, bearer(token!, 'died-after-settle'));
    assert.is(retry.body.job_id, stored.body.job_id);

    // Died between storing the job and settling the claim: the claim has no job.
    const unsettled = await post(t, flowId, bearer(token!, 'died-before-settle'));
    await events.updateOne({ flow_id: flowId, event_id: 'died-before-settle' }, { $set: { job_id: null } });
    // A retry at once waits for the first request, then finds the job stored under the key.
    const soon = await post(t, flowId, bearer(token!, 'died-before-settle'));
    assert.is(soon.status, 200, JSON.stringify(soon.body));
    assert.is(soon.body.job_id, unsettled.body.job_id);
    assert.is((await events.findOne({ flow_id: flowId, event_id: 'died-before-settle' }))?.job_id, unsettled.body.job_id, 'settled now');
    // The same after the claim counts as abandoned (30 s): found, not taken over.
    const late = await post(t, flowId, bearer(token!, 'died-late'));
    await events.updateOne({ flow_id: flowId, event_id: 'died-late' }, { $set: { job_id: null } });
    t.clock.advance(31_000);
    assert.is((await post(t, flowId, bearer(token!, 'died-late'))).body.job_id, late.body.job_id);
    assert.is((await jobsOf(t, flowId)).length, 3);

    // Died after claiming, before storing any job: the retry after 30 s makes the one job.
    const dedupe = new EventDedupe({ store: t.host.store, clock: t.clock });
    assert.ok((await dedupe.claim(flowId, { kind: 'idempotency_key', value: 'died-before-job' }, 3600)).claimed);
    t.clock.advance(31_000);
    const taken = await post(t, flowId, bearer(token!, 'died-before-job'));
    assert.is(taken.status, 200);
    assert.is(taken.body.duplicate, undefined);
    assert.is((await jobsOf(t, flowId)).length, 4);
  });

  test.run();
}
