import type { SurfaceDefinition } from '../kernel/routes.js';
import type { CredentialsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { credentialsResponses } from './responses.js';
import { defineRoute } from '../../sdk/define.js';

const admin = { capability: 'manage_options' } as const;
const slugParams = {
  type: 'object',
  required: ['handler_slug'],
  properties: { handler_slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 100 } },
} as const;

/** The spec's Auth endpoints: status, save credentials, disconnect (manage_options). */
export function authSurface(credentials: CredentialsService): SurfaceDefinition {
  const slug = (params: Record<string, unknown>) => String(params.handler_slug);
  return withResponses(
    {
      id: 'auth',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/auth/{handler_slug}/status',
          permission: admin,
          summary: "A handler's authentication status (an OAuth error is still 200, with data.error true)",
          schema: { params: slugParams },
          handle: async (r) => ({ success: true, data: await credentials.status(slug(r.params)) }),
        }),
        defineRoute({
          method: 'PUT',
          path: '/auth/{handler_slug}',
          permission: admin,
          summary: "Save a handler's credentials (the provider's application keys, or an app password)",
          schema: {
            params: slugParams,
            // Field names depend on the handler; each value a string of sane size.
            body: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 4096 } },
          },
          async handle(r) {
            const saved = await credentials.save(slug(r.params), r.body);
            // The admin client reads config_status at the top level; data carries it too.
            return {
              success: true,
              message: saved.message,
              config_status: saved.config_status,
              data: { config_status: saved.config_status, changed: saved.changed },
            };
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/auth/{handler_slug}',
          permission: admin,
          summary: "Disconnect a handler's account",
          schema: { params: slugParams },
          handle: async (r) => ({ success: true, message: await credentials.disconnect(slug(r.params)) }),
        }),
      ],
    },
    credentialsResponses,
  );
}
