/**
 * The host's own routes, one file each under system-routes/, assembled here with the
 * WordPress API index and compiled after the plugins' (the index and openapi.json list
 * the whole table).
 */
import type { DocumentStore } from '../../core/store/port.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { RouteDefinition } from '../../core/kernel/routes.js';
import { apiIndexRoutes } from './api-index.js';
import { compileRoutes, type CompiledRoute } from './route-table.js';
import type { Readiness, SystemContext } from './system-routes/context.js';
import { healthRoute } from './system-routes/health.js';
import { openapiRoute } from './system-routes/openapi.js';
import { readyRoute } from './system-routes/ready.js';
import { referenceAssetsRoute } from './system-routes/reference-assets.js';
import { referenceRoute } from './system-routes/reference.js';

export type { Readiness } from './system-routes/context.js';
export { REFERENCE_CSP } from './system-routes/reference.js';

/**
 * GET /healthz (store status; 503 when unusable), GET /readyz (200 only when started, not
 * stopping, and the store answers), GET {prefix}/openapi.json, the WordPress API index at
 * GET {prefix}/ (and {prefix}/wp/v2), and the API
 * reference viewer at GET {prefix}/reference (swagger-ui, its assets under
 * {prefix}/reference/assets/{file}).
 */
export function systemRoutes(deps: {
  routes: CompiledRoute[];
  store: DocumentStore;
  readiness: () => Readiness;
  apiPrefix: string;
  serverUrl: () => string;
  routeOptions: { apiPrefix: string; coreNamespace: string; log: Logger; checkResponses?: boolean };
}): CompiledRoute[] {
  const referencePath = `${deps.apiPrefix}/reference`;
  // The plugins' routes until the system's are compiled, then all of them (the index and
  // openapi.json list the whole table).
  let table: CompiledRoute[] = deps.routes;
  const ctx: SystemContext = {
    store: deps.store,
    readiness: deps.readiness,
    serverUrl: deps.serverUrl,
    openapiPath: `${deps.apiPrefix}/openapi.json`,
    referencePath,
    assetsPath: `${referencePath}/assets`,
    table: () => table,
  };

  const routes: RouteDefinition[] = [
    healthRoute(ctx),
    readyRoute(ctx),
    openapiRoute(ctx),
    referenceRoute(ctx),
    referenceAssetsRoute(ctx) as RouteDefinition,
  ];
  table = [
    ...deps.routes,
    ...compileRoutes(
      [
        { surface: { id: 'system', mount: 'site-root', routes }, owner: 'host' },
        // WordPress clients discover the API here, from other origins too.
        {
          surface: {
            id: 'api-index',
            mount: 'site-root',
            rest: 'wordpress',
            routes: apiIndexRoutes({ table: () => table, apiPrefix: deps.apiPrefix, siteUrl: deps.serverUrl, siteName: 'Flowhost' }),
          },
          owner: 'host',
        },
      ],
      deps.routeOptions,
    ),
  ];
  return table.slice(deps.routes.length);
}
