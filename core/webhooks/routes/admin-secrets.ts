/** /flows/{flow_id}/webhook/secrets: rotating, replacing and forgetting HMAC secrets. */
import { reply, type RouteDefinition } from '../../kernel/routes.js';
import type { WebhooksService } from '../service.js';
import { admin, flowIdOf, idParams } from './admin-shared.js';
import { secretWarnings, senderSecret, withWarnings } from './secret-rules.js';
import { defineRoute } from '../../../sdk/define.js';

export function secretRoutes(webhooks: WebhooksService): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/flows/{flow_id}/webhook/secrets',
      permission: admin,
      summary: 'Rotate: a new secret; current ones stay valid for ttl_seconds (default 7 days)',
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { ttl_seconds: { type: 'integer', minimum: 0, maximum: 31536000 }, secret: senderSecret },
        },
      },
      async handle(r) {
        const body = r.body;
        const warnings = secretWarnings(body.secret);
        const secret = await webhooks.rotate(flowIdOf(r), { ttlSeconds: body.ttl_seconds, value: body.secret }, r.user);
        return reply(201, { success: true, message: 'Secret rotated.', data: { secret }, ...withWarnings(warnings) });
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/flows/{flow_id}/webhook/secrets',
      permission: admin,
      summary: 'Replace every secret with one (given or generated); no grace period',
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, properties: { secret: senderSecret } } },
      async handle(r) {
        const warnings = secretWarnings(r.body.secret);
        const secret = await webhooks.setSecret(flowIdOf(r), r.body.secret, r.user);
        return { success: true, message: 'Secret set.', data: { secret }, ...withWarnings(warnings) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/flows/{flow_id}/webhook/secrets/{secret_id}',
      permission: admin,
      summary: 'Forget a secret',
      schema: {
        params: {
          type: 'object',
          required: ['flow_id', 'secret_id'],
          properties: { flow_id: { type: 'integer', minimum: 1 }, secret_id: { type: 'string', minLength: 1 } },
        },
      },
      async handle(r) {
        await webhooks.forget(flowIdOf(r), String(r.params.secret_id), r.user);
        return { success: true, message: 'Secret forgotten.' };
      },
    }),
  ];
}
