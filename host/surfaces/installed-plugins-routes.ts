import validRange from 'semver/ranges/valid.js';
import type { RouteRequest, SurfaceDefinition } from '../../core/kernel/routes.js';
import { reply } from '../../core/kernel/routes.js';
import { apiError } from '../../core/errors/catalogue.js';
import {
  bool,
  errorBody,
  int,
  isoDate,
  list,
  named,
  nullable,
  obj,
  str,
  successBody,
  withResponses,
} from '../../core/kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';
import { PluginInstallError } from '../plugin-install/install-error.js';
import type { InstalledPlugins } from '../plugin-install/installed-service.js';
import { admin, params } from './plugin-route-params.js';

/** A plugin tarball sent as the body: at most this many bytes. */
export const TARBALL_LIMIT = 20 * 1024 * 1024;

const fields = { id: str, package: str, spec: str, version: str, enabled: bool, installed_at: isoDate };
const installed = obj({ ...fields, depends_on: list(str) }, Object.keys(fields));
const view = named('InstalledPlugin', obj({ ...fields, loaded: bool, depends_on: list(str) }, [...Object.keys(fields), 'loaded']));
const purgeView = named(
  'PluginPurge',
  obj({
    plugin: str,
    collections: list(obj({ name: str, documents: int })),
    jobs: list(obj({ name: str, count: int })),
    settings: bool,
    migrations: bool,
  }),
);
const changed = successBody({ message: str, data: installed, restart_needed: bool });

/** The install machinery's refusals as the catalogue's answers (`data.problems` for an incompatible package). */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PluginInstallError)) throw error;
    throw apiError(error.code, { message: error.message, data: error.problems.length ? { problems: error.problems } : undefined });
  }
}

const isTarball = (type: string | undefined) => /^application\/(gzip|x-gzip|x-tar|octet-stream)\b/i.test(type ?? '');

/** The JSON body's `package`, or the raw tarball: the body is read undecoded so a tarball is bytes. */
function installRequest(request: RouteRequest): { spec: string } | { tarball: Buffer } {
  const type = request.headers['content-type'];
  if (isTarball(type)) {
    const bytes = request.rawBody;
    // gzip's magic number: an npm tarball is a gzipped tar (npm pack).
    if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
      throw apiError('rest_invalid_param', {
        message: 'The body is not a gzipped tarball (npm pack makes one)',
        data: { params: { body: 'not gzip' } },
      });
    return { tarball: bytes };
  }
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody.toString('utf8') || '{}');
  } catch {
    throw apiError('rest_invalid_json');
  }
  const spec = (body as { package?: unknown })?.package;
  if (typeof spec !== 'string' || !spec.trim() || spec.length > 2048)
    throw apiError('rest_invalid_param', {
      message: 'Send { "package": "<name[@range] | git URL | tarball URL>" } as JSON, or the tarball itself as application/gzip',
      data: { params: { package: 'a package name, git URL or tarball URL (at most 2048 characters)' } },
    });
  return { spec: spec.trim() };
}

/** Every answer of the surface, as sent (openapi.json is made from these). */
const responses = {
  'GET /installed-plugins': { 200: successBody({ data: list(view), restart_needed: bool }) },
  'POST /installed-plugins': {
    201: changed,
    400: errorBody('rest_invalid_param', 'rest_invalid_json'),
    403: errorBody('plugin_not_allowed'),
    409: errorBody('plugin_already_installed', 'plugin_install_busy'),
    422: errorBody('plugin_install_failed', 'plugin_incompatible'),
    503: errorBody('plugin_install_unavailable'),
  },
  'POST /installed-plugins/{id}/update': {
    200: changed,
    403: errorBody('plugin_not_allowed'),
    404: errorBody('plugin_not_installed'),
    409: errorBody('plugin_install_busy'),
    422: errorBody('plugin_install_failed', 'plugin_incompatible'),
    503: errorBody('plugin_install_unavailable'),
  },
  'PATCH /installed-plugins/{id}': {
    200: changed,
    404: errorBody('plugin_not_installed'),
    409: errorBody('plugin_required'),
    503: errorBody('plugin_install_unavailable'),
  },
  'GET /installed-plugins/{id}/purge': {
    200: successBody({ data: purgeView }),
    404: errorBody('plugin_not_installed'),
    503: errorBody('plugin_install_unavailable'),
  },
  'DELETE /installed-plugins/{id}': {
    200: successBody({ message: str, data: installed, restart_needed: bool, purged: nullable(purgeView) }),
    404: errorBody('plugin_not_installed'),
    409: errorBody('plugin_install_busy', 'plugin_required', 'plugin_running'),
    422: errorBody('plugin_install_failed'),
    503: errorBody('plugin_install_unavailable'),
  },
};

