/**
 * web_fetch: one user-given URL through the guarded fetch (private and loopback addresses
 * refused unless the host allows them), bounded in time and size. HTML comes back as
 * text, JSON and plain text as they are; anything else is refused by its type.
 */
import { defineChatTool, FetchLimitError, UrlRefusedError, type ChatToolDefinition } from '../../sdk/index.js';
import { htmlToPlain } from './html-text.js';

export interface WebFetchOptions {
  timeoutMs: number;
  maxBytes: number;
}

const MAX_CHARS = 100_000;

const titleOf = (html: string): string => {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return match ? htmlToPlain(match[1]!).replace(/\s+/g, ' ').slice(0, 300) : '';
};

export function webFetchTool({ timeoutMs, maxBytes }: WebFetchOptions): ChatToolDefinition {
  return defineChatTool({
    name: 'web_fetch',
    description: `Fetch a web page or JSON document by URL and return its text (HTML converted to plain text). max_chars bounds the text returned (default 20000, at most ${MAX_CHARS}); truncated says whether it was cut.`,
    parameters: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2000 },
        max_chars: { type: 'integer', minimum: 100, maximum: MAX_CHARS, default: 20_000 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const url = String(args.url);
      const maxChars = args.max_chars ?? 20_000;
      let res;
      try {
        res = await ctx.fetch(url, {
          headers: { accept: 'text/html, application/json;q=0.9, text/plain;q=0.8, */*;q=0.1' },
          timeoutMs,
          maxBytes,
        });
      } catch (error) {
        // A refusal says how to allow the address (host/net): the model passes it on.
        if (error instanceof UrlRefusedError || error instanceof FetchLimitError) throw new Error(error.message);
        throw new Error(`Could not fetch ${url.slice(0, 200)}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const raw = res.text();
      let title = '';
      let text: string;
      if (contentType === 'text/html' || contentType === 'application/xhtml+xml') {
        title = titleOf(raw);
        text = htmlToPlain(raw);
      } else if (
        contentType === 'application/json' ||
        contentType.endsWith('+json') ||
        contentType.startsWith('text/') ||
        contentType === 'application/xml' ||
        contentType.endsWith('+xml')
      ) {
        text = raw;
      } else {
        throw new Error(`${res.url} is ${contentType || 'of no declared type'}: web_fetch reads HTML, JSON and text only`);
      }
      const truncated = text.length > maxChars;
      return {
        url,
        final_url: res.url,
        status: res.status,
        content_type: contentType,
        title,
        text: truncated ? text.slice(0, maxChars) : text,
        truncated,
      };
    },
  });
}
