// The original admin client picks a handler with `settings: {}` and fills the fields after
// with PATCH …/config (compat/admin-client.md). Every built-in handler with required settings
// can be picked that way; a step still lacking them is stored, shown as needing
// configuration (GET /flows/{id}, /flows/{id}/config, /flows/problems), and a run refuses it
// naming the fields.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { adminClientSession, type AdminClientCall } from '../../support/admin-client-session.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** The six handlers the audit could not pick, their step type, what they require, and values that complete them (in two halves where they require two). */
const HANDLERS: Array<{ slug: string; stepType: string; required: string[]; fill: Array<Record<string, unknown>> }> = [
  { slug: 'rss', stepType: 'fetch', required: ['feed_url'], fill: [{ feed_url: 'https://news.example.org/feed.xml' }] },
  { slug: 'forum', stepType: 'fetch', required: ['community'], fill: [{ community: 'typescript' }] },
  {
    slug: 'spreadsheet',
    stepType: 'fetch',
    required: ['range', 'spreadsheet_id'],
    fill: [{ spreadsheet_id: 'abcdefghij0123' }, { range: 'Sheet1!A1:F' }],
  },
  { slug: 'cms-api', stepType: 'fetch', required: ['api_url'], fill: [{ api_url: 'https://other.example.org/wp-json/wp/v2' }] },
  { slug: 'social', stepType: 'publish', required: ['page_id'], fill: [{ page_id: '1234567890' }] },
  {
    slug: 'spreadsheet-output',
    stepType: 'publish',
    required: ['range', 'spreadsheet_id'],
    fill: [{ spreadsheet_id: 'abcdefghij0123' }, { range: 'Sheet1!A:C', columns: ['title', 'link'] }],
  },
];

type Call = AdminClientCall;