/** `/installed-plugins...`: install, update, switch and remove plugins of the data directory (administrators). */
export function installedPluginsSurface(plugins: InstalledPlugins): SurfaceDefinition {
  const done = (status: number, message: string, data: object) =>
    reply(status, {
      success: true,
      message: `${message}${plugins.restartNeeded() ? ' It takes effect when the host restarts.' : ''}`,
      data,
      restart_needed: plugins.restartNeeded(),
    });
  return withResponses(
    {
      id: 'installed-plugins',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/installed-plugins',
          permission: admin,
          summary:
            'Plugins installed in the data directory: package, version, enabled, whether this host runs them, and whether a change waits for a restart',
          handle() {
            return { success: true, data: plugins.list(), restart_needed: plugins.restartNeeded() };
          },
        }),
        defineRoute({
          method: 'POST',
          path: '/installed-plugins',
          permission: admin,
          summary:
            'Install a plugin: JSON { "package": name[@range] | git URL | tarball URL }, or an npm tarball as the body (application/gzip)',
          decodeBody: false,
          bodyLimit: TARBALL_LIMIT,
          async handle(request) {
            const asked = installRequest(request);
            const plugin = await answering(() => ('spec' in asked ? plugins.install(asked.spec) : plugins.installTarball(asked.tarball)));
            return done(201, `Installed ${plugin.id} ${plugin.version}.`, plugin);
          },
        }),
        defineRoute({
          method: 'POST',
          path: '/installed-plugins/{id}/update',
          permission: admin,
          summary:
            'Update an installed plugin: to `version` (a version or range of its package), or to the latest; a tarball or git install is fetched again',
          schema: {
            params,
            body: {
              type: 'object',
              additionalProperties: false,
              properties: { version: { type: 'string', minLength: 1, maxLength: 100 } },
            },
          },
          async handle(request) {
            const version = (request.body as { version?: string }).version;
            if (version !== undefined && !validRange(version))
              throw apiError('rest_invalid_param', {
                message: `'${version}' is no version or range`,
                data: { params: { version: 'a semver version or range' } },
              });
            const plugin = await answering(() => plugins.update(request.params.id, version));
            return done(200, `Updated ${plugin.id} to ${plugin.version}.`, plugin);
          },
        }),
        defineRoute({
          method: 'PATCH',
          path: '/installed-plugins/{id}',
          permission: admin,
          summary: 'Enable or disable an installed plugin (a disabled one stays installed and is not loaded; its flows show as orphaned)',
          schema: {
            params,
            body: { type: 'object', required: ['enabled'], additionalProperties: false, properties: { enabled: { type: 'boolean' } } },
          },
          async handle(request) {
            const { enabled } = request.body as { enabled: boolean };
            const plugin = await answering(() => plugins.setEnabled(request.params.id, enabled));
            return done(200, `${enabled ? 'Enabled' : 'Disabled'} ${plugin.id}.`, plugin);
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/installed-plugins/{id}/purge',
          permission: admin,
          summary:
            'What removing it with purge=true would take from the store: its collections with document counts, its jobs, its saved settings, its migration record',
          schema: { params },
          async handle(request) {
            return { success: true, data: await answering(() => plugins.purgePlan(request.params.id)) };
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/installed-plugins/{id}',
          permission: admin,
          summary: 'Uninstall a plugin; purge=true also removes its data (GET .../purge shows what first); without it the data stays',
          schema: { params, query: { type: 'object', properties: { purge: { type: 'boolean', default: false } } } },
          async handle(request) {
            const purge = (request.query as { purge?: boolean }).purge === true;
            const { plugin, purged } = await answering(() => plugins.remove(request.params.id, purge));
            const answer = done(200, `Removed ${plugin.id} ${plugin.version}${purged ? ' and its data' : ''}.`, plugin);
            return reply(200, { ...answer.body, purged });
          },
        }),
      ],
    },
    responses,
  );
}
