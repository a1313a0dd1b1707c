/**
 * The tools a model may be offered now: a tool that needs configuration says so with
 * `enabled(ctx)` and is left out until it is configured (a model offered a tool that can
 * only fail would call it anyway). A check that throws counts as not enabled. A tool that
 * always deletes or resets is left out unless the site enabled it (docs/chat.md).
 */
import type { CallContext, ChatToolDefinition } from '../../../sdk/index.js';

export async function enabledTools(
  tools: ReadonlyArray<ChatToolDefinition>,
  ctx: CallContext,
  destructiveEnabled: (name: string) => boolean,
): Promise<ChatToolDefinition[]> {
  const offered = await Promise.all(
    tools.map(async (tool) => {
      // A tool that always deletes (docsync_reset_docs) is not even offered until enabled.
      if (tool.destructive === true && !destructiveEnabled(tool.name)) return false;
      if (!tool.enabled) return true;
      try {
        return await tool.enabled(ctx);
      } catch (error) {
        ctx.log.warn({ tool: tool.name, err: error }, `Chat tool ${tool.name}: its enabled() check failed; not offered`);
        return false;
      }
    }),
  );
  return tools.filter((_, i) => offered[i]);
}
