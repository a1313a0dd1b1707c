/** /flows/{flow_id}/webhook: the trigger's status, turning it on or off, and a new bearer token. */
import type { RouteDefinition } from '../../kernel/routes.js';
import type { WebhooksService } from '../service.js';
import { admin, dedupeWindow, flowIdOf, idParams } from './admin-shared.js';
import { secretWarnings, senderSecret, withWarnings } from './secret-rules.js';
import { defineRoute } from '../../../sdk/define.js';

export function triggerAdminRoutes(webhooks: WebhooksService): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/flows/{flow_id}/webhook',
      permission: admin,
      summary: 'Webhook status (secrets masked)',
      schema: { params: idParams },
      handle: async (r) => ({ success: true, data: await webhooks.status(flowIdOf(r)) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/flows/{flow_id}/webhook',
      permission: admin,
      summary: 'Enable the trigger: bearer, or hmac with a preset or template (+ overrides); the token or secret is in this answer only',
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['mode'],
          additionalProperties: false,
          properties: {
            mode: { type: 'string', minLength: 1 },
            preset: { type: 'string' },
            template: { type: 'object' },
            overrides: { type: 'object' },
            secret: senderSecret,
            dedupe_window_seconds: dedupeWindow,
          },
        },
      },
      async handle(r) {
        const warnings = secretWarnings(r.body.secret);
        const result = await webhooks.enable(flowIdOf(r), r.body, r.user);
        return {
          success: true,
          message: 'Webhook trigger enabled.',
          data: {
            ...result.status,
            ...(result.token ? { token: result.token } : {}),
            ...(result.secret ? { secret: result.secret } : {}),
          },
          ...withWarnings([...warnings, ...result.warnings]),
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/flows/{flow_id}/webhook',
      permission: admin,
      summary: 'Disable the trigger (token and secrets are forgotten)',
      schema: { params: idParams },
      async handle(r) {
        await webhooks.disable(flowIdOf(r), r.user);
        return { success: true, message: 'Webhook trigger disabled.' };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/flows/{flow_id}/webhook/regenerate',
      permission: admin,
      summary: 'A new bearer token; the old one stops working at once',
      schema: { params: idParams },
      async handle(r) {
        return { success: true, message: 'Token regenerated.', data: { token: await webhooks.regenerate(flowIdOf(r), r.user) } };
      },
    }),
  ];
}
