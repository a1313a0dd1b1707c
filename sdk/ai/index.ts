/**
 * flowhost/ai: one helper that turns an AI SDK provider factory into a Flowhost AI
 * provider plugin (settings, key, models list with a cache, error mapping, retries).
 * Kept out of the main SDK entry so plugins that do not talk to models never load `ai`.
 */
import { createHash } from 'node:crypto';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';

/** The AI SDK, loaded at the first model call: a host that never calls a model never loads it. */
type AiSdk = typeof import('ai');
let aiSdk: Promise<AiSdk> | null = null;
const loadAi = (): Promise<AiSdk> => (aiSdk ??= import('ai'));
import { definePlugin, defineProvider, services } from '../index.js';
import { ProviderError } from '../kernel/provider-error.js';
import { MAX_RETRY_AFTER_SECONDS } from '../security/retry-after.js';
import type {
  CallContext,
  JsonValue,
  ProviderGenerateRequest,
  ProviderGenerateResult,
  ProviderMessage,
  ProviderModelList,
  ProviderTestResult,
  ProviderToolSpec,
} from '../kernel/contributions.js';
import type { PluginDefinition } from '../kernel/plugin.js';

export { ProviderError, isProviderError } from '../kernel/provider-error.js';

/** The plugin settings every model provider plugin takes (`plugins.<id>.*`). */
export interface ModelProviderSettings {
  /** The API's base URL, version included (e.g. https://api.openai.com/v1). */
  base_url: string;
  /** A key from the config file or environment; a key saved with PUT /settings wins. */
  api_key: string;
  /** How long a models list is kept (seconds; 0: not cached). */
  models_cache_seconds: number;
  /** One call's time limit. */
  timeout_ms: number;
  /** Retries after a 429, a 5xx or a timeout (0–5). */
  max_retries: number;
  /** First backoff delay; doubled at each retry (a 429's Retry-After wins). */
  retry_delay_ms: number;
}

/** What the factory gets to build a model. */
export interface ModelFactoryOptions {
  apiKey: string;
  baseURL: string;
  /** Reaches only `baseURL` (anything else is refused). */
  fetch: typeof globalThis.fetch;
}

export interface ModelProviderOptions {
  /** The plugin id, e.g. 'provider-openai'. */
  id: string;
  slug: string;
  label: string;
  description: string;
  defaultBaseUrl: string;
  /**
   * Builds the AI SDK language model for a model id; import the provider package inside
   * (`(await import('@ai-sdk/openai')).createOpenAI(o).chat(id)`) so it loads on first use.
   */
  model(options: ModelFactoryOptions, modelId: string): LanguageModel | Promise<LanguageModel>;
  /** Request headers carrying the key, as the service wants them. */
  authHeaders(apiKey: string): Record<string, string>;
  /** The models endpoint, relative to the base URL (e.g. '/models'). */
  modelsPath: string;
  /** Model ids from the models endpoint's JSON answer. */
  parseModels(body: unknown): string[];
  /** A cheap authenticated GET for `test` (default: the models endpoint). */
  testPath?: string;
  /**
   * The models endpoint is public (OpenRouter's catalogue): it is asked without the key,
   * with or without one, so the list is the service's even before a key is set.
   */
  publicModels?: boolean;
  /** Models listed when no key is set (unless `publicModels`) or the endpoint cannot be reached. */
  fallbackModels: string[];
  /** maxOutputTokens when the caller sets none (Anthropic needs one for unknown models). */
  defaultMaxOutputTokens?: number;
}

