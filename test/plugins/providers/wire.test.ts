// Each provider plugin against a fake of its real API: what it sends (path, key header,
// body shape), what it makes of the answer (text, usage, tool calls), the next turn with
// the tool result, a refused key, the models list and its cache.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { isProviderError, type ProviderError } from '../../../sdk/ai/index.js';
import type { CallContext, ProviderDefinition, ProviderMessage } from '../../../sdk/index.js';
import {
  createFakeModelApi,
  keyOf,
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

type Ctx = { t: TestHost; apis: Record<WireKind, FakeModelApi> };
const test = suite<Ctx>('provider plugins: each speaks its API');

test.before(async (ctx) => {
  const apis = {} as Record<WireKind, FakeModelApi>;
  for (const kind of KINDS) apis[kind] = await createFakeModelApi(kind);
  ctx.apis = apis;
  ctx.t = await createTestHost({ plugins: [], config: { pluginSettings: pluginSettingsFor(Object.values(apis)) } });
  const keys = Object.fromEntries(KINDS.map((k) => [WIRE[k].slug, apis[k].validKey]));
  const saved = await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: keys } });
  assert.is(saved.status, 200, JSON.stringify(saved.body));
});
test.after(async (ctx) => {
  await ctx.t.stop();
  for (const api of Object.values(ctx.apis)) await api.server.close();
});

const providerOf = (t: TestHost, slug: string): ProviderDefinition => {
  const found = t.host.registries.providers().find((p) => p.slug === slug);
  if (!found?.generate) throw new Error(`no provider ${slug}`);
  return found;
};
const callCtx = (t: TestHost): CallContext => ({
  user: null,
  log: t.host.log,
  clock: t.clock,
  fetch: (() => Promise.reject(new Error('unused'))) as unknown as CallContext['fetch'],
});

/** The request's system prompt, user text and tool names, read from each wire format. */
function readBody(kind: WireKind, body: Body): { system: string; user: string; tools: string[] } {
  if (kind === 'anthropic') {
    const system = Array.isArray(body.system) ? body.system.map((b: Body) => b.text).join('') : String(body.system ?? '');
    const user = body.messages
      .filter((m: Body) => m.role === 'user')
      .map((m: Body) => (typeof m.content === 'string' ? m.content : m.content.map((c: Body) => c.text ?? '').join('')))
      .join('|');
    return { system, user, tools: (body.tools ?? []).map((tool: Body) => tool.name) };
  }
  if (kind === 'gemini') {
    return {
      system: (body.systemInstruction?.parts ?? []).map((p: Body) => p.text).join(''),
      user: body.contents
        .filter((c: Body) => c.role === 'user')
        .map((c: Body) => c.parts.map((p: Body) => p.text ?? '').join(''))
        .join('|'),
      tools: (body.tools ?? []).flatMap((tool: Body) => (tool.functionDeclarations ?? []).map((f: Body) => f.name)),
    };
  }
  return {
    system: body.messages
      .filter((m: Body) => m.role === 'system')
      .map((m: Body) => (typeof m.content === 'string' ? m.content : m.content.map((c: Body) => c.text).join('')))
      .join(''),
    user: body.messages
      .filter((m: Body) => m.role === 'user')
      .map((m: Body) => (typeof m.content === 'string' ? m.content : m.content.map((c: Body) => c.text).join('')))
      .join('|'),
    tools: (body.tools ?? []).map((tool: Body) => tool.function.name),
  };
}

