// test-runner: waits (flows on an every-second interval, run by the real scheduler: about 9 s, 2.9 s of CPU)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '../../../host/create-host.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { definePlugin, defineHandler, defineInterval, type PluginDefinition, services } from '../../../sdk/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

let counter = 0;
const ticking: PluginDefinition = definePlugin({
  id: 'ticking',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: {
    handlers: services.handlers,
    providers: services.providers,
    routes: services.routes,
    intervals: services.intervals,
    stepTypes: services.stepTypes,
    hooks: services.hooks,
    registries: services.registries,
  },
  setup(host) {
    for (const item of [defineInterval({ value: 'every_second', label: 'Every second', seconds: 1 })]) host.intervals.add(item);
    for (const item of [
      defineHandler({
        slug: 'broken',
        type: 'fetch',
        label: 'Broken',
        description: 'Always fails.',
        async fetch() {
          throw new Error('upstream is down');
        },
      }),
      defineHandler({
        slug: 'ticker',
        type: 'fetch',
        label: 'Ticker',
        description: 'A new item every call.',
        async fetch() {
          counter += 1;
          return [{ type: 'tick', data: { id: `tick-${counter}` }, metadata: {} }];
        },
      }),
    ])
      host.handlers.add(item);
  },
}) as PluginDefinition;

