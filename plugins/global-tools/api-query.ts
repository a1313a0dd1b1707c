/**
 * api_query: up to 10 GET requests to this site's REST API in one call, made in process
 * as the caller (services.api): the same routes, permission checks, query validation and
 * error bodies as over HTTP. Each request answers on its own; bodies are cut to a bound.
 */
import { defineChatTool, type ApiClient, type ChatToolDefinition } from '../../sdk/index.js';

/** A body larger than this (as JSON) comes back as its first characters, marked truncated. */
export const MAX_BODY_CHARS = 20_000;

export function apiQueryTool(api: ApiClient): ChatToolDefinition {
  return defineChatTool({
    name: 'api_query',
    description:
      "Read this site's REST API: 1 to 10 GET requests, each {path, query?}, path relative to the API prefix: '/flows?per_page=5', '/pipelines', '/jobs', '/handlers', '/wp/v2/posts?status=draft'. Each answers {path, status, body} as the API would answer you; bodies over 20000 characters are cut (truncated: true).",
    parameters: {
      type: 'object',
      required: ['requests'],
      properties: {
        requests: {
          type: 'array',
          minItems: 1,
          maxItems: 10,
          items: {
            type: 'object',
            required: ['path'],
            properties: {
              path: { type: 'string', pattern: '^/', minLength: 1, maxLength: 2000 },
              query: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, maxProperties: 50 },
            },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const requests = args.requests;
      // In order, one at a time: a batch is small, and each read sees the one before it.
      const out = [];
      for (const { path, query } of requests) {
        const answer = await api.get(path, { user: ctx.user, query, log: ctx.log });
        const json = JSON.stringify(answer.body ?? null);
        out.push(
          json.length > MAX_BODY_CHARS
            ? { path, status: answer.status, body: json.slice(0, MAX_BODY_CHARS), truncated: true }
            : { path, status: answer.status, body: answer.body },
        );
      }
      return out;
    },
  });
}