for (const kind of KINDS) {
  const slug = WIRE[kind].slug;

  test(`${slug}: text with a system prompt, on the real path with the key as the service wants it`, async ({ t, apis }) => {
    const api = apis[kind];
    api.script.push(textReply(kind, 'Hello from the model.', { input: 30, output: 9 }));
    const before = api.chats().length;
    const result = await providerOf(t, slug).generate!(
      { model: `${kind}-small`, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello' }] },
      callCtx(t),
    );
    assert.is(result.text, 'Hello from the model.');
    assert.equal(result.usage, { input_tokens: 30, output_tokens: 9, total_tokens: 39 });
    assert.is(result.finishReason, 'stop');
    assert.equal(result.toolCalls, []);
    assert.ok(result.responseMessages.length >= 1 && result.responseMessages.every((m) => m.role === 'response'));
    const request = api.chats()[before]!;
    assert.is(request.url.split('?')[0], WIRE[kind].chat(`${kind}-small`));
    assert.is(keyOf(kind, request), api.validKey);
    if (kind === 'anthropic') assert.is(request.headers['anthropic-version'], '2023-06-01');
    if (kind === 'gemini') assert.not.match(request.url, /key=/); // never in the URL
    const body = request.json<Body>();
    const read = readBody(kind, body);
    assert.is(read.system, 'Be brief.');
    assert.is(read.user, 'Say hello');
    if (kind === 'anthropic') {
      assert.is(body.model, `${kind}-small`);
      assert.is(body.max_tokens, 4096); // required by the Messages API; set for unknown models too
    } else if (kind !== 'gemini') assert.is(body.model, `${kind}-small`);
    if (kind === 'gemini') assert.ok(Array.isArray(body.contents) && body.systemInstruction);
  });

  test(`${slug}: a tool call comes back as toolCalls; the next turn carries the call and its result`, async ({ t, apis }) => {
    const api = apis[kind];
    const provider = providerOf(t, slug);
    api.script.push(toolCallReply(kind, 'call_77', 'lookup_weather', { city: 'Lyon' }));
    const tools = [
      {
        name: 'lookup_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
      },
    ];
    const messages: ProviderMessage[] = [{ role: 'user', content: 'Weather in Lyon?' }];
    const first = await provider.generate!({ model: `${kind}-small`, messages, tools }, callCtx(t));
    assert.is(first.finishReason, 'tool-calls');
    assert.is(first.toolCalls.length, 1);
    assert.is(first.toolCalls[0]!.name, 'lookup_weather');
    assert.equal(first.toolCalls[0]!.args, { city: 'Lyon' });
    const callId = first.toolCalls[0]!.id;
    if (kind !== 'gemini') assert.is(callId, 'call_77');
    assert.equal(readBody(kind, api.chats().at(-1)!.json<Body>()).tools, ['lookup_weather']);
    // Stored as JSON and resumed: the response messages survive a round trip.
    const stored = JSON.parse(JSON.stringify([...messages, ...first.responseMessages])) as ProviderMessage[];
    api.script.push(textReply(kind, 'It is sunny in Lyon.'));
    const second = await provider.generate!(
      {
        model: `${kind}-small`,
        messages: [...stored, { role: 'tool', toolCallId: callId, toolName: 'lookup_weather', output: { sky: 'sunny' } }],
        tools,
      },
      callCtx(t),
    );
    assert.is(second.text, 'It is sunny in Lyon.');
    const body = api.chats().at(-1)!.json<Body>();
    if (kind === 'anthropic') {
      const assistant = body.messages.find((m: Body) => m.role === 'assistant');
      assert.ok(assistant.content.some((c: Body) => c.type === 'tool_use' && c.id === 'call_77'));
      const result = body.messages.at(-1).content.find((c: Body) => c.type === 'tool_result');
      assert.is(result.tool_use_id, 'call_77');
      assert.match(JSON.stringify(result.content), /sunny/);
    } else if (kind === 'gemini') {
      const model = body.contents.find((c: Body) => c.role === 'model');
      const call = model.parts.find((p: Body) => p.functionCall);
      assert.is(call.functionCall.name, 'lookup_weather');
      assert.is(call.thoughtSignature, 'c2lnLTE='); // kept from the first answer's provider data
      const response = body.contents.at(-1).parts.find((p: Body) => p.functionResponse);
      assert.is(response.functionResponse.name, 'lookup_weather');
      assert.match(JSON.stringify(response.functionResponse.response), /sunny/);
    } else {
      const assistant = body.messages.find((m: Body) => m.role === 'assistant');
      assert.is(assistant.tool_calls[0].id, 'call_77');
      const tool = body.messages.find((m: Body) => m.role === 'tool');
      assert.is(tool.tool_call_id, 'call_77');
      assert.match(tool.content, /sunny/);
    }
  });

  test(`${slug}: a refused key is a clear error with the provider's own message; test() reports it`, async ({ t, apis }) => {
    const api = apis[kind];
    const saved = await t.request('PUT', '/settings', { body: { ai_provider_keys: { [slug]: 'wrong-key' } } });
    assert.is(saved.status, 200);
    try {
      const error = await providerOf(t, slug).generate!(
        { model: `${kind}-small`, messages: [{ role: 'user', content: 'hi' }] },
        callCtx(t),
      ).then(
        () => null,
        (e: unknown) => e as ProviderError,
      );
      assert.ok(error && isProviderError(error), String(error));
      assert.is(error.code, 'key_refused');
      assert.match(error.message, /refused the API key/);
      assert.match(
        error.message,
        kind === 'gemini'
          ? /API key not valid/
          : kind === 'anthropic'
            ? /invalid x-api-key/
            : kind === 'openrouter'
              ? /No auth credentials/
              : /Incorrect API key/,
      );
      const tested = await providerOf(t, slug).test!(callCtx(t));
      assert.is(tested.ok, false);
      assert.match(tested.message, /refused the API key/);
    } finally {
      await t.request('PUT', '/settings', { body: { ai_provider_keys: { [slug]: api.validKey } } });
    }
    const again = await providerOf(t, slug).test!(callCtx(t));
    assert.is(again.ok, true, again.message);
  });

  test(`${slug}: models from the models endpoint, cached; without a key the built-in list (OpenRouter: its public catalogue)`, async ({
    t,
    apis,
  }) => {
    const api = apis[kind];
    const provider = providerOf(t, slug);
    const listed = () => api.server.requests.filter((r) => r.method === 'GET' && r.url.split('?')[0] === WIRE[kind].models).length;
    t.clock.advance(3_601_000); // whatever an earlier test cached has expired
    const before = listed();
    const models = await provider.models(callCtx(t));
    const expected = kind === 'openai' ? ['gpt-4o', 'gpt-4o-mini'] : [`${kind}-large`, `${kind}-small`];
    assert.equal(models, expected);
    assert.is(listed(), before + 1);
    assert.equal(await provider.models(callCtx(t)), expected);
    assert.is(listed(), before + 1, 'the second read is cached');
    t.clock.advance(3_601_000);
    await provider.models(callCtx(t));
    assert.is(listed(), before + 2, 'an expired list is read again');
    await t.request('PUT', '/settings', { body: { ai_provider_keys: { [slug]: '' } } });
    const withoutKey = await provider.models(callCtx(t));
    if (kind === 'openrouter') {
      // The catalogue needs no key: still the service's list, asked without one.
      assert.equal(withoutKey, expected);
      const asked = api.server.requests.filter((r) => r.url.split('?')[0] === WIRE[kind].models);
      assert.ok(asked.length > 0 && asked.every((r) => r.headers.authorization === undefined), 'never a key on the catalogue');
    } else {
      assert.ok(withoutKey.length >= 3);
      assert.not.equal(withoutKey, expected);
    }
    assert.is(await provider.configured(callCtx(t)), false);
    await t.request('PUT', '/settings', { body: { ai_provider_keys: { [slug]: api.validKey } } });
  });
}

test.run();
