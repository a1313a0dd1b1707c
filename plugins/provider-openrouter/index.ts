import { defineModelProviderPlugin } from '../../sdk/ai/index.js';

/** OpenRouter: one key, models of many providers (slug `openrouter`). */
export default defineModelProviderPlugin({
  id: 'provider-openrouter',
  slug: 'openrouter',
  label: 'OpenRouter',
  description: 'AI provider: OpenRouter (many providers behind one OpenAI-shaped API).',
  defaultBaseUrl: 'https://openrouter.ai/api/v1',
  model: async ({ apiKey, baseURL, fetch }, modelId) =>
    (await import('@openrouter/ai-sdk-provider')).createOpenRouter({ apiKey, baseURL, fetch }).chat(modelId),
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  // The whole catalogue (hundreds of models) is public: listed without a key (none is sent
  // to it), so `test` asks /key instead. The built-in list only when it cannot be reached.
  modelsPath: '/models',
  publicModels: true,
  testPath: '/key',
  parseModels: (body) =>
    ((body as { data?: Array<{ id?: unknown }> })?.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string'),
  fallbackModels: [
    'openai/gpt-4o-mini',
    'openai/gpt-4.1',
    'anthropic/claude-sonnet-4.5',
    'google/gemini-2.5-flash',
    'x-ai/grok-4',
    'meta-llama/llama-3.3-70b-instruct',
  ],
});
