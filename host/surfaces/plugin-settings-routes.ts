import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import {
  anyObject,
  bool,
  errorBody,
  int,
  list,
  mapOf,
  named,
  nullable,
  obj,
  str,
  successBody,
  withResponses,
} from '../../core/kernel/response-schemas.js';
import { maskDeep } from '../../core/security/mask.js';
import { defineRoute } from '../../sdk/define.js';
import type { PluginSettingsView, RuntimeSettings } from '../plugin-settings/runtime-settings.js';
import { admin, params } from './plugin-route-params.js';

const view = named(
  'PluginSettings',
  obj(
    {
      plugin: str,
      schema: nullable(anyObject),
      values: anyObject,
      secrets: mapOf(obj({ set: bool })),
      stored: list(str),
      live: bool,
      restart_required: bool,
      invalid: mapOf(str),
    },
    ['plugin', 'schema', 'values', 'secrets', 'stored', 'live', 'restart_required'],
  ),
);

/** A value under a secret-looking name that is not writeOnly is still masked, as everywhere. */
const masked = (data: PluginSettingsView): PluginSettingsView => ({ ...data, values: maskDeep(data.values) });

/** `GET|PATCH /plugins/{id}/settings`: a plugin's settings at run time (administrators). */
export function pluginSettingsSurface(settings: RuntimeSettings): SurfaceDefinition {
  return withResponses(
    {
      id: 'plugin-settings',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/plugins/settings',
          permission: admin,
          summary: 'The plugins that declare settings: whether each applies a change live, and whether one waits for a restart',
          handle() {
            const data = settings.list();
            return { success: true, data, total: data.length, restart_required: data.some((p) => p.restart_required) };
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/plugins/{id}/settings',
          permission: admin,
          summary: "A plugin's settings schema and effective values (writeOnly values never returned: only whether each is set)",
          schema: { params },
          async handle(request) {
            return { success: true, data: masked(await settings.view(request.params.id)) };
          },
        }),
        defineRoute({
          method: 'PATCH',
          path: '/plugins/{id}/settings',
          permission: admin,
          summary:
            "Change some of a plugin's settings: validated against its settingsSchema; null resets a key to its file/env value; '' keeps a writeOnly secret",
          schema: { params, body: { type: 'object', maxProperties: 200, additionalProperties: true } },
          async handle(request) {
            const data = masked(await settings.patch(request.params.id, request.body as Record<string, unknown>));
            const message = data.restart_required
              ? 'Settings saved; they take effect when the host restarts.'
              : 'Settings saved and applied.';
            return { success: true, message, data };
          },
        }),
      ],
    },
    {
      'GET /plugins/settings': {
        200: successBody({
          data: list(obj({ plugin: str, description: nullable(str), live: bool, restart_required: bool })),
          total: int,
          restart_required: bool,
        }),
      },
      'GET /plugins/{id}/settings': { 200: successBody({ data: view }), 404: errorBody('plugin_not_found') },
      'PATCH /plugins/{id}/settings': {
        200: successBody({ message: str, data: view }),
        400: errorBody('rest_invalid_param', 'plugin_has_no_settings'),
        404: errorBody('plugin_not_found'),
      },
    },
  );
}
