// The same chat against each provider's wire format (OpenAI, Anthropic, Gemini, xAI,
// OpenRouter fakes on 127.0.0.1), on every store: create_pipeline → create_flow (rss, the
// publish step left unset) → configure_flow_step (cms) → run_flow → a final answer. Each fake must receive the tool definitions in its own
// format and, from the second call on, the previous tool call and its result in its own
// format (Gemini with the thought signature echoed back).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';
import {
  createFakeModelApi,
  pluginSettingsFor,
  textReply,
  toolCallReply,
  WIRE,
  type FakeModelApi,
  type WireKind,
} from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const KINDS: WireKind[] = ['openai', 'anthropic', 'gemini', 'xai', 'openrouter'];

/** The tool names a request offered, read the way this provider receives them. */
function offeredTools(kind: WireKind, body: Body): string[] {
  if (kind === 'anthropic') {
    for (const t of body.tools) assert.ok(t.input_schema && t.input_schema.type === 'object', `anthropic tool ${t.name} has input_schema`);
    return body.tools.map((t: Body) => t.name).sort();
  }
  if (kind === 'gemini') {
    const declarations = body.tools.flatMap((t: Body) => t.functionDeclarations ?? []);
    for (const d of declarations) assert.ok(d.parameters, `gemini declaration ${d.name} has parameters`);
    return declarations.map((d: Body) => d.name).sort();
  }
  for (const t of body.tools) assert.is(t.type, 'function');
  return body.tools.map((t: Body) => t.function.name).sort();
}

/**
 * The earlier tool call `id`/`name` and its result, found in this provider's own format;
 * answers the decoded result.
 */
function echoedCallAndResult(kind: WireKind, body: Body, id: string, name: string): Body {
  if (kind === 'anthropic') {
    const use = body.messages
      .flatMap((m: Body) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content : []))
      .find((c: Body) => c.type === 'tool_use' && c.id === id);
    assert.ok(use, `anthropic: tool_use ${id} sent back: ${JSON.stringify(body.messages)}`);
    assert.is(use.name, name);
    const result = body.messages
      .flatMap((m: Body) => (m.role === 'user' && Array.isArray(m.content) ? m.content : []))
      .find((c: Body) => c.type === 'tool_result' && c.tool_use_id === id);
    assert.ok(result, `anthropic: tool_result for ${id}`);
    const text = typeof result.content === 'string' ? result.content : result.content.map((c: Body) => c.text).join('');
    return JSON.parse(text);
  }
  if (kind === 'gemini') {
    const parts = body.contents.flatMap((c: Body) => c.parts.map((p: Body) => ({ ...p, role: c.role })));
    const call = parts.find((p: Body) => p.role === 'model' && p.functionCall?.name === name);
    assert.ok(call, `gemini: functionCall ${name} sent back: ${JSON.stringify(body.contents)}`);
    assert.is(call.thoughtSignature, 'c2lnLTE=', 'the thought signature is echoed');
    const response = parts.find((p: Body) => p.functionResponse?.name === name);
    assert.ok(response, `gemini: functionResponse for ${name}`);
    const r = response.functionResponse.response;
    return (r.content ?? r) as Body;
  }
  const assistant = body.messages.find((m: Body) => m.role === 'assistant' && m.tool_calls?.some((c: Body) => c.id === id));
  assert.ok(assistant, `${kind}: assistant tool_calls ${id} sent back: ${JSON.stringify(body.messages)}`);
  assert.is(assistant.tool_calls.find((c: Body) => c.id === id).function.name, name);
  const tool = body.messages.find((m: Body) => m.role === 'tool' && m.tool_call_id === id);
  assert.ok(tool, `${kind}: role tool with tool_call_id ${id}`);
  return JSON.parse(tool.content);
}

/** The decoded result, whichever shape the provider wraps it in. */
const resultOf = (out: Body): Body => (typeof out === 'string' ? JSON.parse(out) : out).result;

