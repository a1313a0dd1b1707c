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
  deps: { handlers: services.handlers, store: services.store, hooks: services.hooks },
  setup({ handlers, store, hooks }) {
    // One store operation that fails, as a plugin would meet it: a duplicate key.
    hooks.booted.tapPromise('metrics-probe', async () => {
      const marks = store.collection('marks');
      await marks.createIndex({ fields: { k: 1 }, unique: true });
      await marks.insertOne({ k: 1 });
      await marks.insertOne({ k: 1 }).catch(() => undefined);
    });
    handlers.add(
      defineHandler({
        slug: 'probe-two',
        type: 'fetch',
        label: 'Two',
        description: 'Two items.',
        fetch: async () =>
          [1, 2].map((n) => ({ type: 'probe', data: { title: `Item ${n}` }, metadata: { source_type: 'probe', dedup_key: `m${n}` } })),
      }),
    );
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
    assert.is(
      sample(text, 'flowhost_http_requests_total{method="GET",route="/api/automation/v1/flows",status="200"}'),
      3,
      text.slice(0, 3000),
    );
    assert.is(sample(text, 'flowhost_http_requests_total{method="GET",route="/api/automation/v1/flows/{flow_id}",status="404"}'), 1);
    assert.ok((sample(text, 'flowhost_http_request_duration_seconds_count{method="GET",route="/api/automation/v1/flows"}') ?? 0) >= 3);
    assert.is(
      sample(text, 'flowhost_jobs_total{source="execute",status="completed_no_items"}') ??
        sample(text, 'flowhost_jobs_total{source="execute",status="completed"}'),
      1,
    );
    assert.is(sample(text, 'flowhost_step_duration_seconds_count{step_type="fetch",handler="probe-two",status="completed"}'), 1);
    assert.is(sample(text, 'flowhost_jobs_waiting{status="pending"}'), 0);
    assert.is(sample(text, 'flowhost_jobs_waiting{status="processing"}'), 0);
    // Store latency, per collection and operation, as the services call the store.
    assert.ok(
      (sample(text, 'flowhost_store_operation_duration_seconds_count{collection="jobs",operation="insertOne"}') ?? 0) +
        (sample(text, 'flowhost_store_operation_duration_seconds_count{collection="jobs",operation="insertMany"}') ?? 0) >=
        1,
      text
        .split('\n')
        .filter((l) => l.startsWith('flowhost_store_operation_duration_seconds_count'))
        .join('\n'),
    );
    assert.ok((sample(text, 'flowhost_store_operation_duration_seconds_count{collection="flows",operation="find"}') ?? 0) >= 1);
    assert.ok((sample(text, 'flowhost_store_operation_duration_seconds_count{collection="(store)",operation="nextId"}') ?? 0) >= 1);
    assert.is(
      sample(text, 'flowhost_store_operation_failures_total{collection="metrics-probe__marks",operation="insertOne"}'),
      1,
      text
        .split('\n')
        .filter((l) => l.includes('failures'))
        .join('\n'),
    );
    assert.is(sample(text, 'flowhost_store_operation_duration_seconds_count{collection="metrics-probe__marks",operation="insertOne"}'), 2);
    assert.ok(text.includes('nodejs_eventloop_lag_seconds'), 'event-loop lag is exported');
    assert.ok(text.includes('process_resident_memory_bytes'), 'resident memory is exported');
  });

  test('a scheduled run reports how late it started after its slot (flowhost_scheduler_lateness_seconds)', async ({ t }) => {
    const pipelineId = (
      await t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
        body: { pipeline_name: 'Late', steps: [{ step_type: 'fetch' }] },
      })
    ).body.data.pipeline_id;
    const stepId = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
    ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
    const created = await t.request<{ data: { flow_id: number } }>('POST', '/flows', {
      body: {
        pipeline_id: pipelineId,
        flow_name: 'Scheduled',
        flow_config: { [stepId]: { handler_slug: 'probe-two' } },
        scheduling_config: { interval: 'every_5_minutes' },
      },
    });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const flowId = created.body.data.flow_id;
    const before = sample(await (await fetch(`${t.url}/metrics`)).text(), 'flowhost_scheduler_lateness_seconds_count') ?? 0;
    // Bring the first slot from five minutes away to now (Agenda's slots are wall-clock times).
    await t.host.store
      .collection('agenda_jobs')
      .updateOne({ name: 'flow.run', 'data.flowId': flowId }, { $set: { nextRunAt: new Date(Date.now() + 150) } });
    const jobs = t.host.store.collection('jobs');
    const until = Date.now() + 10_000;
    while ((await jobs.count({ flow_id: flowId, source: 'schedule' })) === 0) {
      assert.ok(Date.now() < until, 'the schedule started a run');
      await new Promise((done) => setTimeout(done, 20));
    }
    const text = await (await fetch(`${t.url}/metrics`)).text();
    assert.is(
      sample(text, 'flowhost_scheduler_lateness_seconds_count'),
      before + 1,
      text
        .split('\n')
        .filter((l) => l.includes('lateness'))
        .join('\n'),
    );
    // Started within a few poll intervals of its slot on an idle test host (100 ms polls).
    assert.ok((sample(text, 'flowhost_scheduler_lateness_seconds_sum') ?? Infinity) < 5);
    assert.is(sample(text, 'flowhost_scheduler_lateness_seconds_bucket{le="300"}'), before + 1);
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
