/**
 * The inbound trigger (routes/trigger.ts) and webhook administration over REST, one file
 * per concern under routes/.
 */
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { WebhooksService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { webhookAdminResponses } from './responses.js';
import { limitRoutes } from './routes/admin-limits.js';
import { presetRoutes } from './routes/admin-presets.js';
import { secretRoutes } from './routes/admin-secrets.js';
import { triggerAdminRoutes } from './routes/admin-trigger.js';

export { type TriggerDeps, triggerSurface } from './routes/trigger.js';

/** Webhook administration over REST (the CLI's operations), manage_options. */
export function webhookAdminSurface(webhooks: WebhooksService): SurfaceDefinition {
  return withResponses(
    {
      id: 'webhook-admin',
      routes: [...triggerAdminRoutes(webhooks), ...secretRoutes(webhooks), ...limitRoutes(webhooks), ...presetRoutes(webhooks)],
    },
    webhookAdminResponses,
  );
}