async function startHost(dataDir: string): Promise<{ host: Host; call: (method: string, path: string, body?: unknown) => Promise<Body> }> {
  const host = await createHost({
    plugins: [...defaultPlugins, ticking],
    env: {},
    logger: silentLogger,
    config: { dataDir, port: 0, logLevel: 'silent', schedulerProcessEvery: 100 },
  });
  const url = await host.start();
  const password =
    host.initialAdmin?.password ?? (await import('node:fs')).readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim();
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/automation/v1${path}`, {
      method,
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, ...((await res.json()) as Body) };
  };
  return { host, call };
}

const until = async (check: () => Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

async function tickerFlow(call: (m: string, p: string, b?: unknown) => Promise<Body>, interval: string): Promise<number> {
  const pipelineId = (await call('POST', '/pipelines', { pipeline_name: 'Ticks', steps: [{ step_type: 'fetch' }] })).data.pipeline_id;
  const stepId = (await call('GET', `/pipelines/${pipelineId}`)).data.pipeline.pipeline_steps[0].pipeline_step_id;
  return (
    await call('POST', '/flows', {
      pipeline_id: pipelineId,
      flow_config: { [stepId]: { handler_slug: 'ticker' } },
      scheduling_config: { interval },
    })
  ).data.flow_id;
}

const test = suite('scheduling: flows run on their schedule through Agenda');

test('a plugin interval schedules runs; changing it reschedules; manual and delete remove the schedule', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-sched-'));
  const { host, call } = await startHost(dataDir);
  try {
    const flowId = await tickerFlow(call, 'every_second');
    const flow = (await call('GET', `/flows/${flowId}`)).data;
    assert.ok(flow.next_run, 'the next run is known');
    const agendaJobs = host.store.collection('agenda_jobs');
    assert.is(await agendaJobs.count({ 'data.flowId': flowId }), 1);
    await until(async () => (await call('GET', `/jobs?flow_id=${flowId}`)).total >= 2);
    const jobs = (await call('GET', `/jobs?flow_id=${flowId}`)).data as Body[];
    assert.ok(
      jobs.every((j) => ['completed', 'processing', 'pending', 'skipped'].includes(j.status)),
      JSON.stringify(jobs.map((j) => j.status)),
    );
    assert.is(jobs[0].flow_name, 'Flow');

    await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'weekly' } });
    const weekly = await agendaJobs.findOne({ 'data.flowId': flowId });
    assert.ok((weekly!.nextRunAt as Date).getTime() > Date.now() + 6 * 24 * 3600_000, 'rescheduled a week out');
    assert.is(await agendaJobs.count({ 'data.flowId': flowId }), 1, 'still one schedule per flow');

    await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'manual' } });
    assert.is(await agendaJobs.count({ 'data.flowId': flowId }), 0);
    assert.is((await call('GET', `/flows/${flowId}`)).data.next_run_display, 'Manual');

    await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'hourly' } });
    assert.is(await agendaJobs.count({ 'data.flowId': flowId }), 1);
    await call('DELETE', `/flows/${flowId}`);
    assert.is(await agendaJobs.count({ 'data.flowId': flowId }), 0, 'deleting the flow removes its schedule');
  } finally {
    await host.stop();
  }
});

test('a failing scheduled flow is logged and its schedule goes on', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-failing-'));
  const { host, call } = await startHost(dataDir);
  try {
    const pipelineId = (await call('POST', '/pipelines', { pipeline_name: 'Broken', steps: [{ step_type: 'fetch' }] })).data.pipeline_id;
    const stepId = (await call('GET', `/pipelines/${pipelineId}`)).data.pipeline.pipeline_steps[0].pipeline_step_id;
    const flowId = (
      await call('POST', '/flows', {
        pipeline_id: pipelineId,
        flow_config: { [stepId]: { handler_slug: 'broken' } },
        scheduling_config: { interval: 'every_second' },
      })
    ).data.flow_id;
    await until(async () => ((await call('GET', `/jobs?flow_id=${flowId}&status=failed`)).total as number) >= 2);
    const flow = (await call('GET', `/flows/${flowId}`)).data;
    assert.ok(flow.consecutive_failures >= 2);
    assert.ok(flow.next_run, 'still scheduled');
    const logged = await call('GET', `/logs?level=error&search=${encodeURIComponent('upstream is down')}`);
    assert.ok(logged.total >= 2);
    const problems = await call('GET', '/flows/problems?threshold=2');
    assert.ok(problems.data.problem_flows.some((p: Body) => p.flow_id === flowId));
  } finally {
    await host.stop();
  }
});

test('a run missed while the host was down happens once after restart, not once per missed slot', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-missed-'));
  let first = await startHost(dataDir);
  const flowId = await tickerFlow(first.call, 'hourly');
  assert.is((await first.call('GET', `/jobs?flow_id=${flowId}`)).total, 0);
  await first.host.stop();
  // Three hourly slots went by while the host was down.
  {
    const { openEmbeddedStore } = await import('../../../host/store/embedded/index.js');
    const store = openEmbeddedStore({ file: join(dataDir, 'flowhost.db'), exclusive: true });
    await store
      .collection('agenda_jobs')
      .updateOne({ 'data.flowId': flowId }, { $set: { nextRunAt: new Date(Date.now() - 3 * 3600_000) } });
    await store.close();
  }
  first = await startHost(dataDir);
  try {
    await until(async () => (await first.call('GET', `/jobs?flow_id=${flowId}`)).total >= 1);
    // A second catch-up could only come from the schedule while it is still due: wait until
    // the scheduler has moved it on and released it, then count.
    const schedule = () => first.host.store.collection('agenda_jobs').findOne({ 'data.flowId': flowId });
    await until(async () => {
      const job = await schedule();
      return !!job && !job.lockedAt && (job.nextRunAt as Date).getTime() > Date.now() + 30 * 60_000;
    });
    const jobs = (await first.call('GET', `/jobs?flow_id=${flowId}`)).data as Body[];
    assert.is(jobs.length, 1, 'exactly one catch-up run');
    const next = await first.host.store.collection('agenda_jobs').findOne({ 'data.flowId': flowId });
    assert.ok((next!.nextRunAt as Date).getTime() > Date.now() + 30 * 60_000, 'the next run is an hour from the catch-up, not in the past');
  } finally {
    await first.host.stop();
  }
});

test('a delayed run survives a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-delayed-'));
  let started = await startHost(dataDir);
  const flowId = await tickerFlow(started.call, 'manual');
  const res = await started.call('POST', '/execute', { flow_id: flowId, timestamp: Math.floor(Date.now() / 1000) + 2 });
  assert.is(res.data.execution_type, 'delayed');
  await started.host.stop();
  started = await startHost(dataDir);
  try {
    await until(async () => (await started.call('GET', `/jobs/${res.data.job_id}`)).data.status === 'completed');
  } finally {
    await started.host.stop();
  }
});

test.run();
