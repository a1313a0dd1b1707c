import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { EventDedupe } from '../../../core/webhooks/event-dedupe.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const SECRET = 'dedupe-secret-value-0123456789';
const TEMPLATE = {
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{id}.{body}',
  signature_source: { header: 'X-Signature', extract: { kind: 'raw' }, encoding: 'hex' },
  id_source: { header: 'X-Event-Id' },
};

for (const store of testStores('webhooks: duplicate events')) {
  type Ctx = { t: TestHost; pipelineId: number };
  const test = suite<Ctx>(`webhooks: opt-in duplicate event-id protection (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.pipelineId = (
      await ctx.t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Dedupe', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
  });
  test.after(async (ctx) => ctx.t.stop());

  async function hmacFlow(t: TestHost, pipelineId: number, extra: Record<string, unknown> = {}): Promise<number> {
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Deduped' } })).body.data
      .flow_id as number;
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
      body: { mode: 'hmac', template: TEMPLATE, secret: SECRET, ...extra },
    });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    return flowId;
  }
  async function send(t: TestHost, flowId: number, eventId: string | null, body = '{"n":1}'): Promise<{ status: number; body: Body }> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Signature': createHmac('sha256', SECRET)
        .update(`${eventId ?? ''}.${body}`)
        .digest('hex'),
    };
    if (eventId !== null) headers['X-Event-Id'] = eventId;
    const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, { method: 'POST', headers, body });
    return { status: res.status, body: (await res.json()) as Body };
  }
  const jobCount = async (t: TestHost, flowId: number) => t.host.store.collection('jobs').count({ flow_id: flowId });

  test('off by default: the same event id twice starts two runs (the spec)', async ({ t, pipelineId }) => {
    const flowId = await hmacFlow(t, pipelineId);
    const first = await send(t, flowId, 'evt-1');
    const second = await send(t, flowId, 'evt-1');
    assert.is(first.status, 200);
    assert.is(second.status, 200);
    assert.is.not(second.body.job_id, first.body.job_id);
    assert.is(second.body.duplicate, undefined);
    assert.is(await jobCount(t, flowId), 2);
  });

  test('on: a repeat inside the window answers the original job with duplicate: true and starts nothing', async ({ t, pipelineId }) => {
    const flowId = await hmacFlow(t, pipelineId, { dedupe_window_seconds: 3600 });
    assert.is((await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data.dedupe_window_seconds, 3600);
    const first = await send(t, flowId, 'evt-1');
    assert.is(first.status, 200);
    assert.is(first.body.duplicate, undefined);
    const repeat = await send(t, flowId, 'evt-1');
    assert.is(repeat.status, 200);
    assert.is(repeat.body.duplicate, true);
    assert.is(repeat.body.job_id, first.body.job_id);
    assert.is(repeat.body.flow_id, flowId);
    assert.is(await jobCount(t, flowId), 1);

    assert.is.not((await send(t, flowId, 'evt-2')).body.job_id, first.body.job_id, 'another id is another event');
    assert.is(await jobCount(t, flowId), 2);
    // An id the signature covers cannot be swapped: a changed id with the old signature is refused.
    const forged = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { 'X-Event-Id': 'evt-3', 'X-Signature': createHmac('sha256', SECRET).update('evt-1.{"n":1}').digest('hex') },
      body: '{"n":1}',
    });
    assert.is(forged.status, 401);

    t.clock.advance(3601 * 1000);
    const later = await send(t, flowId, 'evt-1');
    assert.is(later.body.duplicate, undefined, 'after the window the id is new again');
    assert.is(await jobCount(t, flowId), 3);
  });

  test('the same event arriving many times at once creates exactly one job; every answer names it', async ({ t, pipelineId }) => {
    const flowId = await hmacFlow(t, pipelineId, { dedupe_window_seconds: 600 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(t, flowId, 'storm')));
    assert.equal(new Set(answers.map((a) => a.status)), new Set([200]));
    assert.is(new Set(answers.map((a) => a.body.job_id)).size, 1);
    assert.is(answers.filter((a) => a.body.duplicate === true).length, 7);
    assert.is(await jobCount(t, flowId), 1);
  });

  test('a request refused by the rate limit does not make its retry a duplicate', async ({ t, pipelineId }) => {
    const flowId = await hmacFlow(t, pipelineId, { dedupe_window_seconds: 600 });
    await t.request('PUT', `/flows/${flowId}/webhook/rate-limit`, { body: { max: 1, window_seconds: 1 } });
    assert.is((await send(t, flowId, 'a')).status, 200);
    const windowOpened = Date.now();
    assert.is((await send(t, flowId, 'b')).status, 429);
    t.clock.advance(1000); // past the 1 s window: the embedded store's limiter reads the host's clock
    // On MongoDB the counters live in the database so they hold across hosts, and
    // rate-limiter-flexible times them on real time: wait out the real window there.
    if (store.label === 'mongodb') await new Promise((r) => setTimeout(r, Math.max(0, windowOpened + 1100 - Date.now())));
    const retry = await send(t, flowId, 'b');
    assert.is(retry.status, 200);
    assert.is(retry.body.duplicate, undefined);
    assert.is(await jobCount(t, flowId), 2);
  });

  test('a request without its event id: refused when the id is signed, accepted (not deduplicated) when it is only informative', async ({
    t,
    pipelineId,
  }) => {
    const signed = await hmacFlow(t, pipelineId, { dedupe_window_seconds: 600 });
    assert.is((await send(t, signed, null)).status, 401);

    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Informative id' } })).body.data
      .flow_id as number;
    const template = { ...TEMPLATE, signed_template: '{body}' };
    assert.is(
      (
        await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
          body: { mode: 'hmac', template, secret: SECRET, dedupe_window_seconds: 600 },
        })
      ).status,
      200,
    );
    const post = (eventId: string | null) =>
      fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
        method: 'POST',
        headers: { 'X-Signature': createHmac('sha256', SECRET).update('{}').digest('hex'), ...(eventId ? { 'X-Event-Id': eventId } : {}) },
        body: '{}',
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Body }));
    const a = await post(null);
    const b = await post(null);
    assert.equal([a.status, b.status], [200, 200]);
    assert.is.not(a.body.job_id, b.body.job_id);
    const c = await post('same');
    assert.is((await post('same')).body.job_id, c.body.job_id);
    assert.is(await jobCount(t, flowId), 3);
  });

  test('configuration: bearer and templates without id_source take a window with a warning (it keys on Idempotency-Key); PUT .../dedupe turns it on and off', async ({
    t,
    pipelineId,
  }) => {
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Config' } })).body.data
      .flow_id as number;
    const noEventId = /no event id .*applies only to deliveries that send an Idempotency-Key header/;
    const bearer = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer', dedupe_window_seconds: 60 } });
    assert.is(bearer.status, 200, JSON.stringify(bearer.body));
    assert.match(bearer.body.warnings?.[0] ?? '', noEventId);
    assert.is(bearer.body.data.dedupe_window_seconds, 60);
    assert.is(bearer.body.data.idempotency_window_seconds, 60);
    const { id_source: _unused, ...noId } = TEMPLATE;
    const noIdTemplate = { ...noId, signed_template: '{body}' };
    const missing = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
      body: { mode: 'hmac', template: noIdTemplate, secret: SECRET, dedupe_window_seconds: 60 },
    });
    assert.is(missing.status, 200);
    assert.match(missing.body.warnings?.[0] ?? '', /the template has no id_source/);
    const withId = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
      body: { mode: 'hmac', template: TEMPLATE, secret: SECRET, dedupe_window_seconds: 60 },
    });
    assert.is(withId.body.warnings, undefined, 'a template with an id_source needs no advice');
    assert.is(
      (
        await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
          body: { mode: 'hmac', template: TEMPLATE, secret: SECRET, dedupe_window_seconds: -1 },
        })
      ).status,
      400,
    );

    assert.is(
      (await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'hmac', template: TEMPLATE, secret: SECRET } })).status,
      200,
    );
    assert.is((await t.request<Body>('PUT', `/flows/${flowId}/webhook/dedupe`, { body: { window_seconds: 120 } })).status, 200);
    const one = await send(t, flowId, 'x');
    assert.is((await send(t, flowId, 'x')).body.job_id, one.body.job_id);
    assert.is((await t.request<Body>('PUT', `/flows/${flowId}/webhook/dedupe`, { body: { window_seconds: 0 } })).status, 200);
    assert.is.not((await send(t, flowId, 'x')).body.job_id, one.body.job_id);
    assert.is((await t.request<Body>('PUT', `/flows/${flowId}/webhook/dedupe`, { body: { window_seconds: 'soon' } })).status, 400);

    const bearerFlow = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Bearer' } })).body.data
      .flow_id as number;
    await t.request('PUT', `/flows/${bearerFlow}/webhook`, { body: { mode: 'bearer' } });
    assert.is((await t.request<Body>('GET', `/flows/${bearerFlow}/webhook`)).body.data.idempotency_window_seconds, 86400);
    const bearerWindow = await t.request<Body>('PUT', `/flows/${bearerFlow}/webhook/dedupe`, { body: { window_seconds: 60 } });
    assert.is(bearerWindow.status, 200);
    assert.match(bearerWindow.body.warnings?.[0] ?? '', noEventId);
    assert.is((await t.request<Body>('GET', `/flows/${bearerFlow}/webhook`)).body.data.idempotency_window_seconds, 60);
  });

  test('claims: expired ids are purged; an abandoned claim (crash before its job) is taken over after 30 s', async ({ t }) => {
    const dedupe = new EventDedupe({ store: t.host.store, clock: t.clock });
    await dedupe.init();
    const first = await dedupe.claim(9001, { kind: 'event_id', value: 'e' }, 60);
    assert.ok(first.claimed);
    // The claimer "crashes": no settle, no release. A retry 31 s later takes the claim over.
    t.clock.advance(31_000);
    const retry = await dedupe.claim(9001, { kind: 'event_id', value: 'e' }, 60);
    assert.ok(retry.claimed, 'taken over');
    if (retry.claimed) await retry.claim.settle(77);
    const repeat = await dedupe.claim(9001, { kind: 'event_id', value: 'e' }, 60);
    assert.equal(repeat, { claimed: false, jobId: 77 });
    t.clock.advance(61_000);
    assert.ok((await dedupe.purgeExpired()) >= 1); // with earlier tests' ids whose windows passed too
    assert.is(await t.host.store.collection('webhook_events').count({ flow_id: 9001 }), 0);
  });

  test.run();
}
