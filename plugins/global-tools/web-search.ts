/**
 * web_search through the Brave Search API (https://api.search.brave.com/app/documentation/web-search):
 * GET {base_url}/res/v1/web/search?q=…&count=… with `X-Subscription-Token`, answered with
 * `web.results[] {title, url, description}`. Offered only once a key is configured.
 */
import { defineChatTool, type ChatToolDefinition, type GuardedFetch } from '../../sdk/index.js';
import type { SearchKey } from './search-key.js';
import { htmlToPlain } from './html-text.js';

export interface WebSearchOptions {
  baseUrl: string;
  key: SearchKey;
  /** The guarded fetch: the search API is a public service like any other. */
  fetch: GuardedFetch;
  timeoutMs: number;
}

interface BraveResult {
  title?: unknown;
  url?: unknown;
  description?: unknown;
}

export function webSearchTool({ baseUrl, key, fetch, timeoutMs }: WebSearchOptions): ChatToolDefinition {
  return defineChatTool({
    name: 'web_search',
    description:
      'Search the web. Returns up to `count` results (default 5, at most 20), each with title, url and snippet. Use web_fetch to read a result.',
    parameters: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 400 },
        count: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
      },
      additionalProperties: false,
    },
    async enabled() {
      return (await key.current()) !== '';
    },
    async run(args) {
      const apiKey = await key.current();
      if (!apiKey)
        throw new Error(
          'web_search is not configured: save a Brave Search API key with PUT /tools/web-search (or plugins.global-tools.search_api_key)',
        );
      const query = String(args.query);
      const count = args.count ?? 5;
      const url = `${baseUrl}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(count) }).toString()}`;
      const res = await fetch(url, {
        headers: { accept: 'application/json', 'x-subscription-token': apiKey },
        timeoutMs,
        maxBytes: 2 * 1024 * 1024,
      });
      if (!res.ok) {
        let detail = '';
        try {
          const body = res.json<{ error?: { detail?: string }; message?: string }>();
          detail = body.error?.detail ?? body.message ?? '';
        } catch {
          detail = res.text().slice(0, 200);
        }
        throw new Error(`The search API refused the request (HTTP ${res.status})${detail ? `: ${detail}` : ''}`);
      }
      let body: { web?: { results?: BraveResult[] } };
      try {
        body = res.json();
      } catch {
        throw new Error('The search API answered with something other than JSON');
      }
      const results = (Array.isArray(body.web?.results) ? body.web!.results : [])
        .filter((r) => typeof r?.url === 'string')
        .slice(0, count)
        .map((r) => ({
          title: htmlToPlain(String(r.title ?? '')).slice(0, 300),
          url: String(r.url).slice(0, 2000),
          // Brave marks matches with <strong>: the model gets plain text.
          snippet: htmlToPlain(String(r.description ?? '')).slice(0, 1000),
        }));
      return { query, results };
    },
  });
}