for (const store of testStores('chat providers conversation')) {
  type Ctx = { t: TestHost; apis: Record<WireKind, FakeModelApi>; feeds: FeedServer[] };
  const test = suite<Ctx>(`chat: one conversation in each provider's wire format (${store.label})`);

  test.before(async (ctx) => {
    ctx.apis = {} as Record<WireKind, FakeModelApi>;
    for (const kind of KINDS) ctx.apis[kind] = await createFakeModelApi(kind);
    ctx.feeds = [];
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: pluginSettingsFor(Object.values(ctx.apis), { max_retries: 0 }) },
    });
    const keys = Object.fromEntries(KINDS.map((kind) => [WIRE[kind].slug, ctx.apis[kind].validKey]));
    assert.is((await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: keys } })).status, 200);
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    for (const feed of ctx.feeds) await feed.close();
    for (const api of Object.values(ctx.apis)) await api.server.close();
  });

  for (const kind of KINDS) {
    test(`${kind}: create_pipeline → create_flow → configure_flow_step → run_flow → answer; tools and earlier turns in its own format`, async (ctx) => {
      const { t } = ctx;
      const api = ctx.apis[kind];
      const feed = await startFeedServer([
        { guid: `urn:${kind}:1`, title: `${kind} story one` },
        { guid: `urn:${kind}:2`, title: `${kind} story two` },
      ]);
      ctx.feeds.push(feed);
      const before = api.chats().length;
      api.script.push(
        toolCallReply(kind, `${kind}_c1`, 'create_pipeline', { name: `${kind} news`, steps: ['fetch', 'publish'] }),
        (request: RecordedRequest) => {
          const out = echoedCallAndResult(kind, request.json<Body>(), `${kind}_c1`, 'create_pipeline');
          const pipeline = resultOf(out);
          assert.ok(pipeline?.pipeline_id, JSON.stringify(out));
          return toolCallReply(kind, `${kind}_c2`, 'create_flow', {
            pipeline_id: pipeline.pipeline_id,
            name: `${kind} flow`,
            handlers: [{ slug: 'rss', settings: { feed_url: feed.url } }, null],
          });
        },
        (request: RecordedRequest) => {
          const body = request.json<Body>();
          echoedCallAndResult(kind, body, `${kind}_c1`, 'create_pipeline');
          const flow = resultOf(echoedCallAndResult(kind, body, `${kind}_c2`, 'create_flow'));
          assert.ok(flow?.flow_id, JSON.stringify(flow));
          assert.equal(
            flow.steps.map((s: Body) => s.handler),
            ['rss', null],
            'the publish step starts unset',
          );
          return toolCallReply(kind, `${kind}_c3`, 'configure_flow_step', {
            flow_id: flow.flow_id,
            position: 1,
            handler_slug: 'cms',
            settings: { post_status: 'publish' },
          });
        },
        (request: RecordedRequest) => {
          const configured = resultOf(echoedCallAndResult(kind, request.json<Body>(), `${kind}_c3`, 'configure_flow_step'));
          assert.ok(configured?.flow_step_id, JSON.stringify(configured));
          const flowId = Number(String(configured.flow_step_id).split('_').pop());
          return toolCallReply(kind, `${kind}_c4`, 'run_flow', { flow_id: flowId });
        },
        (request: RecordedRequest) => {
          const job = resultOf(echoedCallAndResult(kind, request.json<Body>(), `${kind}_c4`, 'run_flow'));
          assert.ok(Number.isInteger(job?.job_id), JSON.stringify(job));
          return textReply(kind, `Started job ${job.job_id}.`);
        },
      );
      const res = await t.request<Body>('POST', '/chat', { body: { message: `Publish the ${kind} feed`, provider: WIRE[kind].slug } });
      assert.is(res.status, 200, JSON.stringify(res.body));
      assert.is(api.chats().length - before, 5, 'five model calls');
      assert.is(api.script.length, 0, 'every scripted answer was used');
      assert.is(res.body.data.completed, true);
      assert.equal(
        res.body.tool_calls.map((c: Body) => [c.function.name, 'result' in c]),
        [
          ['create_pipeline', true],
          ['create_flow', true],
          ['configure_flow_step', true],
          ['run_flow', true],
        ],
        JSON.stringify(res.body.tool_calls),
      );
      assert.match(res.body.response, /^Started job \d+\.$/);
      // Every call offered the tools in this provider's format (other plugins may add more).
      for (const request of api.chats().slice(before)) {
        const offered = offeredTools(kind, request.json<Body>());
        for (const name of ['create_pipeline', 'create_flow', 'configure_flow_step', 'run_flow'])
          assert.ok(offered.includes(name), `${name} offered: ${offered.join(', ')}`);
      }

      const job = await t.waitForJob(res.body.tool_calls[3].result.job_id);
      assert.is(job.status, 'completed', JSON.stringify(job));
      const posts = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', query: { per_page: 100 } });
      assert.is(posts.status, 200);
      const titles = posts.body.map((p) => (typeof p.title === 'string' ? p.title : p.title.rendered));
      assert.ok(
        titles.some((title) => title.startsWith(`${kind} story`)),
        `the run published from the ${kind} feed: ${JSON.stringify(titles)}`,
      );
      const session = await t.request<Body>('GET', `/chat/${res.body.session_id}`);
      assert.is(session.body.data.provider, WIRE[kind].slug);
    });
  }

  test.run();
}
