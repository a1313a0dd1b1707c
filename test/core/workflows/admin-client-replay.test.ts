// Pipelines, flows, settings and preferences, driven exactly as the original admin client
// drives them (compat/admin-client.md): cookie session + X-WP-Nonce, PUT/PATCH/DELETE sent
// as POST with X-HTTP-Method-Override, `_locale=user` on every URL, DELETE params in the query.
import { suite } from 'uvu';
import { intervals as intervalPoint } from '../../../sdk/contract/schedule-intervals.js';
import { handlers as handlerPoint, stepTypes as stepTypePoint } from '../../../sdk/contract/handler-catalogue.js';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { adminClientSession, type AdminClientCall } from '../../support/admin-client-session.js';
import { definePlugin, defineHandler, defineInterval, defineProvider, type PluginDefinition, services } from '../../../sdk/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const fixtures: PluginDefinition = definePlugin({
  id: 'workflow-fixtures',
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
    for (const item of [
      defineHandler({
        slug: 'feed',
        type: 'fetch',
        label: 'Feed',
        description: 'Test feed.',
        settings: {
          type: 'object',
          required: ['feed_url'],
          additionalProperties: false,
          properties: { feed_url: { type: 'string', format: 'uri' }, max_items: { type: 'integer', minimum: 1, maximum: 50, default: 1 } },
        },
        fetch: async (_ctx, settings) => [{ type: 'item', data: { id: String(settings.feed_url), title: 'An item' }, metadata: {} }],
      }),
      defineHandler({
        slug: 'site',
        type: 'publish',
        label: 'Site',
        description: 'Test publisher.',
        settings: { type: 'object', properties: { max_length: { type: 'integer', minimum: 1 } } },
        publish: async (_ctx, _settings, packets) => packets,
      }),
    ])
      host.handlers.add(item);
    for (const item of [defineProvider({ slug: 'echo-ai', label: 'Echo', configured: () => true, models: () => ['echo-1'] })])
      host.providers.add(item);
    for (const item of [defineInterval({ value: 'every_minute', label: 'Every minute', seconds: 60 })]) host.intervals.add(item);
  },
}) as PluginDefinition;

