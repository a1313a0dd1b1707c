// A fetch handler that records what each job's run was given (the webhook trigger's
// engine data), by job id: what trigger tests read to see what a flow received.
import { defineHandler, type PluginDefinition } from '../../sdk/index.js';
import { handlerPlugin } from './handler-plugin.js';

export interface WebhookEcho {
  plugin: PluginDefinition;
  /** Engine data per job id. */
  seen: Map<number, Record<string, unknown>>;
  /** The job's `webhook_trigger`, once its run has fetched (waits up to 4 s). */
  triggerOf(jobId: number): Promise<Record<string, unknown>>;
}

export function webhookEcho(pluginId: string, slug: string): WebhookEcho {
  const seen = new Map<number, Record<string, unknown>>();
  const plugin = handlerPlugin(pluginId, [
    defineHandler({
      slug,
      type: 'fetch',
      label: 'Webhook input',
      description: 'The trigger payload as one item.',
      async fetch(ctx) {
        seen.set(ctx.jobId, ctx.engineData as Record<string, unknown>);
        return [{ type: 'webhook', data: { id: `job-${ctx.jobId}` }, metadata: {} }];
      },
    }),
  ]);
  const triggerOf = async (jobId: number) => {
    for (let i = 0; i < 200 && !seen.has(jobId); i++) await new Promise((r) => setTimeout(r, 20));
    return seen.get(jobId)!.webhook_trigger as Record<string, unknown>;
  };
  return { plugin, seen, triggerOf };
}
