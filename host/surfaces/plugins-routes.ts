import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import type { LoadedPlugin } from '../../core/kernel/loader.js';
import { bool, int, list, mapOf, named, obj, str, successBody, withResponses } from '../../core/kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';

const plugin = named(
  'LoadedPlugin',
  obj(
    {
      id: str,
      version: str,
      description: str,
      dependsOn: list(str),
      deps: list(str),
      provides: list(str),
      hooks: list(str),
      contributions: mapOf(list(str)),
      extensionPoints: list(str),
    },
    ['id', 'version', 'dependsOn', 'deps', 'provides', 'hooks', 'contributions', 'extensionPoints'],
  ),
);

/** `GET /plugins`: the plugins this host runs, so `flowhost plugins list` shows the running build, not the CLI's. */
export function pluginsSurface(loaded: readonly LoadedPlugin[], restartNeeded: () => boolean = () => false): SurfaceDefinition {
  return withResponses(
    {
      id: 'host-plugins',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/plugins',
          permission: { capability: 'manage_options' },
          summary: 'The plugins this host runs: id, version, the extension points each owns, what each contributes, the hooks each tapped',
          async handle() {
            // restart_needed: a plugin was installed, updated, switched or removed since this host started.
            return { success: true, data: loaded, total: loaded.length, restart_needed: restartNeeded() };
          },
        }),
      ],
    },
    { 'GET /plugins': { 200: successBody({ data: list(plugin), total: int, restart_needed: bool }) } },
  );
}
