/** GET {prefix}/openapi.json: the whole route table as OpenAPI 3.1, built at each request. */
import { json, type RouteDefinition } from '../../../core/kernel/routes.js';
import { FLOWHOST_VERSION } from '../../../core/kernel/version.js';
import { buildOpenApi } from '../openapi.js';
import type { SystemContext } from './context.js';

export function openapiRoute(ctx: SystemContext): RouteDefinition {
  return {
    method: 'GET',
    path: ctx.openapiPath,
    permission: 'public',
    summary: 'This API as OpenAPI 3.1',
    description:
      'The OpenAPI 3.1 document, as is: unlike other core answers it carries no `success` key, which OpenAPI does not allow at its top level.',
    schema: {
      responses: {
        200: {
          type: 'object',
          required: ['openapi', 'info', 'paths', 'components'],
          properties: {
            openapi: { const: '3.1.0' },
            info: { type: 'object', additionalProperties: true },
            paths: { type: 'object', additionalProperties: true },
            components: { type: 'object', additionalProperties: true },
          },
          additionalProperties: true,
        },
      },
    },
    handle: () => json(200, buildOpenApi(ctx.table(), { version: FLOWHOST_VERSION, serverUrl: ctx.serverUrl() || '/' })),
  };
}