const settingsSchema = (defaultBaseUrl: string) => ({
  type: 'object',
  properties: {
    base_url: { type: 'string', format: 'uri', pattern: '^https?://', default: defaultBaseUrl },
    api_key: { type: 'string', maxLength: 4096, default: '' },
    models_cache_seconds: { type: 'integer', minimum: 0, maximum: 604800, default: 3600 },
    timeout_ms: { type: 'integer', minimum: 100, maximum: 600000, default: 120000 },
    max_retries: { type: 'integer', minimum: 0, maximum: 5, default: 2 },
    retry_delay_ms: { type: 'integer', minimum: 0, maximum: 60000, default: 1000 },
  },
  additionalProperties: false,
});

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fetch that reaches the configured base URL only: a model's answer can never send the key elsewhere. */
function fetchOnly(baseURL: string, label: string): typeof globalThis.fetch {
  const base = trimSlash(baseURL);
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`)) {
      return Promise.reject(
        new ProviderError('bad_request', `${label}: refused a request outside the configured base URL (${new URL(url).origin})`),
      );
    }
    return globalThis.fetch(input, init);
  };
}

/** The provider's own words from an error body (OpenAI, Anthropic, Gemini, xAI and OpenRouter shapes). */
export function providerMessageOf(body: unknown, fallback: string): string {
  const text = typeof body === 'string' ? body : '';
  let value: unknown = body;
  if (text) {
    try {
      value = JSON.parse(text);
    } catch {
      return text.slice(0, 300) || fallback;
    }
  }
  if (Array.isArray(value)) value = value[0];
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const error = record.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as Record<string, unknown>).message === 'string')
      return String((error as Record<string, unknown>).message);
    if (typeof record.message === 'string') return record.message;
  }
  return fallback;
}

/** A refused key some services answer with 400 (Gemini: API_KEY_INVALID). */
const KEY_INVALID = /api[ _-]?key (is )?(not valid|invalid)|invalid api[ _-]?key|API_KEY_INVALID|incorrect api key/i;

const CONTEXT_TOO_LONG =
  /context[ _-]?(length|window)|too many tokens|too long|maximum context|exceeds? the (maximum|limit)|input token count|token limit|request too large/i;

interface Failure {
  error: ProviderError;
  retry: boolean;
  /** A 429's Retry-After in ms (null: use the backoff). */
  waitMs: number | null;
}

function retryAfterMs(headers: Record<string, string> | undefined): number | null {
  if (!headers) return null;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = lower['retry-after-ms'];
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const header = lower['retry-after'];
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** What a failed call means: a clear ProviderError, and whether to try again. */
function classify(ai: AiSdk, raw: unknown, label: string, model: string, timeoutMs: number): Failure {
  const { APICallError, RetryError } = ai;
  const error = RetryError.isInstance(raw) ? raw.lastError : raw;
  if (error instanceof ProviderError) return { error, retry: false, waitMs: null };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? null;
    const said = providerMessageOf(error.responseBody ?? '', error.message);
    if (status === 401 || status === 403 || (status === 400 && KEY_INVALID.test(said)))
      return {
        error: new ProviderError('key_refused', `${label} refused the API key (HTTP ${status}): ${said}`, status),
        retry: false,
        waitMs: null,
      };
    if (status === 429) {
      const wait = retryAfterMs(error.responseHeaders);
      if (wait !== null && wait > MAX_RETRY_AFTER_SECONDS * 1000) {
        return {
          error: new ProviderError('rate_limited', `${label} is rate limiting; retry after ${Math.ceil(wait / 1000)} s: ${said}`, 429),
          retry: false,
          waitMs: null,
        };
      }
      return { error: new ProviderError('rate_limited', `${label} is rate limiting: ${said}`, 429), retry: true, waitMs: wait };
    }
    if (status !== null && status >= 500)
      return { error: new ProviderError('unavailable', `${label} failed (HTTP ${status}): ${said}`, status), retry: true, waitMs: null };
    if (status !== null && CONTEXT_TOO_LONG.test(said)) {
      return {
        error: new ProviderError('context_too_long', `The input is too long for ${label} model '${model}': ${said}`, status),
        retry: false,
        waitMs: null,
      };
    }
    if (status === 404)
      return {
        error: new ProviderError('unknown_model', `${label} does not offer model '${model}' (HTTP 404): ${said}`, status),
        retry: false,
        waitMs: null,
      };
    if (status !== null)
      return {
        error: new ProviderError('bad_request', `${label} refused the request (HTTP ${status}): ${said}`, status),
        retry: false,
        waitMs: null,
      };
    return { error: new ProviderError('unavailable', `${label} could not be reached: ${said}`), retry: true, waitMs: null };
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError')
    return {
      error: new ProviderError('unavailable', `${label} did not answer within ${Math.round(timeoutMs / 1000)} s`),
      retry: true,
      waitMs: null,
    };
  const message = error instanceof Error ? error.message : String(error);
  if (
    error instanceof TypeError &&
    /fetch failed|network|ECONNREFUSED|ECONNRESET/i.test(`${message} ${String((error as { cause?: unknown }).cause ?? '')}`)
  ) {
    return { error: new ProviderError('unavailable', `${label} could not be reached: ${message}`), retry: true, waitMs: null };
  }
  return { error: new ProviderError('bad_request', `${label}: ${message}`), retry: false, waitMs: null };
}

function toModelMessages(messages: ProviderMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    switch (m.role) {
      case 'user':
        return { role: 'user', content: m.content };
      case 'assistant':
        return { role: 'assistant', content: m.content };
      case 'tool':
        return {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: m.toolCallId, toolName: m.toolName, output: { type: 'json', value: m.output } }],
        };
      case 'response':
        return m.message as unknown as ModelMessage;
      default: {
        const unknownRole: never = m;
        throw new Error(`unknown message role in ${JSON.stringify(unknownRole)}`);
      }
    }
  });
}

function toTools(ai: AiSdk, tools: ProviderToolSpec[] | undefined): ToolSet | undefined {
  const { jsonSchema, tool } = ai;
  if (!tools?.length) return undefined;
  const set: ToolSet = {};
  // No `execute`: generateText returns after one step with the calls; the caller runs them.
  for (const spec of tools)
    set[spec.name] = tool({ description: spec.description, inputSchema: jsonSchema(spec.parameters as Parameters<typeof jsonSchema>[0]) });
  return set;
}

const toJson = <T>(value: T): JsonValue => JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
const FINISH = new Set(['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other']);

/**
 * Builds a model provider plugin: `plugins.<id>` settings (see ModelProviderSettings),
 * the key from PUT /settings `ai_provider_keys.<slug>` (sealed) or else the config's
 * `api_key`, `generate` through the AI SDK with Flowhost's own retries, `models` from
 * the service's models endpoint cached in memory per host (fallback list otherwise), and
 * `test` (a cheap authenticated GET).
 */
export function defineModelProviderPlugin(options: ModelProviderOptions): PluginDefinition {
  const { slug, label } = options;
  return definePlugin({
    id: options.id,
    version: '1.0.0',
    flowhost: '^1.0.0',
    description: options.description,
    settingsSchema: settingsSchema(options.defaultBaseUrl),
    deps: {
      providers: services.providers,
      settings: services.settings,
      config: services.configOf<ModelProviderSettings>(),
      log: services.logger,
    },
    setup({ providers, settings, config, log }) {
      const kit = providerKit(options, config, settings, log);
      const { keyOf } = kit;
      const generate = generatorOf(kit);
      const modelList = modelListerOf(kit);
      const test = keyTesterOf(kit);

      providers.add(
        defineProvider({
          slug,
          label,
          configured: async () => Boolean(await keyOf()),
          models: async (ctx) => (await modelList(ctx)).models,
          modelList,
          generate,
          test,
          async complete(request, ctx) {
            const system = request.messages
              .filter((m) => m.role === 'system')
              .map((m) => m.content)
              .join('\n\n');
            const messages = request.messages
              .filter((m) => m.role === 'user' || m.role === 'assistant')
              .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
            const result = await generate({ model: request.model, messages, ...(system ? { system } : {}) }, ctx);
            return { content: result.text };
          },
        }),
      );
    },
  });
}

/** What a provider's parts share: its options and settings, the service's address, and the key. */
function providerKit(
  options: ModelProviderOptions,
  config: ModelProviderSettings,
  settings: { providerKey(slug: string): Promise<string | null> },
  log: CallContext['log'],
) {
  const { slug, label } = options;
  const baseURL = trimSlash(config.base_url);
  const fetch = fetchOnly(baseURL, label);
  const keyOf = async (): Promise<string> => {
    const saved = await settings.providerKey(slug).catch((error: unknown) => {
      log.error(
        { provider: slug },
        `${label}: the saved API key cannot be opened (${error instanceof Error ? error.message : String(error)}); save it again`,
      );
      return null;
    });
    return saved ?? config.api_key ?? '';
  };
  const cache = new Map<string, { at: number; list: ProviderModelList }>();

  /** GET a path; `apiKey` null sends no key at all (a public endpoint). */
  const getJson = async (path: string, apiKey: string | null): Promise<{ status: number; body: unknown; text: string }> => {
    // A listing or a key check is quick or broken: at most 15 s.
    const res = await fetch(`${baseURL}${path}`, {
      headers: { accept: 'application/json', ...(apiKey === null ? {} : options.authHeaders(apiKey)) },
      signal: AbortSignal.timeout(Math.min(config.timeout_ms, 15_000)),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body, text };
  };

  const requireKey = async (): Promise<string> => {
    const key = await keyOf();
    if (!key)
      throw new ProviderError(
        'not_configured',
        `${label} has no API key: set one with PUT /settings (ai_provider_keys.${slug}) or \`flowhost providers set-key ${slug}\``,
      );
    return key;
  };
  const builtIn = (note: string): ProviderModelList => ({ models: [...options.fallbackModels], source: 'built-in', note });
  return { options, config, label, slug, log, baseURL, fetch, keyOf, cache, getJson, requireKey, builtIn };
}
type ProviderKit = ReturnType<typeof providerKit>;

