import { defineModelProviderPlugin } from '../../sdk/ai/index.js';

/** xAI's Grok models through its OpenAI-shaped chat completions API (slug `grok`). */
export default defineModelProviderPlugin({
  id: 'provider-xai',
  slug: 'grok',
  label: 'xAI Grok',
  description: 'AI provider: xAI Grok (chat completions).',
  defaultBaseUrl: 'https://api.x.ai/v1',
  model: async ({ apiKey, baseURL, fetch }, modelId) => (await import('@ai-sdk/xai')).createXai({ apiKey, baseURL, fetch }).chat(modelId),
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  modelsPath: '/models',
  parseModels: (body) =>
    ((body as { data?: Array<{ id?: unknown }> })?.data ?? [])
      .map((m) => m.id)
      .filter((id): id is string => typeof id === 'string' && !/image|imagine|video/.test(id)),
  fallbackModels: ['grok-4', 'grok-4-fast-reasoning', 'grok-4-fast-non-reasoning', 'grok-3', 'grok-3-mini'],
});
