/** GET /webhook-presets: the HMAC presets the plugins registered. */
import type { WebhooksService } from '../service.js';
import type { RouteDefinition } from '../../kernel/routes.js';
import { admin } from './admin-shared.js';

export function presetRoutes(webhooks: WebhooksService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/webhook-presets',
      permission: admin,
      summary: 'Loaded webhook presets',
      handle: () => ({
        success: true,
        data: webhooks.presets().map((p) => ({ slug: p.slug, label: p.label, template: p.template })),
      }),
    },
  ];
}