/** `generate` through the AI SDK, with Flowhost's own retries. */
function generatorOf({ options, config, label, slug, baseURL, fetch, requireKey }: ProviderKit) {
  return async function generate(request: ProviderGenerateRequest, ctx: CallContext): Promise<ProviderGenerateResult> {
    const apiKey = await requireKey();
    const ai = await loadAi();
    const model = await options.model({ apiKey, baseURL, fetch }, request.model);
    const maxOutputTokens = request.maxOutputTokens ?? options.defaultMaxOutputTokens;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await ai.generateText({
          model,
          ...(request.system ? { system: request.system } : {}),
          messages: toModelMessages(request.messages),
          ...(request.tools?.length ? { tools: toTools(ai, request.tools) } : {}),
          ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(config.timeout_ms),
        });
        const input = result.usage.inputTokens ?? 0;
        const output = result.usage.outputTokens ?? 0;
        return {
          text: result.text,
          toolCalls: result.toolCalls.map((call) => ({
            id: call.toolCallId,
            name: call.toolName,
            args: (toJson(call.input) ?? {}) as { [key: string]: JsonValue },
          })),
          usage: { input_tokens: input, output_tokens: output, total_tokens: result.usage.totalTokens ?? input + output },
          finishReason: (FINISH.has(result.finishReason) ? result.finishReason : 'other') as ProviderGenerateResult['finishReason'],
          model: result.response.modelId || request.model,
          responseMessages: result.response.messages.map((message) => ({
            role: 'response' as const,
            message: toJson(message) as { [key: string]: JsonValue },
          })),
        };
      } catch (raw) {
        const failure = classify(ai, raw, label, request.model, config.timeout_ms);
        if (!failure.retry || attempt >= config.max_retries) {
          if (failure.retry && attempt > 0)
            throw new ProviderError(failure.error.code, `${failure.error.message} (after ${attempt + 1} attempts)`, failure.error.status);
          throw failure.error;
        }
        const wait = failure.waitMs ?? config.retry_delay_ms * 2 ** attempt;
        ctx.log.warn({ provider: slug, attempt: attempt + 1, wait_ms: wait }, `${failure.error.message}; retrying`);
        await sleep(wait);
      }
    }
  };
}

