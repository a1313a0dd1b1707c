// The chat assistant's workflow tools on every store, each driven through POST /chat with
// a fake OpenAI-compatible API scripting the call: what the model got back as the tool
// result, the stored state as the REST routes show it, bad arguments returned to the
// model, a user without manage_options refused; handler defaults (set for rss, a new flow
// step starts from them, explicit settings win, a secret default masked and sealed) and
// their REST routes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import { services, type ActingUser } from '../../../sdk/index.js';
import { chatTools } from '../../../sdk/chat/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';
import { createFakeModelApi, pluginSettingsFor, textReply, toolCallReply, type FakeModelApi } from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const MASK = '••••••••';

/** The last tool message the model was sent, decoded. */
function lastToolOutput(request: RecordedRequest): Body {
  const messages = request.json<Body>().messages as Body[];
  const tool = [...messages].reverse().find((m) => m.role === 'tool');
  assert.ok(tool, `no tool message in ${JSON.stringify(messages)}`);
  return typeof tool!.content === 'string' ? JSON.parse(tool!.content) : tool!.content;
}

let callNo = 0;

/** One POST /chat in which the model calls `name` with `args`: answers what the model was sent back ({success, result|error}). */
async function callTool(t: TestHost, openai: FakeModelApi, name: string, args: Record<string, unknown>): Promise<Body> {
  let seen: Body | undefined;
  const id = `call_w${++callNo}`;
  openai.script.push(toolCallReply('openai', id, name, args), (request) => {
    seen = lastToolOutput(request);
    return textReply('openai', 'Done.');
  });
  const res = await t.request<Body>('POST', '/chat', { body: { message: `Please use ${name}` } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.ok(seen, 'the model was sent the tool result');
  const call = (res.body.tool_calls as Body[]).find((c) => c.id === id)!;
  assert.is(call.function.name, name);
  assert.is('result' in call, seen!.success, 'the answer lists the same outcome');
  return seen!;
}

const ok = (out: Body) => {
  assert.is(out.success, true, JSON.stringify(out));
  return out.result as Body;
};
const failed = (out: Body, pattern: RegExp) => {
  assert.is(out.success, false, JSON.stringify(out));
  assert.match(out.error, pattern);
};

async function newPipeline(t: TestHost, steps: string[]): Promise<{ pipelineId: number; stepIds: string[] }> {
  const res = await t.request<Body>('POST', '/pipelines', {
    body: { pipeline_name: `P ${++callNo}`, steps: steps.map((step_type) => ({ step_type })) },
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return {
    pipelineId: res.body.data.pipeline_id,
    stepIds: (res.body.data.pipeline_data.pipeline_steps as Body[]).map((s) => s.pipeline_step_id),
  };
}

async function newFlow(t: TestHost, pipelineId: number, flowConfig: Record<string, unknown> = {}, name = 'F'): Promise<number> {
  const res = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: name, flow_config: flowConfig } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data.flow_id;
}

const flowConfigOf = async (t: TestHost, flowId: number) =>
  (await t.request<Body>('GET', `/flows/${flowId}/config`)).body.flow_config as Record<string, Body>;

for (const store of testStores('chat workflow tools')) {
  type Ctx = { t: TestHost; openai: FakeModelApi; xai: FakeModelApi; feed: FeedServer };
  const test = suite<Ctx>(`chat workflow tools (${store.label})`);

  test.before(async (ctx) => {
    ctx.feed = await startFeedServer([
      { guid: 'urn:a', title: 'First story' },
      { guid: 'urn:b', title: 'Second story' },
    ]);
    ctx.openai = await createFakeModelApi('openai');
    ctx.xai = await createFakeModelApi('xai');
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: pluginSettingsFor([ctx.openai, ctx.xai], { max_retries: 0 }) },
    });
    const keys = { openai: ctx.openai.validKey, grok: 'grok-wrong-key-abcdefghij0123456789' };
    assert.is((await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: keys, default_provider: 'openai' } })).status, 200);
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.feed.close();
    await ctx.openai.server.close();
    await ctx.xai.server.close();
  });

  test('the model is offered every workflow tool', async ({ t, openai }) => {
    openai.script.push(textReply('openai', 'Hello.'));
    assert.is((await t.request<Body>('POST', '/chat', { body: { message: 'hi' } })).status, 200);
    const offered = (openai.chats().at(-1)!.json<Body>().tools as Body[]).map((x) => x.function.name);
    for (const name of [
      'add_pipeline_step',
      'configure_pipeline_step',
      'configure_flow_step',
      'update_flow',
      'copy_flow',
      'execute_workflow',
      'get_handler_defaults',
      'set_handler_defaults',
      'handler_documentation',
      'validate_credentials',
    ]) {
      assert.ok(offered.includes(name), `${name} offered (${offered.join(', ')})`);
    }
    const schema = (openai.chats().at(-1)!.json<Body>().tools as Body[]).find((x) => x.function.name === 'add_pipeline_step')!.function
      .parameters;
    assert.is(schema.additionalProperties, false);
  });

  test('add_pipeline_step adds a configured ai step; every flow of the pipeline gets a flow step', async ({ t, openai }) => {
    const { pipelineId, stepIds } = await newPipeline(t, ['fetch', 'publish']);
    const a = await newFlow(t, pipelineId);
    const b = await newFlow(t, pipelineId);
    const result = ok(
      await callTool(t, openai, 'add_pipeline_step', {
        pipeline_id: pipelineId,
        step_type: 'ai',
        position: 1,
        label: 'Rewrite',
        config: { provider: 'openai', model: 'gpt-4o-mini', system_prompt: 'Rewrite it.' },
      }),
    );
    assert.match(result.pipeline_step_id, new RegExp(`^${pipelineId}_[0-9a-f-]{36}$`));
    assert.is(result.position, 1);
    assert.is(result.step_type, 'ai');
    assert.equal(result.flows, [
      { flow_id: a, flow_step_id: `${result.pipeline_step_id}_${a}` },
      { flow_id: b, flow_step_id: `${result.pipeline_step_id}_${b}` },
    ]);
    const pipeline = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline;
    assert.equal(
      pipeline.pipeline_steps.map((s: Body) => s.pipeline_step_id),
      [stepIds[0], result.pipeline_step_id, stepIds[1]],
    );
    assert.equal(
      [
        pipeline.pipeline_steps[1].provider,
        pipeline.pipeline_steps[1].model,
        pipeline.pipeline_steps[1].system_prompt,
        pipeline.pipeline_steps[1].label,
      ],
      ['openai', 'gpt-4o-mini', 'Rewrite it.', 'Rewrite'],
    );
    const config = await flowConfigOf(t, b);
    assert.is(config[`${result.pipeline_step_id}_${b}`]!.step_type, 'ai');
    assert.is(config[`${result.pipeline_step_id}_${b}`]!.execution_order, 1);

    // Bad input: refused before anything is added.
    failed(
      await callTool(t, openai, 'add_pipeline_step', { pipeline_id: pipelineId, step_type: 'teleport' }),
      /Unknown step type 'teleport'/,
    );
    failed(
      await callTool(t, openai, 'add_pipeline_step', { pipeline_id: pipelineId, step_type: 'ai', config: { provider: 'nope' } }),
      /No AI provider 'nope'/,
    );
    const invalid = await callTool(t, openai, 'add_pipeline_step', {
      pipeline_id: pipelineId,
      step_type: 'fetch',
      position: -1,
      colour: 'red',
    });
    failed(invalid, /^Invalid arguments for add_pipeline_step: .*\/position must be >= 0/);
    failed(invalid, /must NOT have additional properties \(colour\)/);
    failed(await callTool(t, openai, 'add_pipeline_step', { pipeline_id: 999999, step_type: 'fetch' }), /Pipeline 999999 not found/);
    assert.is((await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.step_count, 3);
  });

  test("configure_pipeline_step sets an ai step's provider, model and prompt as the REST route does", async ({ t, openai }) => {
    const { pipelineId, stepIds } = await newPipeline(t, ['fetch', 'ai']);
    const result = ok(
      await callTool(t, openai, 'configure_pipeline_step', {
        pipeline_step_id: stepIds[1],
        provider: 'openai',
        model: 'gpt-4o',
        system_prompt: 'Be brief.',
      }),
    );
    assert.equal([result.pipeline_step_id, result.step_type, result.position], [stepIds[1], 'ai', 1]);
    assert.equal(result.config, { provider: 'openai', model: 'gpt-4o', system_prompt: 'Be brief.' });
    ok(await callTool(t, openai, 'configure_pipeline_step', { pipeline_step_id: stepIds[1], model: 'gpt-4o-mini' }));
    const step = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps[1];
    assert.equal([step.provider, step.model, step.system_prompt], ['openai', 'gpt-4o-mini', 'Be brief.']);

    failed(
      await callTool(t, openai, 'configure_pipeline_step', { pipeline_step_id: stepIds[1], provider: 'nope' }),
      /No AI provider 'nope' is registered/,
    );
    failed(await callTool(t, openai, 'configure_pipeline_step', { pipeline_step_id: stepIds[1] }), /Nothing to set/);
    failed(
      await callTool(t, openai, 'configure_pipeline_step', { pipeline_step_id: 'not-a-step', model: 'x' }),
      /Invalid arguments for configure_pipeline_step: \/pipeline_step_id must match pattern/,
    );
    failed(
      await callTool(t, openai, 'configure_pipeline_step', {
        pipeline_step_id: `${pipelineId}_00000000-0000-4000-8000-000000000000`,
        model: 'x',
      }),
      /not found/,
    );
  });

  test('configure_flow_step: handler and settings by position, merge by flow_step_id, user_message, enabled; checked like REST', async ({
    t,
    openai,
    feed,
  }) => {
    const { pipelineId, stepIds } = await newPipeline(t, ['fetch', 'ai', 'publish']);
    const flowId = await newFlow(t, pipelineId);
    const fetchId = `${stepIds[0]}_${flowId}`;
    const set = ok(
      await callTool(t, openai, 'configure_flow_step', {
        flow_id: flowId,
        position: 0,
        handler_slug: 'rss',
        settings: { feed_url: feed.url },
      }),
    );
    assert.is(set.flow_step_id, fetchId);
    assert.equal([set.step.handler_slug, set.step.handler_config.feed_url, set.step.handler_config.max_items], ['rss', feed.url, 1]);

    ok(await callTool(t, openai, 'configure_flow_step', { flow_step_id: fetchId, settings: { max_items: 5 } }));
    ok(
      await callTool(t, openai, 'configure_flow_step', {
        flow_id: flowId,
        pipeline_step_id: stepIds[1],
        user_message: 'Summarise the story.',
      }),
    );
    ok(
      await callTool(t, openai, 'configure_flow_step', {
        flow_id: flowId,
        position: 2,
        handler_slug: 'cms',
        settings: { post_status: 'publish' },
        enabled: false,
      }),
    );
    const config = await flowConfigOf(t, flowId);
    assert.equal(config[fetchId]!.handler_config, { feed_url: feed.url, max_items: 5 }, 'settings alone merge');
    assert.is(config[`${stepIds[1]}_${flowId}`]!.user_message, 'Summarise the story.');
    assert.equal(
      [
        config[`${stepIds[2]}_${flowId}`]!.handler_slug,
        config[`${stepIds[2]}_${flowId}`]!.handler_config.post_status,
        config[`${stepIds[2]}_${flowId}`]!.enabled,
      ],
      ['cms', 'publish', false],
    );

    failed(
      await callTool(t, openai, 'configure_flow_step', { flow_step_id: fetchId, settings: { max_items: 500 } }),
      /Invalid settings for handler 'rss'.*max_items/,
    );
    failed(
      await callTool(t, openai, 'configure_flow_step', { flow_step_id: fetchId, handler_slug: 'cms' }),
      /Handler 'cms' is a publish handler; this is a fetch step/,
    );
    failed(
      await callTool(t, openai, 'configure_flow_step', { flow_step_id: fetchId, user_message: 'x' }),
      /user_message applies to ai steps/,
    );
    failed(
      await callTool(t, openai, 'configure_flow_step', { flow_id: flowId, position: 7, enabled: true }),
      /has 3 step\(s\); there is no position 7/,
    );
    failed(
      await callTool(t, openai, 'configure_flow_step', { flow_id: flowId, enabled: true }),
      /exactly one of pipeline_step_id or position/,
    );
    failed(await callTool(t, openai, 'configure_flow_step', { flow_step_id: fetchId }), /Nothing to set/);
    failed(
      await callTool(t, openai, 'configure_flow_step', { flow_step_id: fetchId, enabled: 'yes' }),
      /Invalid arguments for configure_flow_step: \/enabled must be boolean/,
    );
    assert.equal((await flowConfigOf(t, flowId))[fetchId]!.handler_config, { feed_url: feed.url, max_items: 5 }, 'nothing changed');

    // A secret setting is sealed in the store and masked to the model, as through REST.
    const remote = await newPipeline(t, ['fetch']);
    const remoteFlow = await newFlow(t, remote.pipelineId);
    const secret = ok(
      await callTool(t, openai, 'configure_flow_step', {
        flow_id: remoteFlow,
        position: 0,
        handler_slug: 'cms-api',
        settings: { api_url: 'https://example.com/wp-json/wp/v2', username: 'bot', app_password: 'abcd efgh ijkl mnop' },
      }),
    );
    assert.is(secret.step.handler_config.app_password, MASK);
    const record = await t.host.flows.record(remoteFlow);
    const stored = Object.values(record!.steps)[0]!.handler_config.app_password as string;
    assert.ok(stored !== 'abcd efgh ijkl mnop' && !stored.includes('abcd'), 'sealed at rest');
  });

  test('update_flow renames and reschedules; unknown intervals refused', async ({ t, openai }) => {
    const { pipelineId } = await newPipeline(t, ['fetch']);
    const flowId = await newFlow(t, pipelineId, {}, 'Before');
    const result = ok(await callTool(t, openai, 'update_flow', { flow_id: flowId, name: 'After', schedule: 'hourly' }));
    assert.equal([result.flow_id, result.name, result.schedule], [flowId, 'After', 'hourly']);
    const flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    assert.equal([flow.flow_name, flow.scheduling_config], ['After', { interval: 'hourly' }]);
    assert.is(result.next_run, flow.next_run);
    // The change is a revision of the flow, recorded as the chat assistant's (issue 55).
    const latest = (await t.request<Body>('GET', `/flows/${flowId}/revisions`)).body.data.revisions[0];
    assert.equal([latest.revision, latest.change, latest.client, latest.user_login], [2, 'flow.update', 'chat', 'admin']);

    failed(await callTool(t, openai, 'update_flow', { flow_id: flowId, schedule: 'fortnightly' }), /Unknown interval 'fortnightly'/);
    failed(
      await callTool(t, openai, 'update_flow', { flow_id: flowId, schedule: 'one_time' }),
      /one_time schedule needs a future Unix timestamp/,
    );
    failed(await callTool(t, openai, 'update_flow', { flow_id: flowId }), /Nothing to change/);
    failed(
      await callTool(t, openai, 'update_flow', { flow_id: flowId, name: '' }),
      /Invalid arguments for update_flow: \/name must NOT have fewer than 1 characters/,
    );
    failed(await callTool(t, openai, 'update_flow', { flow_id: 987654, name: 'x' }), /Flow 987654 not found/);
    assert.equal((await t.request<Body>('GET', `/flows/${flowId}`)).body.data.scheduling_config, { interval: 'hourly' });
  });

  test('copy_flow duplicates a flow with its handlers and settings under a new name', async ({ t, openai, feed }) => {
    const { pipelineId, stepIds } = await newPipeline(t, ['fetch', 'publish']);
    const source = await newFlow(
      t,
      pipelineId,
      {
        [stepIds[0]!]: { handler_slug: 'rss', handler_config: { feed_url: feed.url, max_items: 2 } },
        [stepIds[1]!]: { handler_slug: 'cms', handler_config: { post_status: 'draft' } },
      },
      'Original',
    );
    const result = ok(await callTool(t, openai, 'copy_flow', { flow_id: source, name: 'Twin' }));
    assert.ok(result.flow_id !== source);
    assert.equal([result.source_flow_id, result.name, result.pipeline_id], [source, 'Twin', pipelineId]);
    assert.equal(
      result.steps.map((s: Body) => [s.flow_step_id, s.handler]),
      [
        [`${stepIds[0]}_${result.flow_id}`, 'rss'],
        [`${stepIds[1]}_${result.flow_id}`, 'cms'],
      ],
    );
    const copy = (await t.request<Body>('GET', `/flows/${result.flow_id}`)).body.data;
    assert.is(copy.flow_name, 'Twin');
    assert.equal(copy.flow_config[`${stepIds[0]}_${result.flow_id}`].handler_config, { feed_url: feed.url, max_items: 2 });
    const unnamed = ok(await callTool(t, openai, 'copy_flow', { flow_id: source }));
    assert.is(unnamed.name, 'Original (Copy)');
    failed(await callTool(t, openai, 'copy_flow', { flow_id: 424242 }), /Flow 424242 not found/);
    failed(await callTool(t, openai, 'copy_flow', { flow_id: source, pipeline_id: 3 }), /Invalid arguments for copy_flow.*\(pipeline_id\)/);
  });

  test('execute_workflow runs an ephemeral rss → cms workflow and answers the job id', async ({ t, openai, feed }) => {
    const steps = [
      { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: feed.url, max_items: 2 } },
      { type: 'publish', handler_slug: 'cms', handler_config: { post_status: 'publish' } },
    ];
    const result = ok(await callTool(t, openai, 'execute_workflow', { steps }));
    assert.ok(Number.isInteger(result.job_id));
    assert.equal([result.execution_type, result.step_count], ['immediate', 2]);
    const job = await t.waitForJob(result.job_id);
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is((job as Body).flow_id ?? null, null, 'no flow was saved');

    failed(await callTool(t, openai, 'execute_workflow', { steps: [{ type: 'fetch', handler_slug: 'nope' }] }), /unknown handler 'nope'/);
    failed(
      await callTool(t, openai, 'execute_workflow', {
        steps: [{ type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: 'not a url' } }],
      }),
      /Invalid settings for handler 'rss'/,
    );
    failed(
      await callTool(t, openai, 'execute_workflow', { steps: [] }),
      /Invalid arguments for execute_workflow: \/steps must NOT have fewer than 1 items/,
    );
    failed(await callTool(t, openai, 'execute_workflow', { steps: [{ type: 'ai', provider: 'nope' }] }), /unknown AI provider 'nope'/);
  });

  test('handler defaults: set for rss through the tools, a new flow step starts from them, explicit settings win', async ({
    t,
    openai,
    feed,
  }) => {
    const set = ok(await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'rss', settings: { max_items: 7 } }));
    assert.equal(set, { handler_slug: 'rss', mode: 'merge', settings: { max_items: 7 } });
    assert.equal(ok(await callTool(t, openai, 'get_handler_defaults', { handler_slug: 'rss' })), {
      handler_slug: 'rss',
      settings: { max_items: 7 },
    });
    assert.equal(ok(await callTool(t, openai, 'get_handler_defaults', {})).handler_defaults.rss, { max_items: 7 });

    const { pipelineId, stepIds } = await newPipeline(t, ['fetch', 'publish']);
    // POST /flows with only the feed URL: the step has the default.
    const plain = await newFlow(t, pipelineId, { [stepIds[0]!]: { handler_slug: 'rss', handler_config: { feed_url: feed.url } } });
    assert.equal((await flowConfigOf(t, plain))[`${stepIds[0]}_${plain}`]!.handler_config, { feed_url: feed.url, max_items: 7 });
    // Explicit settings win key by key (create_flow through the chat).
    const explicit = ok(
      await callTool(t, openai, 'create_flow', {
        pipeline_id: pipelineId,
        handlers: [{ slug: 'rss', settings: { feed_url: feed.url, max_items: 3 } }],
      }),
    );
    assert.equal((await flowConfigOf(t, explicit.flow_id))[`${stepIds[0]}_${explicit.flow_id}`]!.handler_config, {
      feed_url: feed.url,
      max_items: 3,
    });
    // PUT /flows/steps/{id}/handler and configure_flow_step pick a handler: defaults too.
    const bare = await newFlow(t, pipelineId);
    const put = await t.request<Body>('PUT', `/flows/steps/${stepIds[0]}_${bare}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: feed.url } },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.data.step_config.handler_config, { feed_url: feed.url, max_items: 7 });
    const viaTool = await newFlow(t, pipelineId);
    const configured = ok(
      await callTool(t, openai, 'configure_flow_step', {
        flow_id: viaTool,
        position: 0,
        handler_slug: 'rss',
        settings: { feed_url: feed.url },
      }),
    );
    assert.is(configured.step.handler_config.max_items, 7);
    // An import starts from them as well.
    const exported = await t.request<Body>('GET', `/pipelines/${pipelineId}/export`);
    assert.is(exported.status, 200, JSON.stringify(exported.body));
    const doc = exported.body.data;
    let stripped = 0;
    for (const flow of doc.flows as Body[]) {
      for (const step of Object.values(flow.steps) as Body[]) {
        if (step.handler_slug === 'rss') {
          delete step.handler_config.max_items;
          stripped++;
        }
      }
    }
    assert.ok(stripped > 0);
    const imported = await t.request<Body>('POST', '/flows/import', { body: doc });
    assert.is(imported.status, 201, JSON.stringify(imported.body));
    for (const id of imported.body.data.flow_ids as number[]) {
      const rss = Object.values(await flowConfigOf(t, id)).find((s) => s.handler_slug === 'rss');
      if (rss) assert.is(rss.handler_config.max_items, 7, 'an imported step starts from the defaults');
    }
    // Existing flows are not changed by a later default.
    ok(await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'rss', settings: { max_items: 9 } }));
    assert.is((await flowConfigOf(t, plain))[`${stepIds[0]}_${plain}`]!.handler_config.max_items, 7);

    // Checked against the handler's schema (required fields may be left out).
    failed(
      await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'rss', settings: { max_items: 'many' } }),
      /Invalid defaults for handler 'rss': max_items must be integer/,
    );
    failed(
      await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'rss', settings: { colour: 'red' } }),
      /colour is not an allowed property/,
    );
    failed(await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'nope', settings: {} }), /No handler 'nope' is registered/);
    failed(
      await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'rss', settings: {}, mode: 'overwrite' }),
      /Invalid arguments for set_handler_defaults: \/mode must be equal to one of the allowed values/,
    );
    failed(await callTool(t, openai, 'get_handler_defaults', { handler_slug: 'nope' }), /No handler 'nope' is registered/);
    // replace (with {} it removes them all) deletes: off unless the site enables it (destructive-tools.test.ts).
    failed(
      await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'rss', settings: {}, mode: 'replace' }),
      /Not run: set_handler_defaults .* not enabled it for chat/,
    );
    assert.equal(ok(await callTool(t, openai, 'get_handler_defaults', { handler_slug: 'rss' })).settings, { max_items: 9 });
  });

  test('a secret handler default is masked on read, sealed in the store, and given to new steps', async ({ t, openai }) => {
    const set = ok(
      await callTool(t, openai, 'set_handler_defaults', {
        handler_slug: 'cms-api',
        settings: { username: 'bot', app_password: 'wxyz 1234 abcd 5678' },
      }),
    );
    assert.equal(set.settings, { username: 'bot', app_password: MASK });
    const got = ok(await callTool(t, openai, 'get_handler_defaults', { handler_slug: 'cms-api' }));
    assert.equal(got.settings, { username: 'bot', app_password: MASK });
    const raw = JSON.stringify(await t.host.store.collection('settings').find({}));
    assert.ok(raw.includes('handler_defaults:cms-api'), raw);
    assert.not.ok(raw.includes('wxyz 1234'), 'sealed at rest');
    // Sending the mask back keeps the secret; merging another key keeps it too.
    ok(await callTool(t, openai, 'set_handler_defaults', { handler_slug: 'cms-api', settings: { app_password: MASK, per_page: 10 } }));

    const { pipelineId, stepIds } = await newPipeline(t, ['fetch']);
    const flowId = await newFlow(t, pipelineId, {
      [stepIds[0]!]: { handler_slug: 'cms-api', handler_config: { api_url: 'https://example.com/wp-json/wp/v2' } },
    });
    const step = (await flowConfigOf(t, flowId))[`${stepIds[0]}_${flowId}`]!;
    assert.equal([step.handler_config.username, step.handler_config.app_password, step.handler_config.per_page], ['bot', MASK, 10]);
    const record = await t.host.flows.record(flowId);
    const sealed = Object.values(record!.steps)[0]!.handler_config as Record<string, unknown>;
    assert.not.ok(JSON.stringify(sealed).includes('wxyz'), 'sealed on the flow');
    assert.is(t.host.flows.secrets.open(sealed).app_password, 'wxyz 1234 abcd 5678', 'the run gets the default secret');
    // The tool results never carried it.
    const toolResults = openai.chats().flatMap((r) => (r.json<Body>().messages as Body[]).filter((m) => m.role === 'tool'));
    assert.ok(toolResults.length > 0);
    assert.not.ok(JSON.stringify(toolResults).includes('1234 abcd'), 'no tool result carried the secret back to the model');
  });

  test('handler_documentation: one handler with its fields and defaults; all of a step type; bounded', async ({ t, openai }) => {
    const one = ok(await callTool(t, openai, 'handler_documentation', { handler_slug: 'rss' }));
    assert.equal([one.handler.slug, one.handler.step_types, one.handler.requires_auth], ['rss', ['fetch'], false]);
    const feedUrl = one.handler.settings.fields.find((f: Body) => f.name === 'feed_url');
    assert.equal([feedUrl.type, feedUrl.required, feedUrl.label], ['string', true, 'Feed URL']);
    const maxItems = one.handler.settings.fields.find((f: Body) => f.name === 'max_items');
    assert.equal([maxItems.type, maxItems.required, maxItems.default, maxItems.minimum, maxItems.maximum], ['integer', false, 1, 1, 50]);
    assert.is(one.handler.settings.accepts_other_fields, false);
    assert.ok('handler_defaults' in one);

    const cms = ok(await callTool(t, openai, 'handler_documentation', { handler_slug: 'cms' }));
    assert.equal(cms.handler.settings.fields.find((f: Body) => f.name === 'post_status').enum, ['publish', 'draft']);

    const publish = ok(await callTool(t, openai, 'handler_documentation', { step_type: 'publish' }));
    const slugs = publish.handlers.map((h: Body) => h.slug);
    assert.ok(slugs.includes('cms') && slugs.includes('federated'), slugs.join(','));
    assert.not.ok(slugs.includes('rss'));
    const federated = publish.handlers.find((h: Body) => h.slug === 'federated');
    assert.equal(federated.auth, { type: 'app_password', fields: ['handle', 'password'], connected: false });
    const all = await callTool(t, openai, 'handler_documentation', {});
    assert.ok(JSON.stringify(all).length < 60_000, 'bounded');
    assert.is(ok(all).total, (await t.host.services.get(services.handlerCatalogue, 'test')).handlers().length);

    failed(await callTool(t, openai, 'handler_documentation', { handler_slug: 'nope' }), /No handler 'nope' is registered/);
    failed(await callTool(t, openai, 'handler_documentation', { step_type: 'teleport' }), /Unknown step type 'teleport'/);
    failed(
      await callTool(t, openai, 'handler_documentation', { handler_slug: 'x'.repeat(101) }),
      /Invalid arguments for handler_documentation/,
    );
  });

  test('validate_credentials: handler auth status and AI provider keys, never the secret', async ({ t, openai }) => {
    assert.equal(ok(await callTool(t, openai, 'validate_credentials', { handler_slug: 'rss' })), {
      valid: true,
      handler_slug: 'rss',
      requires_auth: false,
      message: "Handler 'rss' needs no credentials.",
    });
    const before = ok(await callTool(t, openai, 'validate_credentials', { handler_slug: 'federated' }));
    assert.equal(
      [before.valid, before.configured, before.connected, before.fields_set],
      [false, false, false, { handle: false, password: false }],
    );
    assert.match(before.message, /handle, password are not set/);

    const put = await t.request<Body>('PUT', '/auth/federated', { body: { handle: 'me.example', password: 'app-pass-secret-9876' } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    const after = await callTool(t, openai, 'validate_credentials', { handler_slug: 'federated' });
    assert.equal(
      [ok(after).valid, ok(after).connected, ok(after).account, ok(after).fields_set],
      [true, true, 'me.example', { handle: true, password: true }],
    );
    assert.not.ok(JSON.stringify(after).includes('9876'), 'not even the last characters');

    const good = ok(await callTool(t, openai, 'validate_credentials', { provider: 'openai' }));
    assert.equal([good.valid, good.configured, good.tested], [true, true, true]);
    const bad = await callTool(t, openai, 'validate_credentials', { provider: 'grok' });
    assert.equal([ok(bad).valid, ok(bad).code], [false, 'key_refused']);
    assert.not.ok(/grok-wrong-key|0123456789|wr\*\*\*ey/.test(JSON.stringify(bad)), JSON.stringify(bad));
    const none = ok(await callTool(t, openai, 'validate_credentials', { provider: 'anthropic' }));
    assert.equal([none.valid, none.configured], [false, false]);

    failed(await callTool(t, openai, 'validate_credentials', {}), /exactly one of handler_slug or provider/);
    failed(await callTool(t, openai, 'validate_credentials', { handler_slug: 'rss', provider: 'openai' }), /exactly one/);
    failed(await callTool(t, openai, 'validate_credentials', { provider: 'nope' }), /No AI provider 'nope'/);
  });

  test('the workflow tools refuse a user without manage_options, naming the tool and the user', async ({ t }) => {
    const editor: ActingUser = { userId: 99, login: 'ed', capabilities: ['edit_posts'], can: (c) => c === 'edit_posts' };
    const ctx = { user: editor, log: undefined as never, clock: t.clock, fetch: undefined as never };
    const args: Record<string, Record<string, unknown>> = {
      add_pipeline_step: { pipeline_id: 1, step_type: 'fetch' },
      configure_pipeline_step: { pipeline_step_id: '1_00000000-0000-4000-8000-000000000000', model: 'x' },
      configure_flow_step: { flow_id: 1, position: 0, enabled: false },
      update_flow: { flow_id: 1, name: 'x' },
      copy_flow: { flow_id: 1 },
      execute_workflow: { steps: [{ type: 'fetch', handler_slug: 'rss' }] },
      get_handler_defaults: {},
      set_handler_defaults: { handler_slug: 'rss', settings: { max_items: 2 } },
      handler_documentation: {},
      validate_credentials: { provider: 'openai' },
    };
    for (const [name, given] of Object.entries(args)) {
      const tool = t.host.registries
        .extensionPoint(chatTools)
        .list()
        .find((x) => x.name === name)!;
      try {
        await tool.run(given, ctx as never);
        assert.unreachable(`${name} ran for an editor`);
      } catch (error) {
        assert.match((error as Error).message, new RegExp(`${name} needs the manage_options capability, which user ed does not have`));
      }
    }
    // Nothing changed (the defaults the earlier test left).
    assert.equal((await t.request<Body>('GET', '/settings/handler-defaults/rss')).body.data.settings, { max_items: 9 });
  });

  test('REST: GET/PUT/PATCH/DELETE /settings/handler-defaults', async ({ t, feed }) => {
    const empty = await t.request<Body>('GET', '/settings/handler-defaults/cms');
    assert.is(empty.status, 200, JSON.stringify(empty.body));
    assert.equal(empty.body.data, { handler_slug: 'cms', settings: {} });
    const put = await t.request<Body>('PUT', '/settings/handler-defaults/cms', { body: { settings: { post_status: 'publish' } } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.data, { handler_slug: 'cms', settings: { post_status: 'publish' } });
    const all = await t.request<Body>('GET', '/settings/handler-defaults');
    assert.is(all.status, 200);
    assert.equal(all.body.data.cms, { post_status: 'publish' });
    assert.equal(all.body.data['cms-api']?.app_password, MASK, 'secrets masked in the list');
    // GET /handlers/{slug}: current_value is the default a new step starts from (the admin client shows it).
    const cmsFields = (await t.request<Body>('GET', '/handlers/cms')).body.data.settings;
    assert.equal([cmsFields.post_status.default, cmsFields.post_status.current_value], ['draft', 'publish']);
    const remoteFields = (await t.request<Body>('GET', '/handlers/cms-api')).body.data.settings;
    assert.equal(
      [remoteFields.app_password.current_value, remoteFields.per_page.current_value, remoteFields.pages.current_value],
      [MASK, 10, 1],
    );

    // A new flow's cms step starts from it.
    const { pipelineId, stepIds } = await newPipeline(t, ['fetch', 'publish']);
    const flowId = await newFlow(t, pipelineId, {
      [stepIds[0]!]: { handler_slug: 'rss', handler_config: { feed_url: feed.url } },
      [stepIds[1]!]: { handler_slug: 'cms' },
    });
    assert.is((await flowConfigOf(t, flowId))[`${stepIds[1]}_${flowId}`]!.handler_config.post_status, 'publish');

    // PATCH merges; null removes a key; PUT replaces.
    const patched = await t.request<Body>('PATCH', '/settings/handler-defaults/rss', { body: { settings: { max_items: 4 } } });
    assert.equal(patched.body.data.settings, { max_items: 4 });
    assert.equal(
      (await t.request<Body>('PATCH', '/settings/handler-defaults/rss', { body: { settings: { feed_url: feed.url } } })).body.data.settings,
      { max_items: 4, feed_url: feed.url },
    );
    assert.equal(
      (await t.request<Body>('PATCH', '/settings/handler-defaults/rss', { body: { settings: { feed_url: null } } })).body.data.settings,
      { max_items: 4 },
    );
    assert.equal(
      (await t.request<Body>('PUT', '/settings/handler-defaults/rss', { body: { settings: { feed_url: feed.url } } })).body.data.settings,
      { feed_url: feed.url },
    );

    const invalid = await t.request<Body>('PUT', '/settings/handler-defaults/cms', { body: { settings: { post_status: 'secret' } } });
    assert.is(invalid.status, 400);
    assert.is(invalid.body.code, 'rest_invalid_param');
    assert.match(invalid.body.message, /post_status must be one of: publish, draft/);
    const unknown = await t.request<Body>('PUT', '/settings/handler-defaults/nope', { body: { settings: {} } });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.code, 'handler_not_found');
    assert.is((await t.request<Body>('GET', '/settings/handler-defaults/nope')).status, 404);
    assert.is((await t.request<Body>('PUT', '/settings/handler-defaults/cms', { body: { post_status: 'draft' } })).status, 400);
    const editor = await t.createUser('defaults-editor', 'editor');
    assert.is((await t.request<Body>('GET', '/settings/handler-defaults', { as: editor })).status, 403);
    assert.is((await t.request<Body>('PUT', '/settings/handler-defaults/cms', { as: editor, body: { settings: {} } })).status, 403);

    const deleted = await t.request<Body>('DELETE', '/settings/handler-defaults/cms');
    assert.is(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.data, { handler_slug: 'cms', settings: {} });
    assert.not.ok('cms' in (await t.request<Body>('GET', '/settings/handler-defaults')).body.data);
  });

  test.run();
}
