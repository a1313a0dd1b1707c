// The MCP client on both stores: an administrator registers a fake MCP server on loopback
// (the SDK's own server) with a bearer token; the token is sealed at rest and never answered,
// logged or exported; the server's tools are listed live; an ai step whose model (a fake
// OpenAI-compatible API) asks for the allow-listed tool calls it with the right arguments and
// token, and the job's record shows the call and its result; a tool off the allow-list is
// refused; the remote failing halfway (500, dropped connection, no answer) fails the step
// with a clear error and the host goes on; the chat assistant calls an allowed tool too.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost, type TestResponse } from '../../../sdk/testing/index.js';
import type { RequestOptions } from '../../../sdk/testing/test-client.js';
import { testStores } from '../../support/test-stores.js';
import { captureLogger } from '../../support/capture-logger.js';
import { createFakeModelApi, pluginSettingsFor, textReply, toolCallReply, type FakeModelApi } from '../../support/fake-model-apis.js';
import { startFakeMcpServer, type FakeMcpServer } from '../../support/fake-mcp-server.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const TOKEN = 'mcp-bearer-secret-0123456789abcdef';

for (const store of testStores('mcp client')) {
  type Ctx = { t: TestHost; mcp: FakeMcpServer; openai: FakeModelApi; lines: string[]; bodies: string[] };
  const test = suite<Ctx>(`mcp client (${store.label})`);

  /** Every answer the test saw, to scan for the token. */
  const call = async (ctx: Ctx, method: string, path: string, options?: RequestOptions): Promise<TestResponse<Body>> => {
    const res = await ctx.t.request<Body>(method, path, options);
    ctx.bodies.push(JSON.stringify(res.body));
    return res;
  };

  /** A flow of one ai step whose pipeline step names `tools`; answers the flow id. */
  const aiFlow = async (ctx: Ctx, name: string, tools: string[], extra: Record<string, unknown> = {}) => {
    const pipeline = (await call(ctx, 'POST', '/pipelines', { body: { pipeline_name: name, steps: [{ step_type: 'ai' }] } })).body.data;
    const stepId = (await call(ctx, 'GET', `/pipelines/${pipeline.pipeline_id}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    const config = await call(ctx, 'PUT', `/pipelines/steps/${stepId}/config`, {
      body: { step_type: 'ai', pipeline_id: pipeline.pipeline_id, provider: 'openai', model: 'gpt-4o-mini', mcp_tools: tools, ...extra },
    });
    assert.is(config.status, 200, JSON.stringify(config.body));
    const flowId = (await call(ctx, 'POST', '/flows', { body: { pipeline_id: pipeline.pipeline_id, flow_name: name } })).body.data.flow_id;
    await call(ctx, 'PATCH', `/flows/steps/${stepId}_${flowId}/config`, {
      body: { user_message: 'What does the archive say about rivers?' },
    });
    return flowId as number;
  };

  test.before(async (ctx) => {
    ctx.lines = [];
    ctx.bodies = [];
    ctx.mcp = await startFakeMcpServer();
    ctx.openai = await createFakeModelApi('openai');
    ctx.t = await createTestHost({
      plugins: [],
      logger: captureLogger(ctx.lines),
      config: { ...store.config(), allowPrivateUrls: true, pluginSettings: pluginSettingsFor([ctx.openai], { max_retries: 0 }) },
    });
    await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: ctx.openai.validKey } } });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.mcp.close();
    await ctx.openai.server.close();
  });

  test('registration: the token is sealed at rest and answered masked; bad input is 4xx', async (ctx) => {
    const created = await call(ctx, 'POST', '/mcp-servers', {
      body: { name: 'archive', url: ctx.mcp.url, auth: { type: 'bearer', token: TOKEN }, allowed_tools: ['search'] },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.auth, { type: 'bearer', token: '••••••••' });
    assert.equal(created.body.data.allowed_tools, ['search']);
    assert.is(created.body.data.chat, false);
    const stored = await ctx.t.host.store.collection('mcp-client__servers').findOne({ _id: 'archive' });
    assert.ok(typeof stored?.auth_secret === 'string' && stored.auth_secret.length > 20, 'a sealed secret is stored');
    assert.not.ok(JSON.stringify(stored).includes(TOKEN), 'the token is not stored in clear');

    const list = await call(ctx, 'GET', '/mcp-servers');
    assert.equal(
      list.body.data.map((s: Body) => s.name),
      ['archive'],
    );
    const bad: Array<[unknown, number]> = [
      [{ name: 'archive', url: ctx.mcp.url }, 409],
      [{ name: 'Bad Name', url: ctx.mcp.url }, 400],
      [{ name: 'nourl' }, 400],
      [{ name: 'ftp', url: 'ftp://example.test/mcp' }, 400],
      [{ name: 'creds', url: 'http://user:pw@127.0.0.1:9/mcp' }, 400],
      [{ name: 'auth1', url: ctx.mcp.url, auth: { type: 'basic', token: 'x' } }, 400],
      [{ name: 'auth2', url: ctx.mcp.url, auth: { type: 'bearer' } }, 400],
      [{ name: 'auth3', url: ctx.mcp.url, auth: { type: 'header', header: 'Content-Type', value: 'x' } }, 400],
      [{ name: 'auth4', url: ctx.mcp.url, auth: { type: 'bearer', token: '••••••••' } }, 400],
      [{ name: 'tools', url: ctx.mcp.url, allowed_tools: ['bad tool'] }, 400],
      [{ name: 'slow', url: ctx.mcp.url, timeout_ms: 10 }, 400],
      ['not an object', 400],
    ];
    for (const [body, status] of bad) {
      const res = await call(ctx, 'POST', '/mcp-servers', { body });
      assert.is(res.status, status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    assert.is((await call(ctx, 'GET', '/mcp-servers/nothing')).status, 404);
    assert.is((await call(ctx, 'PATCH', '/mcp-servers/archive', { body: {} })).status, 400);
    assert.is((await call(ctx, 'DELETE', '/mcp-servers/nothing')).status, 404);
    const editor = await ctx.t.createUser('mcp-editor', 'editor');
    assert.is((await call(ctx, 'GET', '/mcp-servers', { as: editor })).status, 403);
    assert.is((await call(ctx, 'GET', '/mcp-servers', { as: 'anonymous' })).status, 401);

    // The masked token sent back keeps the stored one; a PATCH answers masked too.
    const kept = await call(ctx, 'PATCH', '/mcp-servers/archive', {
      body: { auth: { type: 'bearer', token: '••••••••' }, timeout_ms: 5000 },
    });
    assert.is(kept.status, 200, JSON.stringify(kept.body));
    const after = await ctx.t.host.store.collection('mcp-client__servers').findOne({ _id: 'archive' });
    assert.is(after?.auth_secret, stored?.auth_secret);
  });

  test('the server’s tools are listed live, with the token sent and the allow-list shown', async (ctx) => {
    const res = await call(ctx, 'GET', '/mcp-servers/archive/tools');
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(
      res.body.data.tools.map((t: Body) => [t.name, t.allowed]),
      [
        ['search', true],
        ['delete_all', false],
      ],
    );
    assert.equal(res.body.data.tools[0].input_schema.required, ['query']);
    const posts = ctx.mcp.requests.filter((r) => r.method === 'POST');
    assert.ok(posts.length >= 2);
    assert.ok(
      posts.every((r) => r.headers.authorization === `Bearer ${TOKEN}`),
      'every request carries the token',
    );
    assert.not.ok(
      ctx.mcp.requests.some((r) => r.method === 'GET'),
      'no listening stream is opened',
    );
  });

  test('an ai step calls the allowed tool with the model’s arguments and the token; the record shows it', async (ctx) => {
    const flowId = await aiFlow(ctx, 'Archive answer', ['archive/search']);
    ctx.openai.script.push(
      toolCallReply('openai', 'call_1', 'archive__search', { query: 'rivers', limit: 3 }),
      textReply('openai', '# Rivers in the archive\n\nThe archive has three results about rivers.'),
    );
    const before = ctx.mcp.calls.length;
    const job = await ctx.t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const received = ctx.mcp.calls.slice(before);
    assert.equal(
      received.map((c) => [c.name, c.args, c.authorization]),
      [['search', { query: 'rivers', limit: 3 }, `Bearer ${TOKEN}`]],
    );
    // The model was offered the tool with its schema, then given the result.
    const [first, second] = ctx.openai
      .chats()
      .slice(-2)
      .map((r) => r.json<Body>());
    const offered = first!.tools.map((t: Body) => t.function.name);
    assert.equal(offered, ['archive__search']);
    assert.equal(first!.tools[0].function.parameters.required, ['query']);
    assert.match(JSON.stringify(second!.messages), /3 results for rivers/);
    const ai = (job.steps as Body[])[0]!.ai;
    assert.equal(ai.tools, ['archive/search']);
    assert.is(ai.calls, 2);
    assert.is(ai.tool_calls.length, 1);
    assert.is(ai.tool_calls[0].tool, 'archive/search');
    assert.equal(ai.tool_calls[0].args, { query: 'rivers', limit: 3 });
    assert.match(ai.tool_calls[0].result.text, /3 results for rivers: tides, rivers, rain/);
    const posts = await call(ctx, 'GET', `/jobs/${job.job_id}`);
    assert.match(JSON.stringify(posts.body), /3 results for rivers/);
  });

  test('a secret-named argument reaches the tool whole and is masked in the job record', async (ctx) => {
    const flowId = await aiFlow(ctx, 'Archive with a key', ['archive/search']);
    const key = 'sk-archive-0123456789abcdef';
    ctx.openai.script.push(
      toolCallReply('openai', 'call_key', 'archive__search', { query: 'tides', api_key: key }),
      textReply('openai', '# Tides\n\nFound.'),
    );
    const before = ctx.mcp.calls.length;
    const job = await ctx.t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is(ctx.mcp.calls.slice(before)[0]!.args.api_key, key, 'the tool got the argument as the model sent it');
    const recorded = (job.steps as Body[])[0]!.ai.tool_calls[0].args;
    assert.is(recorded.query, 'tides');
    assert.not.ok(JSON.stringify(job).includes(key), 'the key is in no part of the job');
  });

  test('a tool off the allow-list is refused before the model is asked; one the model invents is not called', async (ctx) => {
    const asked = ctx.openai.chats().length;
    const refused = await aiFlow(ctx, 'Refused tool', ['archive/delete_all']);
    const job = await ctx.t.executeAndWait({ flow_id: refused });
    assert.is(job.status, 'failed');
    assert.match(JSON.stringify(job), /'archive\/delete_all' is not on the allow-list of server 'archive'/);
    assert.is(ctx.openai.chats().length, asked, 'the model was not asked');

    const flowId = await aiFlow(ctx, 'Invented tool', ['archive/search']);
    ctx.openai.script.push(toolCallReply('openai', 'call_2', 'archive__delete_all', {}), textReply('openai', 'Nothing deleted.'));
    const calls = ctx.mcp.calls.length;
    const ok = await ctx.t.executeAndWait({ flow_id: flowId });
    assert.is(ok.status, 'completed', JSON.stringify(ok));
    assert.is(ctx.mcp.calls.length, calls, 'the fake received no call');
    assert.equal((ok.steps as Body[])[0]!.ai.tool_calls, [{ tool: 'archive__delete_all', args: {}, error: 'no such tool' }]);
  });

  test('the remote failing halfway (500, dropped connection, no answer) fails the step clearly; the host goes on', async (ctx) => {
    await call(ctx, 'PATCH', '/mcp-servers/archive', { body: { timeout_ms: 1000 } });
    const flowId = await aiFlow(ctx, 'Failing remote', ['archive/search']);
    for (const failure of ['500', 'drop', 'hang'] as const) {
      ctx.mcp.failCalls = failure;
      ctx.openai.script.push(toolCallReply('openai', `call_${failure}`, 'archive__search', { query: failure }));
      const job = await ctx.t.executeAndWait({ flow_id: flowId }, 15_000);
      assert.is(job.status, 'failed', `${failure}: ${JSON.stringify(job)}`);
      const text = JSON.stringify(job);
      assert.match(text, /Tool archive\/search failed: MCP server 'archive' failed on search/, failure);
      assert.is((job.steps as Body[])[0]!.ai.tool_calls[0].args.query, failure, 'the record shows the call that failed');
    }
    ctx.mcp.failCalls = 'none';
    assert.is((await call(ctx, 'GET', '/mcp-servers')).status, 200);
  });

  test('the chat assistant calls an allowed tool of a server registered for chat', async (ctx) => {
    await call(ctx, 'PATCH', '/mcp-servers/archive', { body: { chat: true, timeout_ms: 5000 } });
    ctx.openai.script.push(
      toolCallReply('openai', 'call_chat', 'mcp_call', { tool: 'archive/search', arguments: { query: 'tides' } }),
      textReply('openai', 'The archive has three results about tides.'),
    );
    const before = ctx.mcp.calls.length;
    const res = await call(ctx, 'POST', '/chat', { body: { message: 'Search the archive for tides', provider: 'openai' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(
      ctx.mcp.calls.slice(before).map((c) => [c.name, c.args, c.authorization]),
      [['search', { query: 'tides' }, `Bearer ${TOKEN}`]],
      JSON.stringify(res.body),
    );
    assert.match(JSON.stringify(res.body), /3 results for tides/);
    // Off the allow-list through chat: refused, nothing sent.
    ctx.openai.script.push(
      toolCallReply('openai', 'call_chat2', 'mcp_call', { tool: 'archive/delete_all', arguments: {} }),
      textReply('openai', 'I may not.'),
    );
    const refused = await call(ctx, 'POST', '/chat', { body: { message: 'Delete the archive', provider: 'openai' } });
    assert.match(JSON.stringify(refused.body), /not on the allow-list/);
    assert.not.ok(ctx.mcp.calls.some((c) => c.name === 'delete_all'));
  });

  test("an MCP agent reaches a chat server's tools through mcp_call, annotated destructive", async (ctx) => {
    const agent = new Client({ name: 'mcp-client-test', version: '1.0.0' });
    const basic = Buffer.from(`${ctx.t.admin.login}:${ctx.t.admin.password}`).toString('base64');
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${ctx.t.url}${ctx.t.host.config.apiPrefix}/mcp`), {
        requestInit: { headers: { Authorization: `Basic ${basic}` } },
      }),
    );
    try {
      const tools = new Map((await agent.listTools()).tools.map((tool) => [tool.name, tool]));
      // The remote tool may delete anything: an MCP host must ask its user before a call.
      assert.equal(tools.get('mcp_call')?.annotations, {
        title: 'Call an external MCP tool',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      assert.is(tools.get('mcp_call')?.title, 'Call an external MCP tool');
      assert.equal(
        [
          tools.get('mcp_tools')?.title,
          tools.get('mcp_tools')?.annotations?.readOnlyHint,
          tools.get('mcp_tools')?.annotations?.destructiveHint,
        ],
        ['List external MCP tools', true, false],
      );
      const before = ctx.mcp.calls.length;
      const answer = (await agent.callTool({
        name: 'mcp_call',
        arguments: { tool: 'archive/search', arguments: { query: 'reefs' } },
      })) as Body;
      assert.not.ok(answer.isError, JSON.stringify(answer));
      assert.equal(
        ctx.mcp.calls.slice(before).map((c) => [c.name, c.args]),
        [['search', { query: 'reefs' }]],
      );
    } finally {
      await agent.close();
    }
  });

  test('the token never appears in an answer, a log line, an export or a job', async (ctx) => {
    const flows = (await call(ctx, 'GET', '/flows')).body.data;
    const list = Array.isArray(flows) ? flows : (flows.flows ?? flows.items ?? []);
    for (const flow of list) await call(ctx, 'GET', `/flows/${flow.flow_id}/export`);
    await call(ctx, 'GET', '/jobs');
    assert.ok(ctx.bodies.length > 20);
    assert.not.ok(
      ctx.bodies.some((b) => b.includes(TOKEN)),
      'no answer carries the token',
    );
    assert.ok(ctx.lines.length > 0, 'the host logged');
    assert.not.ok(
      ctx.lines.some((l) => l.includes(TOKEN)),
      'no log line carries the token',
    );
  });

  test.run();
}
