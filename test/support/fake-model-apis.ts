// Fake model APIs on 127.0.0.1 that speak each provider's real wire format: chat calls,
// the models endpoint, the providers' own error bodies. Tests script the next answers.
import { createFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from '../../sdk/testing/index.js';

export type WireKind = 'openai' | 'anthropic' | 'gemini' | 'xai' | 'openrouter';

/** Each provider's base path (what the plugin's base_url ends with) and its chat path. */
export const WIRE: Record<WireKind, { base: string; chat: (model: string) => string; models: string; plugin: string; slug: string }> = {
  openai: { base: '/v1', chat: () => '/v1/chat/completions', models: '/v1/models', plugin: 'provider-openai', slug: 'openai' },
  xai: { base: '/v1', chat: () => '/v1/chat/completions', models: '/v1/models', plugin: 'provider-xai', slug: 'grok' },
  openrouter: {
    base: '/api/v1',
    chat: () => '/api/v1/chat/completions',
    models: '/api/v1/models',
    plugin: 'provider-openrouter',
    slug: 'openrouter',
  },
  anthropic: { base: '/v1', chat: () => '/v1/messages', models: '/v1/models', plugin: 'provider-anthropic', slug: 'anthropic' },
  gemini: {
    base: '/v1beta',
    chat: (model) => `/v1beta/models/${model}:generateContent`,
    models: '/v1beta/models',
    plugin: 'provider-gemini',
    slug: 'gemini',
  },
};

export type Scripted = FakeReply | ((request: RecordedRequest) => FakeReply);

export interface FakeModelApi {
  kind: WireKind;
  server: FakeServer;
  url: string;
  /** The plugin's base_url for this fake. */
  baseUrl: string;
  validKey: string;
  /** Answers for the next chat calls, in order; then a default text answer. */
  script: Scripted[];
  /** Requests to the chat endpoint only. */
  chats(): RecordedRequest[];
  models: string[];
  /** While true, the models endpoint answers 503 (a catalogue that cannot be reached). */
  modelsDown: boolean;
}

const openaiShaped = (kind: WireKind) => kind === 'openai' || kind === 'xai' || kind === 'openrouter';

/** The key a request carries, read the way this provider sends it. */
export function keyOf(kind: WireKind, request: RecordedRequest): string | undefined {
  if (kind === 'anthropic') return request.headers['x-api-key'] as string | undefined;
  if (kind === 'gemini') return request.headers['x-goog-api-key'] as string | undefined;
  const auth = request.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

export function textReply(kind: WireKind, text: string, usage = { input: 12, output: 7 }): FakeReply {
  if (openaiShaped(kind)) {
    return {
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_760_000_000,
        model: 'fake-model',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      },
    };
  }
  if (kind === 'anthropic') {
    return {
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'fake-model',
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      },
    };
  }
  return {
    body: {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
      modelVersion: 'fake-model',
    },
  };
}

export function toolCallReply(kind: WireKind, id: string, name: string, args: Record<string, unknown>): FakeReply {
  if (openaiShaped(kind)) {
    return {
      body: {
        id: 'chatcmpl-2',
        object: 'chat.completion',
        created: 1_760_000_000,
        model: 'fake-model',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
      },
    };
  }
  if (kind === 'anthropic') {
    return {
      body: {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'fake-model',
        content: [
          { type: 'text', text: 'Looking it up.' },
          { type: 'tool_use', id, name, input: args },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 5 },
      },
    };
  }
  // Gemini 2.5+ sends a thought signature the next request must carry back.
  return {
    body: {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name, args }, thoughtSignature: 'c2lnLTE=' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 },
    },
  };
}