for (const store of testStores('workflows: the admin client replayed')) {
  type Ctx = {
    t: TestHost;
    call: AdminClientCall;
  };
  const test = suite<Ctx>(`workflows: the admin client replayed (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [fixtures], config: store.config() });
    ctx.call = await adminClientSession(ctx.t);
  });
  test.after(async (ctx) => ctx.t.stop());

  test('pipeline → steps → flow → handler config → schedule → duplicate → delete, with every field the client reads', async ({
    call,
    t,
  }) => {
    const w = {} as Ids;
    Object.assign(w, await pipelinesStep(call));
    Object.assign(w, await flowsStep(call, w));
    await handlerStep(call, w);
    Object.assign(w, await addedStepStep(call, w));
    Object.assign(w, await flowEditStep(call, t, w));
    await listsAndDeletesStep(call, t, w);
  });

  test('a pipeline delete interrupted by a crash is finished at boot', async ({ t }) => {
    const pipelines = t.host.store.collection('pipelines');
    await pipelines.insertOne({
      pipeline_id: 777,
      pipeline_name: 'Half deleted',
      steps: [],
      agent_id: null,
      created_at: new Date(),
      updated_at: new Date(),
      deleting: true,
    });
    await t.host.store
      .collection('flows')
      .insertOne({ flow_id: 778, pipeline_id: 777, flow_name: 'orphan', steps: {}, scheduling_config: { interval: 'manual' } });
    const { PipelinesService } = await import('../../../core/pipelines/service.js');
    const { FlowsService } = await import('../../../core/flows/service.js');
    const { HandlerSecrets } = await import('../../../core/flows/handler-secrets.js');
    const { PipelineRecords } = await import('../../../core/pipelines/records.js');
    const flows = new FlowsService(
      t.host.store,
      t.clock,
      {
        handlers: t.host.registries.extensionPoint(handlerPoint),
        stepTypes: t.host.registries.extensionPoint(stepTypePoint),
        intervals: t.host.registries.extensionPoint(intervalPoint),
      },
      new PipelineRecords(t.host.store),
      new HandlerSecrets(t.host.vault),
    );
    const p = new PipelinesService(
      t.host.store,
      t.clock,
      t.host.registries,
      await t.host.services.get(services.handlerCatalogue, 'test'),
      flows,
    );
    await p.init();
    assert.is(await pipelines.count({ pipeline_id: 777 }), 0);
    assert.is(await t.host.store.collection('flows').count({ flow_id: 778 }), 0);
  });

  test('execute, then the client polls the flow; jobs, logs and their deletes as the client sends them', async ({ call }) => {
    const pipelineId = (
      await call('POST', '/pipelines', { pipeline_name: 'Run me', steps: [{ step_type: 'fetch' }, { step_type: 'publish' }] })
    ).body.data.pipeline_id as number;
    const [fetchId, publishId] = (
      await call('GET', '/pipelines', undefined, { pipeline_id: pipelineId, output_mode: 'full', include_flows: 'false' })
    ).body.data.pipeline.pipeline_steps.map((s: Body) => s.pipeline_step_id);
    const flowId = (await call('POST', '/flows', { pipeline_id: pipelineId, flow_name: 'Runner' })).body.data.flow_id as number;
    await call('PUT', `/flows/steps/${fetchId}_${flowId}/handler`, {
      handler_slug: 'feed',
      pipeline_id: pipelineId,
      step_type: 'fetch',
      settings: {},
    }).then((r) => {
      // Picked as the client picks it; feed_url comes after (test/core/workflows/unconfigured-steps.test.ts).
      assert.is(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.data.step_config.missing_settings, ['feed_url']);
    });
    await call('PUT', `/flows/steps/${fetchId}_${flowId}/handler`, {
      handler_slug: 'feed',
      pipeline_id: pipelineId,
      step_type: 'fetch',
      settings: { feed_url: 'https://example.org/a' },
    });
    await call('PUT', `/flows/steps/${publishId}_${flowId}/handler`, {
      handler_slug: 'site',
      pipeline_id: pipelineId,
      step_type: 'publish',
      settings: {},
    });

    const run = await call('POST', '/execute', { flow_id: flowId });
    assert.is(run.status, 200);
    assert.is(run.body.success, true);
    let flow: Body = {};
    for (let i = 0; i < 100; i++) {
      flow = (await call('GET', `/flows/${flowId}`)).body.data;
      if (!flow.is_running && flow.last_run_status) break;
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.is(flow.last_run_status, 'completed');
    assert.match(flow.last_run_display, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const jobs = await call('GET', '/jobs', undefined, { orderby: 'job_id', order: 'DESC', per_page: 50, offset: 0, hide_children: 1 });
    assert.ok(Array.isArray(jobs.body.data));
    assert.is(jobs.body.per_page, 50);
    assert.is(jobs.body.offset, 0);
    const job = jobs.body.data.find((j: Body) => j.flow_id === flowId);
    for (const field of [
      'job_id',
      'pipeline_id',
      'pipeline_name',
      'flow_id',
      'flow_name',
      'label',
      'status',
      'created_at_display',
      'completed_at_display',
      'engine_data',
    ])
      assert.ok(field in job, field);
    assert.is(job.pipeline_name, 'Run me');

    const logs = await call('GET', '/logs', undefined, { per_page: 50, page: 1 });
    assert.is(logs.status, 200);
    assert.ok(logs.body.items.some((e: Body) => e.context.job_id === job.job_id));
    for (const field of ['id', 'level', 'message', 'context', 'created_at']) assert.ok(field in logs.body.items[0], field);
    assert.is(typeof logs.body.total, 'number');
    assert.is(typeof logs.body.pages, 'number');
    const searched = await call('GET', '/logs', undefined, { per_page: 50, page: 1, level: 'info', search: `job ${job.job_id} completed` });
    assert.is(searched.body.total, 1);
    const meta = await call('GET', '/logs/metadata');
    assert.ok(meta.body.total_entries >= 2);

    const processed = await call('DELETE', '/processed-items', undefined, { clear_type: 'flow', target_id: flowId });
    assert.is(processed.status, 200);
    assert.match(processed.body.message, /Cleared 1 processed item/);
    const deletedJobs = await call('DELETE', '/jobs', undefined, { type: 'all', cleanup_processed: 1 });
    assert.ok(deletedJobs.body.message);
    const deletedLogs = await call('DELETE', '/logs');
    assert.is(deletedLogs.body.success, true);
    assert.ok(deletedLogs.body.deleted_count >= 2);
  });

  test('settings and scheduling intervals', async ({ call }) => {
    const got = await call('GET', '/settings');
    assert.is(got.body.data.settings.problem_flow_threshold, 3);
    assert.is(got.body.data.defaults.flows_per_page, 20);
    const patched = await call('PATCH', '/settings', { problem_flow_threshold: 5, default_provider: 'echo-ai' });
    assert.is(patched.status, 200);
    assert.ok(patched.body.message);
    assert.is((await call('GET', '/settings')).body.data.settings.problem_flow_threshold, 5);
    assert.is((await call('GET', '/flows/problems')).body.data.threshold, 5);
    assert.is((await call('PATCH', '/settings', { problem_flow_threshold: 0 })).status, 400);
    assert.is((await call('PATCH', '/settings', { no_such_key: 1 })).status, 400);
    assert.is((await call('PUT', '/settings', { log_retention_days: 7 })).status, 200);
    const intervals = await call('GET', '/settings/scheduling-intervals');
    const values = intervals.body.data.map((i: Body) => i.value);
    for (const v of ['manual', 'one_time', 'every_5_minutes', 'hourly', 'qtrdaily', 'twicedaily', 'daily', 'weekly', 'every_minute'])
      assert.ok(values.includes(v), v);
    assert.is(intervals.body.data[0].label, 'Manual only');
  });

  test('user preferences: /users/me and /users/{id}', async ({ call, t }) => {
    const pipelineId = (await call('POST', '/pipelines', { pipeline_name: 'Pref' })).body.data.pipeline_id as number;
    const me = await call('GET', '/users/me');
    assert.is(me.body.selected_pipeline_id, null);
    const set = await call('POST', '/users/me', { selected_pipeline_id: pipelineId });
    assert.equal(
      { success: set.body.success, user_id: set.body.user_id, selected_pipeline_id: set.body.selected_pipeline_id },
      { success: true, user_id: me.body.user_id, selected_pipeline_id: pipelineId },
    );
    const missing = await call('POST', '/users/me', { selected_pipeline_id: 99999 });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'pipeline_not_found');
    assert.is((await call('GET', '/users/me')).body.selected_pipeline_id, pipelineId, 'nothing saved on failure');
    assert.is((await call('POST', '/users/me', { selected_pipeline_id: null })).body.selected_pipeline_id, null);

    const sub = await t.createUser('prefsub', 'subscriber');
    const other = await t.createUser('prefother', 'subscriber');
    const own = await t.request<Body>('POST', `/users/${sub.userId}`, { as: sub, body: { selected_pipeline_id: pipelineId } });
    assert.is(own.status, 200);
    assert.is(own.body.selected_pipeline_id, pipelineId);
    const foreign = await t.request<Body>('GET', `/users/${other.userId}`, { as: sub });
    assert.is(foreign.status, 403);
    assert.is(foreign.body.code, 'rest_forbidden');
    assert.is((await t.request<Body>('POST', `/users/${other.userId}`, { as: sub, body: { selected_pipeline_id: null } })).status, 403);
    const byAdmin = await call('GET', `/users/${sub.userId}`);
    assert.is(byAdmin.body.selected_pipeline_id, pipelineId);
    assert.is((await t.request('GET', '/users/me', { as: 'anonymous' })).status, 401);
  });

  test.run();
}

/** The ids one step of the walk hands to the next. */
type Ids = {
  pipelineId: number;
  fetchId: string;
  publishId: string;
  flowId: number;
  fetchFlowStep: string;
  publishFlowStep: string;
  aiId: string;
  copyId: number;
};

/** Pipelines: create, add steps, list and search. */
async function pipelinesStep(call: AdminClientCall) {
  const created = await call('POST', '/pipelines', { pipeline_name: 'News' });
  assert.is(created.status, 200);
  const pipelineId = created.body.data.pipeline_id as number;
  assert.ok(pipelineId > 0);
  assert.is(created.body.data.pipeline_data.pipeline_name, 'News');
  const fetchStep = await call('POST', `/pipelines/${pipelineId}/steps`, { step_type: 'fetch', execution_order: 0, label: 'Fetch Step' });
  assert.is(fetchStep.status, 200);
  const fetchId = fetchStep.body.data.pipeline_step_id as string;
  assert.match(fetchId, new RegExp(`^${pipelineId}_[0-9a-f-]{36}$`));
  assert.is(fetchStep.body.data.step_data.label, 'Fetch Step');
  const publishId = (
    await call('POST', `/pipelines/${pipelineId}/steps`, { step_type: 'publish', execution_order: 1, label: 'Publish Step' })
  ).body.data.pipeline_step_id as string;
  const bad = await call('POST', `/pipelines/${pipelineId}/steps`, { step_type: 'teleport' });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'invalid_step_type');

  const list = await call('GET', '/pipelines', undefined, { per_page: 50, offset: 0, output_mode: 'list', include_flows: 'false' });
  assert.is(list.status, 200);
  assert.is(list.body.total, 1);
  assert.equal(
    list.body.data.pipelines.map((p: Body) => [p.pipeline_id, p.pipeline_name, p.flow_count]),
    [[pipelineId, 'News', 0]],
  );
  assert.is((await call('GET', '/pipelines', undefined, { search: 'NEW' })).body.total, 1);
  assert.is((await call('GET', '/pipelines', undefined, { search: 'x.*' })).body.total, 0, 'search is literal');
  return { pipelineId, fetchId, publishId };
}

/** Flows: refused bodies, then one with a step per pipeline step. */
async function flowsStep(call: AdminClientCall, w: Ids) {
  const { pipelineId, fetchId, publishId } = w;
  const missing = await call('POST', '/flows', { flow_name: 'x' });
  assert.is(missing.status, 400);
  assert.is(missing.body.code, 'rest_missing_callback_param');
  const unknown = await call('POST', '/flows', { pipeline_id: 9999 });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'pipeline_not_found');
  const flow = await call('POST', '/flows', { pipeline_id: pipelineId });
  assert.is(flow.status, 200);
  const flowId = flow.body.data.flow_id as number;
  assert.is(flow.body.data.flow_name, 'Flow');
  assert.equal(flow.body.data.scheduling_config, { interval: 'manual' });
  const fetchFlowStep = `${fetchId}_${flowId}`;
  const publishFlowStep = `${publishId}_${flowId}`;
  assert.equal(Object.keys(flow.body.data.flow_config), [fetchFlowStep, publishFlowStep]);
  assert.equal(flow.body.data.flow_config[fetchFlowStep], {
    flow_step_id: fetchFlowStep,
    pipeline_step_id: fetchId,
    step_type: 'fetch',
    execution_order: 0,
    handler_slug: null,
    handler_config: {},
    enabled: true,
    missing_settings: [],
  });
  return { flowId, fetchFlowStep, publishFlowStep };
}

/** Handler selection and its settings, checked and merged. */
async function handlerStep(call: AdminClientCall, w: Ids) {
  const { pipelineId, fetchId, flowId, fetchFlowStep } = w;
  const noHandler = await call('PUT', `/flows/steps/${fetchFlowStep}/handler`, {
    handler_slug: 'nope',
    pipeline_id: pipelineId,
    step_type: 'fetch',
    settings: {},
  });
  assert.is(noHandler.status, 400);
  assert.is(noHandler.body.code, 'handler_not_found');
  const wrongType = await call('PUT', `/flows/steps/${fetchFlowStep}/handler`, { handler_slug: 'site', settings: {} });
  assert.is(wrongType.body.code, 'handler_step_mismatch');
  const badSettings = await call('PUT', `/flows/steps/${fetchFlowStep}/handler`, {
    handler_slug: 'feed',
    settings: { feed_url: 'not a url' },
  });
  assert.is(badSettings.status, 400);
  assert.is(badSettings.body.code, 'rest_invalid_param');
  assert.ok(badSettings.body.data.params.feed_url);
  const picked = await call('PUT', `/flows/steps/${fetchFlowStep}/handler`, {
    handler_slug: 'feed',
    pipeline_id: pipelineId,
    step_type: 'fetch',
    settings: { feed_url: 'https://example.org/feed.xml' },
  });
  assert.is(picked.status, 200);
  assert.is(picked.body.data.flow_id, flowId);
  assert.is(picked.body.data.flow_step_id, fetchFlowStep);
  assert.is(picked.body.data.step_config.handler_slug, 'feed');
  assert.equal(
    picked.body.data.step_config.handler_config,
    { feed_url: 'https://example.org/feed.xml', max_items: 1 },
    'item maximum defaults to 1',
  );
  const merged = await call('PATCH', `/flows/steps/${fetchFlowStep}/config`, { handler_config: { max_items: 5 } });
  assert.is(merged.status, 200);
  assert.ok(merged.body.message);
  const stepConfig = await call('GET', `/flows/steps/${fetchFlowStep}/config`);
  assert.is(stepConfig.body.flow_step_id, fetchFlowStep);
  assert.equal(stepConfig.body.config.handler_config, { feed_url: 'https://example.org/feed.xml', max_items: 5 });
  assert.is((await call('PATCH', `/flows/steps/${fetchFlowStep}/config`, { handler_config: { max_items: 99 } })).status, 400);
  const missingStep = await call('GET', `/flows/steps/${fetchId}_424242/config`);
  assert.is(missingStep.status, 404);
  assert.is(missingStep.body.code, 'config_not_found');
}

/** A step added later appears in existing flows; reorder moves it. */
async function addedStepStep(call: AdminClientCall, w: Ids) {
  const { pipelineId, fetchId, publishId, flowId, fetchFlowStep, publishFlowStep } = w;
  const aiId = (await call('POST', `/pipelines/${pipelineId}/steps`, { step_type: 'ai', execution_order: 1, label: 'AI Step' })).body.data
    .pipeline_step_id as string;
  const aiConfig = await call('PUT', `/pipelines/steps/${aiId}/config`, {
    step_type: 'ai',
    pipeline_id: pipelineId,
    system_prompt: 'Summarize.',
    provider: 'echo-ai',
    model: 'echo-1',
  });
  assert.is(aiConfig.status, 200);
  assert.ok(aiConfig.body.message);
  assert.is((await call('PUT', `/pipelines/steps/${aiId}/config`, { provider: 'nobody' })).body.code, 'provider_not_found');
  const aiFlowStep = `${aiId}_${flowId}`;
  assert.is((await call('PATCH', `/flows/steps/${aiFlowStep}/config`, { user_message: 'Make it short' })).status, 200);
  const config = await call('GET', `/flows/${flowId}/config`);
  assert.equal(Object.keys(config.body.flow_config), [fetchFlowStep, aiFlowStep, publishFlowStep]);
  assert.is(config.body.flow_config[aiFlowStep].user_message, 'Make it short');
  const one = await call('GET', '/pipelines', undefined, { pipeline_id: pipelineId, output_mode: 'full', include_flows: 'false' });
  assert.is(one.body.data.pipeline.pipeline_config[aiId].system_prompt, 'Summarize.');
  assert.equal(
    one.body.data.pipeline.pipeline_steps.map((s: Body) => s.step_type),
    ['fetch', 'ai', 'publish'],
  );
  assert.is(one.body.data.flows[0].flow_id, flowId);
  const badOrder = await call('PUT', `/pipelines/${pipelineId}/steps/reorder`, {
    step_order: [{ pipeline_step_id: fetchId, execution_order: 0 }],
  });
  assert.is(badOrder.body.code, 'invalid_step_order');
  const reordered = await call('PUT', `/pipelines/${pipelineId}/steps/reorder`, {
    step_order: [
      { pipeline_step_id: fetchId, execution_order: 0 },
      { pipeline_step_id: publishId, execution_order: 1 },
      { pipeline_step_id: aiId, execution_order: 2 },
    ],
  });
  assert.is(reordered.status, 200);
  assert.equal(
    Object.values((await call('GET', `/flows/${flowId}/config`)).body.flow_config).map((s) => (s as Body).step_type),
    ['fetch', 'publish', 'ai'],
  );
  return { aiId };
}

/** The whole flow, rename and schedule, then a duplicate. */
async function flowEditStep(call: AdminClientCall, t: TestHost, w: Ids) {
  const { pipelineId, fetchId, flowId } = w;
  const whole = await call('GET', `/flows/${flowId}`);
  for (const field of [
    'flow_id',
    'flow_name',
    'pipeline_id',
    'flow_config',
    'scheduling_config',
    'last_run',
    'last_run_status',
    'last_run_display',
    'next_run_display',
    'is_running',
    'consecutive_failures',
    'consecutive_no_items',
    'recent_jobs',
  ]) {
    assert.ok(field in whole.body.data, field);
  }
  const renamed = await call('PATCH', `/flows/${flowId}`, { flow_name: 'Morning news' });
  assert.is(renamed.body.data.flow_name, 'Morning news');
  const past = await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'one_time', timestamp: 1000 } });
  assert.is(past.status, 400);
  assert.is((await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'fortnightly' } })).status, 400);
  const future = Math.floor(t.clock.now().getTime() / 1000) + 3600;
  const once = await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'one_time', timestamp: future } });
  assert.equal(once.body.data.scheduling_config, { interval: 'one_time', timestamp: future });
  const plugged = await call('PATCH', `/flows/${flowId}`, { scheduling_config: { interval: 'every_minute' } });
  assert.is(plugged.status, 200, 'an interval added by a plugin is accepted');

  // Duplicate
  const dup = await call('POST', `/flows/${flowId}/duplicate`);
  assert.is(dup.status, 200);
  assert.is(dup.body.source_flow_id, flowId);
  assert.is(dup.body.flow_name, 'Morning news (Copy)');
  assert.is(dup.body.pipeline_id, pipelineId);
  assert.is(dup.body.pipeline_steps.length, 3);
  const copyId = dup.body.new_flow_id as number;
  assert.equal(dup.body.flow_data.scheduling_config, { interval: 'every_minute' });
  assert.equal(dup.body.flow_data.flow_config[`${fetchId}_${copyId}`].handler_config, {
    feed_url: 'https://example.org/feed.xml',
    max_items: 5,
  });
  assert.is((await call('POST', '/flows/9999/duplicate')).body.code, 'flow_not_found');
  return { copyId };
}

/** Lists and problem flows, then deletes. */
async function listsAndDeletesStep(call: AdminClientCall, t: TestHost, w: Ids) {
  const { pipelineId, flowId, aiId, copyId } = w;
  const flows = await call('GET', '/flows', undefined, { pipeline_id: pipelineId, per_page: 20, offset: 0, output_mode: 'full' });
  assert.is(flows.body.total, 2);
  assert.is(flows.body.per_page, 20);
  assert.is(flows.body.offset, 0);
  await t.host.store.collection('flows').updateOne({ flow_id: copyId }, { $set: { consecutive_failures: 3 } });
  await t.host.store.collection('flows').updateOne({ flow_id: flowId }, { $set: { consecutive_no_items: 2 } });
  const problems = await call('GET', '/flows/problems');
  assert.equal(problems.body.data, {
    problem_flows: [
      {
        flow_id: copyId,
        flow_name: 'Morning news (Copy)',
        consecutive_failures: 3,
        consecutive_no_items: 0,
        needs_configuration: [],
        orphaned: [],
      },
    ],
    total: 1,
    threshold: 3,
  });
  assert.is((await call('GET', '/flows/problems', undefined, { threshold: 2 })).body.data.total, 2);

  // Deletes
  const delFlow = await call('DELETE', `/flows/${copyId}`);
  assert.equal(delFlow.body.data, { flow_id: copyId });
  assert.is((await call('DELETE', `/flows/${copyId}`)).body.code, 'flow_not_found');
  assert.is((await call('DELETE', `/pipelines/${pipelineId}/steps/${aiId}`)).status, 200);
  const delPipeline = await call('DELETE', `/pipelines/${pipelineId}`);
  assert.is(delPipeline.status, 200);
  assert.is(delPipeline.body.data.deleted_flows, 1);
  assert.is((await call('GET', `/flows/${flowId}`)).status, 404);
  assert.is(await t.host.store.collection('flows').count({ pipeline_id: pipelineId }), 0);
}
