/** Sets the handler defaults new flow steps start from. */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import type { ResolvedChatServices } from '../types.js';

export function setHandlerDefaultsTool({ flows }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'set_handler_defaults',
    description:
      'Set a handler\'s defaults: settings every flow step given this handler from now on starts from (settings given for a step win key by key; existing flows are not changed). mode "merge" (default) lays the given keys over the stored defaults, a null value removes a key; "replace" keeps only the given keys ({} removes all). Checked against the handler\'s settings schema (required fields may be left out). Returns the defaults, secrets masked.',
    parameters: {
      type: 'object',
      required: ['handler_slug', 'settings'],
      properties: {
        handler_slug: { type: 'string', minLength: 1, maxLength: 100 },
        settings: { type: 'object', maxProperties: 100 },
        mode: { enum: ['merge', 'replace'], default: 'merge' },
      },
      additionalProperties: false,
    },
    // "replace" (with {} it clears every default) and a null value remove stored defaults.
    destructive: (args) => args.mode === 'replace' || Object.values(args.settings ?? {}).some((v) => v === null),
    async run(args, ctx) {
      const by = requireManager(ctx, 'set_handler_defaults');
      const slug = args.handler_slug;
      const mode = args.mode ?? 'merge';
      const settings = await flows.setHandlerDefaults(slug, args.settings, mode, by);
      return { handler_slug: slug, mode, settings };
    },
  });
}