/** `modelList`: the service's models (cached), else the built-in list saying why. */
function modelListerOf({ options, config, label, slug, log, baseURL, keyOf, cache, getJson, builtIn }: ProviderKit) {
  return async function modelList(ctx: CallContext): Promise<ProviderModelList> {
    // A public catalogue is asked without the key: it needs none, and one is not sent where it is not needed.
    const apiKey = options.publicModels ? null : await keyOf();
    if (apiKey === '') return builtIn(`${label} has no API key; using the built-in list`);
    const cacheKey = createHash('sha256')
      .update(`${baseURL}\n${apiKey ?? ''}`)
      .digest('hex');
    const now = ctx.clock.now().getTime();
    const hit = cache.get(cacheKey);
    if (hit && now - hit.at < config.models_cache_seconds * 1000) return { ...hit.list, models: [...hit.list.models] };
    try {
      const res = await getJson(options.modelsPath, apiKey);
      if (res.status < 200 || res.status >= 300)
        throw new Error(`HTTP ${res.status}: ${providerMessageOf(res.body, res.text.slice(0, 200))}`);
      const models = [...new Set(options.parseModels(res.body))].sort();
      if (!models.length) throw new Error('the models endpoint listed no model');
      cache.clear();
      if (config.models_cache_seconds > 0) cache.set(cacheKey, { at: now, list: { models, source: 'service' } });
      return { models: [...models], source: 'service' };
    } catch (error) {
      const note = `${label}: models list unavailable (${error instanceof Error ? error.message : String(error)}); using the built-in list`;
      log.warn({ provider: slug }, note);
      const list = builtIn(note);
      // Not asked again for a minute: a listing page must not wait on a dead endpoint each time.
      if (config.models_cache_seconds > 0) cache.set(cacheKey, { at: now - Math.max(0, config.models_cache_seconds - 60) * 1000, list });
      return { ...list, models: [...list.models] };
    }
  };
}

