import { defineHandler, definePlugin, services, type HandlerContext, type JsonSchema, type LogsApi } from '../../sdk/index.js';
import { PATH_MAX_LENGTH, PATH_PATTERN } from './item-path.js';
import { deliveryOf, deliveryPackets, FIELD_DEFAULTS, type WebhookItemsSettings } from './items.js';

const path = (title: string, description: string, fallback: string): JsonSchema => ({
  type: 'string',
  pattern: PATH_PATTERN,
  maxLength: PATH_MAX_LENGTH,
  default: fallback,
  title,
  description,
});

const settings: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    items_path: path(
      'Items path',
      "Where the items are in the payload: a dotted path with array indexes (data.items, commits, data.object); empty: the payload is one item. A JSON array body arrives as {items: [...]}: use 'items'.",
      '',
    ),
    id_field: path('Id field', "Each item's id (deduplicates a redelivery); empty or missing: a hash of the item", FIELD_DEFAULTS.id_field),
    title_field: path('Title field', "Each item's title", FIELD_DEFAULTS.title_field),
    content_field: path('Content field', "Each item's content (HTML or text)", FIELD_DEFAULTS.content_field),
    link_field: path('Link field', "Each item's link (its source address)", FIELD_DEFAULTS.link_field),
    author_field: path('Author field', "Each item's author", FIELD_DEFAULTS.author_field),
    date_field: path('Date field', "Each item's date", FIELD_DEFAULTS.date_field),
    skip_missing: {
      type: 'boolean',
      default: false,
      title: 'No items when the path is missing',
      description: "A delivery without the items path (GitHub's ping, another event type) yields no items instead of failing the step",
    },
    max_items: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
      title: 'Items per delivery',
      description: 'New items taken from one delivery; the rest of a longer delivery are not taken',
    },
  },
};

/** A line in the run's log (GET /logs?job_id=N), beside the engine's own. */
function runLog(logs: LogsApi, ctx: HandlerContext, level: 'info' | 'warning', message: string): Promise<unknown> {
  return logs.record({
    level,
    message,
    context: { job_id: ctx.jobId, flow_id: ctx.flowId, pipeline_id: ctx.pipelineId, flow_step_id: ctx.flowStepId, handler: 'webhook' },
  });
}

/** The `webhook` fetch handler: a webhook flow's delivery as its run's items, without a plugin of its own. */
export default definePlugin({
  id: 'webhook-items',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The webhook fetch handler: the items of the delivery that started the run (initial_data.webhook_trigger.payload).',
  deps: { handlers: services.handlers, logs: services.logs },
  setup({ handlers, logs }) {
    handlers.add(
      defineHandler<WebhookItemsSettings>({
        slug: 'webhook',
        type: 'fetch',
        label: 'Webhook payload',
        description:
          'The items of the webhook delivery that started the run, mapped to title, content and link; each item is processed once per flow step (by its id, else a hash).',
        settings,
        async fetch(ctx, settings) {
          const delivery = deliveryOf(ctx.engineData);
          if (!delivery) {
            await runLog(
              logs,
              ctx,
              'info',
              `webhook: job ${ctx.jobId} was not started by a webhook delivery, so it has no items (to try the flow, POST /execute with initial_data {"webhook_trigger": {"payload": ...}})`,
            );
            return [];
          }
          const packets = deliveryPackets(delivery, settings);
          const max = settings.max_items ?? 1;
          if (packets.length > max)
            await runLog(
              logs,
              ctx,
              'warning',
              `webhook: the delivery holds ${packets.length} items; this step takes at most ${max} new ones (max_items), so the rest are not taken from this delivery`,
            );
          return packets;
        },
      }),
    );
  },
});
