import { defineModelProviderPlugin } from '../../sdk/ai/index.js';

interface GeminiModel {
  name?: unknown;
  supportedGenerationMethods?: unknown;
}

/** Google's Gemini API (generativelanguage, slug `gemini`). */
export default defineModelProviderPlugin({
  id: 'provider-gemini',
  slug: 'gemini',
  label: 'Google Gemini',
  description: 'AI provider: Google Gemini (generateContent).',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  model: async ({ apiKey, baseURL, fetch }, modelId) =>
    (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL, fetch })(modelId),
  // The key in a header, never in the URL (the service accepts both).
  authHeaders: (apiKey) => ({ 'x-goog-api-key': apiKey }),
  modelsPath: '/models?pageSize=1000',
  parseModels: (body) =>
    ((body as { models?: GeminiModel[] })?.models ?? [])
      .filter((m) => !Array.isArray(m.supportedGenerationMethods) || m.supportedGenerationMethods.includes('generateContent'))
      .map((m) => (typeof m.name === 'string' ? m.name.replace(/^models\//, '') : ''))
      .filter(Boolean),
  fallbackModels: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'],
});
