import { defineModelProviderPlugin } from '../../sdk/ai/index.js';

/** Anthropic through its Messages API (slug `anthropic`). */
export default defineModelProviderPlugin({
  id: 'provider-anthropic',
  slug: 'anthropic',
  label: 'Anthropic',
  description: 'AI provider: Anthropic (messages API).',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  model: async ({ apiKey, baseURL, fetch }, modelId) =>
    (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL, fetch })(modelId),
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' }),
  modelsPath: '/models?limit=1000',
  parseModels: (body) =>
    ((body as { data?: Array<{ id?: unknown }> })?.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string'),
  fallbackModels: ['claude-opus-4-1', 'claude-sonnet-4-5', 'claude-sonnet-4-0', 'claude-3-7-sonnet-latest', 'claude-3-5-haiku-latest'],
  // The Messages API requires max_tokens; the AI SDK guesses for known models only.
  defaultMaxOutputTokens: 4096,
});
