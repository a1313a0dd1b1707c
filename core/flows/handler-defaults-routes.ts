/**
 * Handler defaults over REST, beside the other site settings: read all or one, PATCH to
 * merge, PUT to replace, DELETE to clear. Secrets are masked in every answer.
 */
import type { SurfaceDefinition } from '../kernel/routes.js';
import { anyObject, errorBody, mapOf, obj, str, successBody } from '../kernel/response-schemas.js';
import type { FlowsService } from './service.js';
import type { HandlerDefaultsMode } from './handler-defaults.js';
import { defineRoute } from '../../sdk/define.js';
import type { TypedRequest } from '../../sdk/typed-schemas.js';

const admin = { capability: 'manage_options' } as const;
const slugParams = {
  type: 'object',
  required: ['handler_slug'],
  properties: { handler_slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 100 } },
} as const;
const settingsBody = {
  type: 'object',
  required: ['settings'],
  additionalProperties: false,
  properties: { settings: { type: 'object', maxProperties: 200 } },
} as const;
const one = obj({ handler_slug: str, settings: anyObject });

export function handlerDefaultsSurface(flows: FlowsService): SurfaceDefinition {
  const write =
    (mode: HandlerDefaultsMode | 'clear') => async (request: TypedRequest<{ params: typeof slugParams; body: typeof settingsBody }>) => {
      const slug = request.params.handler_slug;
      const given = mode === 'clear' ? {} : request.body.settings;
      const settings = await flows.setHandlerDefaults(slug, given, mode === 'merge' ? 'merge' : 'replace', request.user);
      return {
        success: true,
        message: mode === 'clear' ? 'Handler defaults removed.' : 'Handler defaults saved.',
        data: { handler_slug: slug, settings },
      };
    };
  const written = {
    200: successBody({ message: str, data: one }),
    400: errorBody('rest_invalid_param'),
    404: errorBody('handler_not_found'),
  };
  return {
    id: 'handler-defaults',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/settings/handler-defaults',
        permission: admin,
        summary: 'Every handler default that is set, keyed by handler slug (secrets masked)',
        schema: { responses: { 200: successBody({ data: mapOf(anyObject) }) } },
        async handle() {
          return { success: true, data: await flows.getHandlerDefaults() };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/settings/handler-defaults/{handler_slug}',
        permission: admin,
        summary: "One handler's defaults ({} when none; secrets masked)",
        schema: { params: slugParams, responses: { 200: successBody({ data: one }), 404: errorBody('handler_not_found') } },
        async handle(request) {
          const slug = request.params.handler_slug;
          return { success: true, data: { handler_slug: slug, settings: (await flows.getHandlerDefaults(slug))[slug] ?? {} } };
        },
      }),
      defineRoute({
        method: 'PATCH',
        path: '/settings/handler-defaults/{handler_slug}',
        permission: admin,
        summary: "Merge into a handler's defaults (null removes a key); checked against the handler's settings schema",
        schema: { params: slugParams, body: settingsBody, responses: written },
        handle: write('merge'),
      }),
      defineRoute({
        method: 'PUT',
        path: '/settings/handler-defaults/{handler_slug}',
        permission: admin,
        summary: "Replace a handler's defaults ({} removes them); checked against the handler's settings schema",
        schema: { params: slugParams, body: settingsBody, responses: written },
        handle: write('replace'),
      }),
      defineRoute({
        method: 'DELETE',
        path: '/settings/handler-defaults/{handler_slug}',
        permission: admin,
        summary: "Remove a handler's defaults",
        schema: { params: slugParams, responses: { 200: successBody({ message: str, data: one }), 404: errorBody('handler_not_found') } },
        handle: write('clear'),
      }),
    ],
  };
}
