/** A flow's trigger rate limit and its duplicate window (event ids and Idempotency-Keys). */
import type { RouteDefinition } from '../../kernel/routes.js';
import type { WebhooksService } from '../service.js';
import { admin, dedupeWindow, flowIdOf, idParams } from './admin-shared.js';
import { defineRoute } from '../../../sdk/define.js';
import { DEFAULT_IDEMPOTENCY_WINDOW_SECONDS } from '../idempotency-key.js';
import { withWarnings } from './secret-rules.js';

export function limitRoutes(webhooks: WebhooksService): RouteDefinition[] {
  return [
    defineRoute({
      method: 'PUT',
      path: '/flows/{flow_id}/webhook/rate-limit',
      permission: admin,
      summary: "The flow's trigger rate limit",
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['max', 'window_seconds'],
          additionalProperties: false,
          properties: {
            max: { type: 'integer', minimum: 1, maximum: 100000 },
            window_seconds: { type: 'integer', minimum: 1, maximum: 86400 },
          },
        },
      },
      async handle(r) {
        const body = r.body;
        await webhooks.setRateLimit(flowIdOf(r), body.max, body.window_seconds, r.user);
        return { success: true, message: 'Rate limit saved.', data: { rate_limit: body } };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/flows/{flow_id}/webhook/dedupe',
      permission: admin,
      summary:
        'Duplicate protection: repeats of an event id or Idempotency-Key within window_seconds answer the original job (0: event ids off, Idempotency-Keys kept a day)',
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['window_seconds'],
          additionalProperties: false,
          properties: { window_seconds: dedupeWindow },
        },
      },
      async handle(r) {
        const windowSeconds = r.body.window_seconds;
        const warnings = await webhooks.setDedupe(flowIdOf(r), windowSeconds, r.user);
        return {
          success: true,
          message:
            windowSeconds > 0
              ? 'Duplicate protection on.'
              : `Duplicate event-id protection off; Idempotency-Keys are remembered for ${DEFAULT_IDEMPOTENCY_WINDOW_SECONDS} s.`,
          data: { dedupe_window_seconds: windowSeconds },
          ...withWarnings(warnings),
        };
      },
    }),
  ];
}
