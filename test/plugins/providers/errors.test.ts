// What a provider does with a service's failures: a 429 waits its Retry-After and tries
// again, a 5xx backs off and tries again, both a bounded number of times; a too-long input
// names the model; a Retry-After beyond 30 s fails at once; a base URL is never left.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { ProviderError } from '../../../sdk/ai/index.js';
import type { CallContext, ProviderDefinition } from '../../../sdk/index.js';
import { createFakeModelApi, errorReply, pluginSettingsFor, textReply, type FakeModelApi } from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Ctx = { t: TestHost; openai: FakeModelApi; anthropic: FakeModelApi };
const test = suite<Ctx>('provider plugins: retries and error messages');

test.before(async (ctx) => {
  ctx.openai = await createFakeModelApi('openai');
  ctx.anthropic = await createFakeModelApi('anthropic');
  ctx.t = await createTestHost({
    plugins: [],
    config: { pluginSettings: pluginSettingsFor([ctx.openai, ctx.anthropic], { max_retries: 2 }) },
  });
  await ctx.t.request('PUT', '/settings', {
    body: { ai_provider_keys: { openai: ctx.openai.validKey, anthropic: ctx.anthropic.validKey } },
  });
});
test.after(async (ctx) => {
  await ctx.t.stop();
  await ctx.openai.server.close();
  await ctx.anthropic.server.close();
});

const provider = (t: TestHost, slug: string): ProviderDefinition => t.host.registries.providers().find((p) => p.slug === slug)!;
const ctxOf = (t: TestHost): CallContext => ({
  user: null,
  log: t.host.log,
  clock: t.clock,
  fetch: (() => Promise.reject(new Error('unused'))) as unknown as CallContext['fetch'],
});
const ask = (t: TestHost, slug: string, model = 'gpt-4o-mini') =>
  provider(t, slug).generate!({ model, messages: [{ role: 'user', content: 'hi' }] }, ctxOf(t));
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null as unknown as ProviderError,
    (e: unknown) => e as ProviderError,
  );

test('a 429 waits its Retry-After, then the retry succeeds', async ({ t, openai }) => {
  const before = openai.chats().length;
  openai.script.push(
    errorReply('openai', 429, 'Rate limit reached for gpt-4o-mini', { 'retry-after': '1' }),
    textReply('openai', 'after the wait'),
  );
  const started = Date.now();
  const result = await ask(t, 'openai');
  assert.is(result.text, 'after the wait');
  assert.is(openai.chats().length - before, 2);
  assert.ok(Date.now() - started >= 950, 'waited the Retry-After second');
});

test("Anthropic's 429 with retry-after is honoured the same way", async ({ t, anthropic }) => {
  anthropic.script.push(
    errorReply('anthropic', 429, 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '0' }),
    textReply('anthropic', 'fine now'),
  );
  assert.is((await ask(t, 'anthropic', 'claude-test')).text, 'fine now');
});

test('a 500 backs off and the retry succeeds', async ({ t, openai }) => {
  const before = openai.chats().length;
  openai.script.push(errorReply('openai', 500, 'The server had an error while processing your request.'), textReply('openai', 'recovered'));
  assert.is((await ask(t, 'openai')).text, 'recovered');
  assert.is(openai.chats().length - before, 2);
});

test('retries are bounded: three 503s fail with the last message and the attempts', async ({ t, openai }) => {
  const before = openai.chats().length;
  for (let i = 0; i < 4; i++) openai.script.push(errorReply('openai', 503, 'Service temporarily unavailable'));
  const error = await failure(ask(t, 'openai'));
  assert.instance(error, ProviderError);
  assert.is(error.code, 'unavailable');
  assert.match(error.message, /OpenAI failed \(HTTP 503\): Service temporarily unavailable \(after 3 attempts\)/);
  assert.is(openai.chats().length - before, 3, '1 call + max_retries 2');
  openai.script.length = 0;
});

test('a second 429 after the retries fails saying so; a Retry-After beyond 30 s fails at once', async ({ t, openai }) => {
  let before = openai.chats().length;
  openai.script.push(errorReply('openai', 429, 'Slow down', { 'retry-after': '120' }));
  const long = await failure(ask(t, 'openai'));
  assert.is(long.code, 'rate_limited');
  assert.match(long.message, /retry after 120 s: Slow down/);
  assert.is(openai.chats().length - before, 1);
  before = openai.chats().length;
  for (let i = 0; i < 3; i++) openai.script.push(errorReply('openai', 429, 'Slow down', { 'retry-after': '0' }));
  const repeated = await failure(ask(t, 'openai'));
  assert.is(repeated.code, 'rate_limited');
  assert.match(repeated.message, /after 3 attempts/);
  assert.is(openai.chats().length - before, 3);
});

test('an input too long for the model says so, naming the model; no retry', async ({ t, openai, anthropic }) => {
  const before = openai.chats().length;
  openai.script.push({
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 200000 tokens.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  });
  const error = await failure(ask(t, 'openai'));
  assert.is(error.code, 'context_too_long');
  assert.match(error.message, /The input is too long for OpenAI model 'gpt-4o-mini': This model's maximum context length is 128000 tokens/);
  assert.is(openai.chats().length - before, 1);
  anthropic.script.push(errorReply('anthropic', 400, 'prompt is too long: 210000 tokens > 200000 maximum'));
  const claude = await failure(ask(t, 'anthropic', 'claude-test'));
  assert.is(claude.code, 'context_too_long');
  assert.match(claude.message, /model 'claude-test': prompt is too long/);
});

test('no key: a clear not_configured error naming how to set one', async ({ t }) => {
  const error = await failure(ask(t, 'grok', 'grok-4'));
  assert.is(error.code, 'not_configured');
  assert.match(error.message, /xAI Grok has no API key.*ai_provider_keys\.grok.*flowhost providers set-key grok/);
});

test('another bad request keeps the provider message; an unknown model is named', async ({ t, openai }) => {
  openai.script.push({
    status: 404,
    body: {
      error: {
        message: 'The model `gpt-9` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    },
  });
  const missing = await failure(ask(t, 'openai', 'gpt-9'));
  assert.is(missing.code, 'unknown_model');
  assert.match(missing.message, /OpenAI does not offer model 'gpt-9' \(HTTP 404\): The model `gpt-9` does not exist/);
  openai.script.push({ status: 400, body: { error: { message: "Invalid value for 'temperature'", type: 'invalid_request_error' } } });
  const bad = await failure(ask(t, 'openai'));
  assert.is(bad.code, 'bad_request');
  assert.match(bad.message, /HTTP 400\): Invalid value for 'temperature'/);
});

test.run();
