// GET /metrics on both stores: after requests and a run, the Prometheus text carries the
// request counters by route and status, the run and step figures, the queue gauge and the
// process's own metrics; access is this machine only by default, a token admits others.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defineHandler, definePlugin, services, type PluginDefinition } from '../../../sdk/index.js';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { isLoopback, refusal } from '../../../plugins/metrics/access.js';

const probe = definePlugin({
  id: 'metrics-probe',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(defineHandler({ slug: 'probe-two', type: 'fetch', label: 'Two', description: 'Two items.', fetch: async () => [1, 2].map((n) => ({ type: 'probe', data: { title: `Item ${n}` }, metadata: { source_type: 'probe', dedup_key: `m${n}` } })) }));
  },
}) as PluginDefinition;

/** The value of one sample line, e.g. sample(text, 'flowhost_jobs_total{source="execute",status="completed"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const store of testStores('metrics plugin')) {
  const test = suite<{ t: TestHost }>(`metrics: GET /metrics (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [probe], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('requests by route and status, runs by source and status, step durations, queue depth, process metrics', async ({ t }) => {
    for (let i = 0; i < 3; i++) assert.is((await t.request('GET', '/flows')).status, 200);
    assert.is((await t.request('GET', '/flows/999999')).status, 404);
    const job = await t.executeAndWait({ workflow: { steps: [{ type: 'fetch', handler_slug: 'probe-two' }] } });
    assert.is(job.status, 'completed');

    const res = await fetch(`${t.url}/metrics`);
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.is(sample(text, 'flowhost_http_requests_total{method="GET",route="/api/automation/v1/flows",status="200"}'), 3, text.slice(0, 3000));
    assert.is(sample(text, 'flowhost_http_requests_total{method="GET",route="/api/automation/v1/flows/{flow_id}",status="404"}'), 1);
    assert.ok((sample(text, 'flowhost_http_request_duration_seconds_count{method="GET",route="/api/automation/v1/flows"}') ?? 0) >= 3);
    assert.is(sample(text, 'flowhost_jobs_total{source="execute",status="completed_no_items"}') ?? sample(text, 'flowhost_jobs_total{source="execute",status="completed"}'), 1);
    assert.is(sample(text, 'flowhost_step_duration_seconds_count{step_type="fetch",handler="probe-two",status="completed"}'), 1);
    assert.is(sample(text, 'flowhost_jobs_waiting{status="pending"}'), 0);
    assert.is(sample(text, 'flowhost_jobs_waiting{status="processing"}'), 0);
    assert.ok(text.includes('nodejs_eventloop_lag_seconds'), 'event-loop lag is exported');
    assert.ok(text.includes('process_resident_memory_bytes'), 'resident memory is exported');
  });

  test.run();
}

const access = suite('metrics: who may read');
access('loopback by default; a token admits anyone; public opens it; refusals say how to allow', () => {
  const from = (ip: string, authorization?: string) => ({ ip, headers: authorization ? { authorization } : {} });
  for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopback(ip), ip);
  for (const ip of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', 'unknown']) assert.not.ok(isLoopback(ip), ip);
  assert.is(refusal('loopback', undefined, from('127.0.0.1')), null);
  assert.match(refusal('loopback', undefined, from('203.0.113.9')) ?? '', /plugins\.metrics\.token/);
  const token = 't'.repeat(40);
  assert.is(refusal('loopback', token, from('203.0.113.9', `Bearer ${token}`)), null);
  assert.match(refusal('loopback', token, from('203.0.113.9', `Bearer ${'x'.repeat(40)}`)) ?? '', /this machine only/);
  assert.match(refusal('token', token, from('127.0.0.1')) ?? '', /Bearer/);
  assert.match(refusal('token', undefined, from('127.0.0.1')) ?? '', /no token is configured/);
  assert.is(refusal('public', undefined, from('203.0.113.9')), null);
});
access.run();