/** The provider's own error body for a status. */
export function errorReply(kind: WireKind, status: number, message: string, headers: Record<string, string> = {}): FakeReply {
  if (kind === 'anthropic')
    return {
      status,
      headers,
      body: {
        type: 'error',
        error: { type: status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'api_error', message },
      },
    };
  if (kind === 'gemini')
    return {
      status,
      headers,
      body: { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT' } },
    };
  if (kind === 'openrouter') return { status, headers, body: { error: { code: status, message } } };
  return {
    status,
    headers,
    body: { error: { message, type: 'invalid_request_error', param: null, code: status === 401 ? 'invalid_api_key' : null } },
  };
}

const REFUSED: Record<WireKind, string> = {
  openai: 'Incorrect API key provided: wr***ey. You can find your API key at https://platform.openai.com/account/api-keys.',
  xai: 'Incorrect API key provided: wr***ey. You can obtain an API key from https://console.x.ai.',
  openrouter: 'No auth credentials found',
  anthropic: 'invalid x-api-key',
  gemini: 'API key not valid. Please pass a valid API key.',
};

function modelsBody(kind: WireKind, models: string[]): unknown {
  if (kind === 'gemini')
    return {
      models: models
        .map((id) => ({ name: `models/${id}`, supportedGenerationMethods: ['generateContent', 'countTokens'] }))
        .concat([{ name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] }]),
    };
  if (kind === 'anthropic')
    return {
      data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })),
      has_more: false,
      first_id: models[0],
      last_id: models.at(-1),
    };
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1, owned_by: 'fake' })) };
}

export async function createFakeModelApi(kind: WireKind, options: { validKey?: string; models?: string[] } = {}): Promise<FakeModelApi> {
  const validKey = options.validKey ?? `${kind}-test-key-0123456789`;
  const wire = WIRE[kind];
  const api: Partial<FakeModelApi> & { script: Scripted[]; models: string[]; modelsDown: boolean } = {
    kind,
    validKey,
    script: [],
    modelsDown: false,
    models:
      options.models ?? (kind === 'openai' ? ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small'] : [`${kind}-small`, `${kind}-large`]),
  };
  const server = await createFakeServer((request) => {
    const path = request.url.split('?')[0]!;
    if (api.modelsDown && request.method === 'GET' && path === wire.models) return errorReply(kind, 503, 'catalogue down');
    // OpenRouter's catalogue needs no key.
    if (!(kind === 'openrouter' && path === wire.models) && keyOf(kind, request) !== validKey)
      return errorReply(kind, kind === 'gemini' ? 400 : 401, REFUSED[kind]);
    if (request.method === 'GET' && path === wire.models) return { body: modelsBody(kind, api.models) };
    if (request.method === 'GET' && kind === 'openrouter' && path === '/api/v1/key')
      return { body: { data: { label: 'test key', usage: 0, limit: null } } };
    if (
      request.method === 'POST' &&
      (kind === 'gemini' ? /^\/v1beta\/models\/[^/]+:generateContent$/.test(path) : path === wire.chat(''))
    ) {
      const next = api.script.shift();
      if (next) return typeof next === 'function' ? next(request) : next;
      return textReply(kind, 'A default answer.');
    }
    return { status: 404, body: { error: { message: `no route ${request.method} ${path}` } } };
  });
  api.server = server;
  api.url = server.url;
  api.baseUrl = `${server.url}${wire.base}`;
  api.chats = () => server.requests.filter((r) => r.method === 'POST');
  return api as FakeModelApi;
}

/** Plugin settings pointing every provider plugin at its fake (fast retries for tests). */
export function pluginSettingsFor(apis: FakeModelApi[], extra: Record<string, unknown> = {}): Record<string, Record<string, unknown>> {
  return Object.fromEntries(apis.map((api) => [WIRE[api.kind].plugin, { base_url: api.baseUrl, retry_delay_ms: 10, ...extra }]));
}

/**
 * OpenRouter's catalogue is public, so GET /providers asks it even without a key: a suite
 * that lists providers without a fake points it at a closed loopback port (the built-in
 * list, at once), never at the real service.
 */
export const offlineOpenRouter = { 'provider-openrouter': { base_url: 'http://127.0.0.1:9/api/v1', max_retries: 0 } };
