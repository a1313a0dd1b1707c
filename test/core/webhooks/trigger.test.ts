import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { webhookEcho } from '../../support/webhook-echo.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** What each job's fetch saw, by job id. */
const { plugin: echo, seen, triggerOf: triggerOfJob } = webhookEcho('trigger-fixtures', 'webhook-input');
const triggerOf = async (jobId: number): Promise<Body> => (await triggerOfJob(jobId)) as Body;

for (const store of testStores('webhooks: trigger')) {
  type Ctx = {
    t: TestHost;
    flowId: number;
    trigger: (body: string, headers?: Record<string, string>, query?: string) => Promise<{ status: number; body: Body; headers: Headers }>;
  };
  const test = suite<Ctx>(`webhooks: POST /trigger/{flow_id} (${store.label})`);

  test.before(async (ctx) => {
    seen.clear(); // job ids start again on each store
    ctx.t = await createTestHost({ plugins: [echo], config: store.config() });
    const t = ctx.t;
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Hooked', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const stepId = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    ctx.flowId = (
      await t.request<Body>('POST', '/flows', {
        body: {
          pipeline_id: pipelineId,
          flow_name: 'Hooked flow',
          flow_config: { [stepId]: { handler_slug: 'webhook-input', handler_config: { max_items: 5 } } },
        },
      })
    ).body.data.flow_id;
    ctx.trigger = async (body, headers = {}, query = '') => {
      const res = await fetch(`${t.url}/api/automation/v1/trigger/${ctx.flowId}${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
      return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
    };
  });
  test.after(async (ctx) => ctx.t.stop());

  test('a disabled trigger and an unknown flow answer the same 401', async ({ t, trigger }) => {
    const disabled = await trigger('{}');
    const unknown = await fetch(`${t.url}/api/automation/v1/trigger/99999`, { method: 'POST', body: '{}' });
    assert.is(disabled.status, 401);
    assert.is(unknown.status, 401);
    assert.equal(disabled.body, await unknown.json());
  });

  test('bearer: the token is shown once, works, is masked after; regenerate kills the old one at once', async ({ t, flowId, trigger }) => {
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
    assert.is(enabled.status, 200);
    const token = enabled.body.data.token as string;
    assert.match(token, /^[0-9a-f]{64}$/);
    const status = await t.request<Body>('GET', `/flows/${flowId}/webhook`);
    assert.not.match(JSON.stringify(status.body), new RegExp(token));
    assert.match(status.body.data.token, /^••••••••[0-9a-f]{4}$/);
    const stored = JSON.stringify(await t.host.store.collection('flows').findOne({ flow_id: flowId }));
    assert.not.match(stored, new RegExp(token), 'sealed at rest');

    const ok = await trigger(JSON.stringify({ hello: 'world' }), {
      Authorization: `Bearer ${token}`,
      'X-Custom': 'kept',
      'X-Api-Key': 'dropped',
    });
    assert.is(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(Object.keys(ok.body).sort(), ['flow_id', 'flow_name', 'job_id', 'message', 'success']);
    assert.is(ok.body.flow_name, 'Hooked flow');
    const trig = await triggerOf(ok.body.job_id);
    assert.equal(trig.payload, { hello: 'world' });
    assert.is(trig.auth_mode, 'bearer');
    assert.match(trig.received_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.ok(trig.remote_ip);
    assert.is(trig.headers['x-custom'], 'kept');
    assert.is(trig.headers['x-api-key'], undefined);
    assert.is(trig.headers.authorization, undefined);

    assert.is((await trigger('{}', { Authorization: 'Bearer nope' })).status, 401);
    assert.is((await trigger('{}')).status, 401);
    const logs = await t.request<Body>('GET', '/logs', { query: { level: 'warning', flow_id: flowId } });
    assert.ok(
      logs.body.items.some((e: Body) => /bearer token does not match/.test(e.message)),
      'the reason is in the flow log',
    );

    const regenerated = (await t.request<Body>('POST', `/flows/${flowId}/webhook/regenerate`)).body.data.token as string;
    assert.is.not(regenerated, token);
    assert.is((await trigger('{}', { Authorization: `Bearer ${token}` })).status, 401);
    assert.is((await trigger('{}', { Authorization: `Bearer ${regenerated}` })).status, 200);
  });

  test('form bodies are decoded; an authenticated body that does not decode is 400; empty is {}', async ({ t, flowId, trigger }) => {
    // A flow never runs twice at once: wait for earlier runs, or this one would be skipped.
    for (let i = 0; i < 200; i++) {
      const busy = await Promise.all(
        ['pending', 'processing'].map(
          async (status) => (await t.request<Body>('GET', '/jobs', { query: { flow_id: flowId, status } })).body.total as number,
        ),
      );
      if (busy[0] === 0 && busy[1] === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const token = (await t.request<Body>('POST', `/flows/${flowId}/webhook/regenerate`)).body.data.token as string;
    const form = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=two',
    });
    assert.is(form.status, 200);
    assert.equal((await triggerOf(((await form.json()) as Body).job_id)).payload, { a: '1', b: 'two' });
    assert.is((await trigger('{broken', { Authorization: `Bearer ${token}` })).status, 400);
    assert.is((await trigger('{broken')).status, 401, 'authentication comes before decoding');
    assert.is((await trigger('', { Authorization: `Bearer ${token}` })).status, 200);
  });

  test('webhookReceived: a listener learns of each accepted delivery without its credentials; one that fails does not fail the sender', async () => {
    // A host of its own: the listeners stay tapped, and the refused delivery counts against the address.
    const t = await createTestHost({ plugins: [echo], config: store.config() });
    try {
      const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Told', steps: [{ step_type: 'fetch' }] } }))
        .body.data.pipeline_id;
      const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Told flow' } })).body.data
        .flow_id as number;
      const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
      assert.is(enabled.status, 200);
      const token = enabled.body.data.token as string;
      const trigger = async (body: string, headers: Record<string, string>) => {
        const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body,
        });
        return { status: res.status, body: (await res.json()) as Body };
      };
      const events: Array<{ flowId: number; jobId: number; headers: Record<string, string | undefined> }> = [];
      // The trigger's own hook, as a plugin listens to it (services.webhookEvents).
      const webhookEvents = await t.host.services.get(services.webhookEvents, 'received-test');
      webhookEvents.webhookReceived.tapPromise('received-test', async (event) => {
        events.push(event as (typeof events)[number]);
      });
      const accepted = await trigger('{"n":1}', { Authorization: `Bearer ${token}`, 'X-Delivery': 'd-1' });
      assert.is(accepted.status, 200, JSON.stringify(accepted.body));
      assert.is(events.length, 1);
      assert.is(events[0]!.flowId, flowId);
      assert.is(events[0]!.jobId, accepted.body.job_id);
      assert.is(events[0]!.headers['x-delivery'], 'd-1');
      assert.not.ok('authorization' in events[0]!.headers, 'the credentials are not handed on');
      const refused = await trigger('{"n":2}', { Authorization: 'Bearer wrong' });
      assert.is(refused.status, 401);
      assert.is(events.length, 1, 'a refused delivery is not an event');
      webhookEvents.webhookReceived.tapPromise('failing-listener', async () => {
        throw new Error('listener down');
      });
      const still = await trigger('{"n":3}', { Authorization: `Bearer ${token}` });
      assert.is(still.status, 200, JSON.stringify(still.body));
      assert.is(events.length, 2);
    } finally {
      await t.stop();
    }
  });

  test("an accepted delivery's trigger line is stored before the 200 goes out", async () => {
    // What happened, in order: the log's writes and the trigger's answer (hooks tapped at setup, as a plugin does).
    const events: string[] = [];
    const watch = definePlugin({
      id: 'order-watch',
      version: '1.0.0',
      flowhost: '^1.0.0',
      deps: { hooks: services.hooks },
      setup({ hooks }) {
        hooks.storeOperationTimed.tap('order-watch', (timing) => {
          if (timing.collection === 'logs' && timing.operation.startsWith('insert')) events.push('log line stored');
        });
        hooks.requestFinished.tap('order-watch', (timing) => {
          if (timing.route.includes('/trigger/')) events.push(`answered ${timing.status}`);
        });
      },
    });
    const t = await createTestHost({ plugins: [echo, watch], config: store.config() });
    try {
      const pipelineId = (
        await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Lined', steps: [{ step_type: 'fetch' }] } })
      ).body.data.pipeline_id;
      const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Lined flow' } })).body.data
        .flow_id as number;
      const token = (await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } })).body.data.token as string;
      await t.host.logs.flush();
      events.length = 0;
      const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: '{}',
      });
      assert.is(res.status, 200);
      const requestId = res.headers.get('x-request-id');
      assert.equal(events.slice(0, 2), ['log line stored', 'answered 200']);
      const line = await t.host.store.collection('logs').findOne({ 'context.request_id': requestId });
      assert.match(String(line?.message), /triggered by webhook/);
    } finally {
      await t.stop();
    }
  });

  test('429 over the flow rate limit, with Retry-After', async ({ t, flowId, trigger }) => {
    const token = (await t.request<Body>('POST', `/flows/${flowId}/webhook/regenerate`)).body.data.token as string;
    assert.is((await t.request<Body>('PUT', `/flows/${flowId}/webhook/rate-limit`, { body: { max: 2, window_seconds: 60 } })).status, 200);
    assert.is((await trigger('{}', { Authorization: `Bearer ${token}` })).status, 200);
    assert.is((await trigger('{}', { Authorization: `Bearer ${token}` })).status, 200);
    const limited = await trigger('{}', { Authorization: `Bearer ${token}` });
    assert.is(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    await t.request('PUT', `/flows/${flowId}/webhook/rate-limit`, { body: { max: 1000, window_seconds: 60 } });
  });

  test('admin routes: bad mode 400, unknown preset 400, disable forgets the token, anonymous and editors refused', async ({
    t,
    flowId,
    trigger,
  }) => {
    assert.is((await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'telepathy' } })).body.code, 'invalid_mode');
    assert.is(
      (await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'hmac', preset: 'nope' } })).body.code,
      'preset_not_found',
    );
    assert.is((await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'hmac' } })).body.code, 'template_required');
    const editor = await t.createUser(`hook-editor-${Date.now()}`, 'editor');
    assert.is((await t.request('GET', `/flows/${flowId}/webhook`, { as: editor })).status, 403);
    assert.is((await t.request('GET', `/flows/${flowId}/webhook`, { as: 'anonymous' })).status, 401);
    const token = (await t.request<Body>('POST', `/flows/${flowId}/webhook/regenerate`)).body.data.token as string;
    assert.is((await t.request('DELETE', `/flows/${flowId}/webhook`)).status, 200);
    assert.is((await trigger('{}', { Authorization: `Bearer ${token}` })).status, 401);
    assert.equal((await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data, { flow_id: flowId, enabled: false });
    assert.is((await t.request<Body>('GET', '/webhook-presets')).status, 200);
  });

  test('hmac: a signed request passes, a wrong one is 401 with the reason logged, rotation keeps the old secret during grace, 413 over max_body_bytes', async ({
    t,
    flowId,
    trigger,
  }) => {
    const template = {
      mode: 'hmac',
      algo: 'sha256',
      signed_template: '{timestamp}.{body}',
      signature_source: { header: 'X-Signature', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
      timestamp_source: { header: 'X-Timestamp', format: 'unix' },
      tolerance_seconds: 300,
      max_body_bytes: 2048,
    };
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
      body: { mode: 'hmac', template, secret: 'first-secret-value-0123456789' },
    });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    const sign = (secret: string, body: string, ts = Math.floor(t.clock.now().getTime() / 1000)) => ({
      'X-Timestamp': String(ts),
      'X-Signature': `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`,
    });
    const body = JSON.stringify({ event: 'ping' });
    assert.is((await trigger(body, sign('first-secret-value-0123456789', body))).status, 200);
    assert.is((await trigger(body, sign('wrong-secret-value-0123456789', body))).status, 401);
    assert.is(
      (await trigger(body, sign('first-secret-value-0123456789', body, Math.floor(t.clock.now().getTime() / 1000) - 3600))).status,
      401,
      'stale timestamp',
    );
    const logs = await t.request<Body>('GET', '/logs', { query: { level: 'warning', flow_id: flowId, per_page: 50 } });
    assert.ok(logs.body.items.length >= 2);

    const rotated = await t.request<Body>('POST', `/flows/${flowId}/webhook/secrets`, {
      body: { secret: 'second-secret-value-0123456789', ttl_seconds: 3600 },
    });
    assert.is(rotated.status, 201);
    assert.is((await trigger(body, sign('first-secret-value-0123456789', body))).status, 200, 'old secret valid during grace');
    assert.is((await trigger(body, sign('second-secret-value-0123456789', body))).status, 200);
    t.clock.advance(3601 * 1000);
    assert.is((await trigger(body, sign('first-secret-value-0123456789', body))).status, 401, 'old secret refused after grace');
    assert.is((await trigger(body, sign('second-secret-value-0123456789', body))).status, 200);
    const status = await t.request<Body>('GET', `/flows/${flowId}/webhook`);
    assert.is(status.body.data.secrets.length, 1);
    assert.not.match(JSON.stringify(status.body), /second-secret-value/);

    const big = JSON.stringify({ blob: 'x'.repeat(5000) });
    const tooBig = await trigger(big, sign('second-secret-value-0123456789', big));
    assert.is(tooBig.status, 413);
  });

  // Last: it spends this address's failure budgets.
  test('failures from one address: 401, then 429 over the budget; a correctly authenticated delivery from it is still accepted', async ({
    t,
    flowId,
    trigger,
  }) => {
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    const token = enabled.body.data.token as string;
    assert.match(token, /^[0-9a-f]{64}$/);
    const wrong = { Authorization: `Bearer ${'0'.repeat(64)}` };
    const refusalLines = async () => {
      const warnings = await t.request<Body>('GET', '/logs', { query: { level: 'warning', flow_id: flowId, per_page: 500 } });
      return warnings.body.items.filter((e: Body) => /bearer token does not match/.test(e.message)).length as number;
    };
    const linesBefore = await refusalLines();
    const answers: number[] = [];
    let limited: Awaited<ReturnType<typeof trigger>> | null = null;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await trigger('{}', wrong);
      answers.push(res.status);
      if (res.status === 429) limited = res;
    }
    assert.ok(limited, `never refused: ${answers.join(',')}`);
    assert.ok(
      answers.slice(0, -1).every((s) => s === 401),
      answers.join(','),
    );
    assert.is(limited.body.code, 'rest_too_many_requests');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // The sender fixed its token: accepted at once, not locked out for the window.
    const fixed = await trigger(JSON.stringify({ n: 1 }), { Authorization: `Bearer ${token}` });
    assert.is(fixed.status, 200, JSON.stringify(fixed.body));
    assert.equal((await triggerOf(fixed.body.job_id)).payload, { n: 1 });
    assert.is((await trigger('{}', { Authorization: `Bearer ${token}` })).status, 200, 'and again');
    // A guess over the budget is still refused, and still counted.
    assert.is((await trigger('{}', wrong)).status, 429);
    // Warnings stop at the budget: a guesser cannot fill the flow's log.
    const added = (await refusalLines()) - linesBefore;
    assert.is(added, answers.filter((s) => s === 401).length, 'one line per 401, none for the 429s');
  });

  test.run();
}