/** `test`: a cheap authenticated GET, whose message never carries the key. */
function keyTesterOf({ options, label, keyOf, getJson }: ProviderKit) {
  return async function test(): Promise<ProviderTestResult> {
    const apiKey = await keyOf();
    if (!apiKey) return { ok: false, code: 'not_configured', message: `${label} has no API key` };
    try {
      const res = await getJson(options.testPath ?? options.modelsPath, apiKey);
      // The service may echo the key it refused: the message never carries it.
      const said = providerMessageOf(res.body, res.text.slice(0, 200) || `HTTP ${res.status}`)
        .split(apiKey)
        .join('[redacted]');
      if (res.status >= 200 && res.status < 300) return { ok: true, message: `${label} accepted the API key` };
      if (res.status === 401 || res.status === 403 || (res.status === 400 && KEY_INVALID.test(said)))
        return { ok: false, code: 'key_refused', message: `${label} refused the API key (HTTP ${res.status}): ${said}` };
      if (res.status === 429) return { ok: false, code: 'rate_limited', message: `${label} is rate limiting: ${said}` };
      return {
        ok: false,
        code: res.status >= 500 ? 'unavailable' : 'bad_request',
        message: `${label} answered HTTP ${res.status}: ${said}`,
      };
    } catch (error) {
      return {
        ok: false,
        code: 'unavailable',
        message: `${label} could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  };
}

export { aiToolSources, type AiToolSource, type AiStepTool } from './tool-sources.js';
