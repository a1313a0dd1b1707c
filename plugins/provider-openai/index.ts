import { defineModelProviderPlugin } from '../../sdk/ai/index.js';

const ids = (body: unknown): string[] =>
  ((body as { data?: Array<{ id?: unknown }> })?.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');

/** OpenAI through its Chat Completions API (slug `openai`). */
export default defineModelProviderPlugin({
  id: 'provider-openai',
  slug: 'openai',
  label: 'OpenAI',
  description: 'AI provider: OpenAI (chat completions).',
  defaultBaseUrl: 'https://api.openai.com/v1',
  model: async ({ apiKey, baseURL, fetch }, modelId) =>
    (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL, fetch }).chat(modelId),
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  modelsPath: '/models',
  // The endpoint lists embeddings, audio and image models too: keep the chat ones.
  parseModels: (body) =>
    ids(body).filter(
      (id) =>
        /^(gpt-|o\d|chatgpt-)/.test(id) && !/(embedding|whisper|tts|dall-e|image|audio|realtime|transcribe|moderation|search)/.test(id),
    ),
  fallbackModels: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini'],
});
