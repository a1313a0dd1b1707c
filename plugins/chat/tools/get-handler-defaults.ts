/** Reads the handler defaults new flow steps start from. */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import type { ResolvedChatServices } from '../types.js';

export function getHandlerDefaultsTool({ flows }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'get_handler_defaults',
    description:
      'Read the handler defaults: settings per handler that a flow step starts from when it is given that handler (explicit settings win key by key). handler_slug: one handler (its defaults, {} when none); omit for every handler that has some. Secrets are masked.',
    parameters: {
      type: 'object',
      properties: { handler_slug: { type: 'string', minLength: 1, maxLength: 100 } },
      additionalProperties: false,
    },
    async run(args, ctx) {
      requireManager(ctx, 'get_handler_defaults');
      const slug = args.handler_slug;
      const defaults = await flows.getHandlerDefaults(slug);
      return slug === undefined ? { handler_defaults: defaults } : { handler_slug: slug, settings: defaults[slug] ?? {} };
    },
  });
}