for (const store of testStores('workflows: steps that need configuration')) {
  type Ctx = { t: TestHost; call: Call };
  const test = suite<Ctx>(`workflows: steps that need configuration (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.call = await adminClientSession(ctx.t);
  });
  test.after(async (ctx) => ctx.t.stop());

  /** A pipeline of one step of the type, and a flow of it: the flow id and its flow step id. */
  const oneStepFlow = async (call: Call, stepType: string, name: string) => {
    const pipelineId = (await call('POST', '/pipelines', { pipeline_name: name })).body.data.pipeline_id as number;
    const step = await call('POST', `/pipelines/${pipelineId}/steps`, { step_type: stepType, execution_order: 0, label: 'Step' });
    const flow = await call('POST', '/flows', { pipeline_id: pipelineId, flow_name: name });
    const flowId = flow.body.data.flow_id as number;
    return { pipelineId, flowId, flowStepId: `${step.body.data.pipeline_step_id as string}_${flowId}` };
  };

  for (const handler of HANDLERS) {
    test(`${handler.slug}: picked with settings {}, shown as needing ${handler.required.join(', ')}, then filled with PATCH config`, async ({
      call,
    }) => {
      const { pipelineId, flowId, flowStepId } = await oneStepFlow(call, handler.stepType, `Pick ${handler.slug}`);
      const picked = await call('PUT', `/flows/steps/${flowStepId}/handler`, {
        handler_slug: handler.slug,
        pipeline_id: pipelineId,
        step_type: handler.stepType,
        settings: {},
      });
      assert.is(picked.status, 200, JSON.stringify(picked.body));
      assert.is(picked.body.success, true);
      assert.is(picked.body.data.flow_id, flowId);
      assert.is(picked.body.data.step_config.handler_slug, handler.slug);
      assert.equal(picked.body.data.step_config.missing_settings, handler.required);

      const whole = await call('GET', `/flows/${flowId}`);
      assert.is(whole.body.data.flow_config[flowStepId].handler_slug, handler.slug, 'the pick is stored');
      assert.equal(whole.body.data.flow_config[flowStepId].missing_settings, handler.required);
      const config = await call('GET', `/flows/${flowId}/config`);
      assert.equal(config.body.flow_config[flowStepId].missing_settings, handler.required);
      const problems = await call('GET', '/flows/problems');
      const listed = (problems.body.data.problem_flows as Body[]).find((f) => f.flow_id === flowId);
      assert.ok(listed, 'a flow that cannot run is a problem flow before it has failed');
      assert.equal(listed!.needs_configuration, [
        { flow_step_id: flowStepId, handler_slug: handler.slug, missing_settings: handler.required },
      ]);
      assert.is(listed!.consecutive_failures, 0);

      // A value the handler refuses is still refused, by name.
      const field = Object.keys(handler.fill[0]!)[0]!;
      const bad = await call('PATCH', `/flows/steps/${flowStepId}/config`, { handler_config: { [field]: 'not valid ://' } });
      assert.is(bad.status, 400);
      assert.is(bad.body.code, 'rest_invalid_param');
      assert.ok(bad.body.data.params[field], JSON.stringify(bad.body));

      let lacking = [...handler.required];
      for (const part of handler.fill) {
        const patched = await call('PATCH', `/flows/steps/${flowStepId}/config`, { handler_config: part });
        assert.is(patched.status, 200, JSON.stringify(patched.body));
        assert.is(patched.body.success, true);
        assert.ok(patched.body.message);
        lacking = lacking.filter((name) => !(name in part));
        assert.equal(patched.body.data.step_config.missing_settings, lacking);
      }
      const done = await call('GET', `/flows/steps/${flowStepId}/config`);
      for (const part of handler.fill)
        for (const [key, value] of Object.entries(part)) assert.equal(done.body.config.handler_config[key], value);
      assert.equal(done.body.config.missing_settings, []);
      const after = await call('GET', '/flows/problems');
      assert.not.ok(
        (after.body.data.problem_flows as Body[]).some((f) => f.flow_id === flowId),
        'configured: no longer a problem flow',
      );
    });
  }

  test('a run of a flow whose step lacks settings fails, naming them, in the job and the flow', async ({ call, t }) => {
    const { pipelineId, flowId, flowStepId } = await oneStepFlow(call, 'fetch', 'Unconfigured run');
    await call('PUT', `/flows/steps/${flowStepId}/handler`, {
      handler_slug: 'rss',
      pipeline_id: pipelineId,
      step_type: 'fetch',
      settings: {},
    });
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'failed');
    assert.match(String(job.error), /lacks required settings: feed_url/);
    const detail = await call('GET', `/jobs/${job.job_id as number}`);
    const [step] = detail.body.data.steps as Body[];
    assert.is(step!.status, 'failed');
    assert.is(step!.error_code, 'handler_settings_incomplete');
    assert.equal(step!.missing_settings, ['feed_url']);
    assert.match(String(step!.error), new RegExp(`PATCH /flows/steps/${flowStepId}/config`));
    const whole = await call('GET', `/flows/${flowId}`);
    assert.is(whole.body.data.last_run_status, 'failed');
    assert.match(String(whole.body.data.recent_jobs[0].error), /feed_url/);

    // Filled in, the same flow gets past the check (the feed itself is not reachable here).
    await call('PATCH', `/flows/steps/${flowStepId}/config`, { handler_config: { feed_url: 'http://127.0.0.1:9/feed.xml' } });
    const again = await t.executeAndWait({ flow_id: flowId });
    const [second] = (await call('GET', `/jobs/${again.job_id as number}`)).body.data.steps as Body[];
    assert.is.not(second!.error_code, 'handler_settings_incomplete', JSON.stringify(second));
    assert.is(second!.missing_settings, undefined);
  });

  test('a disabled step that lacks settings does not make a problem flow', async ({ call }) => {
    const { pipelineId, flowId, flowStepId } = await oneStepFlow(call, 'fetch', 'Disabled');
    await call('PUT', `/flows/steps/${flowStepId}/handler`, {
      handler_slug: 'rss',
      pipeline_id: pipelineId,
      step_type: 'fetch',
      settings: {},
    });
    assert.is((await call('PATCH', `/flows/steps/${flowStepId}/config`, { enabled: false })).status, 200);
    const problems = await call('GET', '/flows/problems');
    assert.not.ok((problems.body.data.problem_flows as Body[]).some((f) => f.flow_id === flowId));
    assert.equal((await call('GET', `/flows/${flowId}`)).body.data.flow_config[flowStepId].missing_settings, ['feed_url']);
  });

  test.run();
}
