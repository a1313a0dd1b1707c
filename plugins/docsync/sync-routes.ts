/** /sync: repository syncs (as background jobs), token and repository diagnostics, and pushed docs. */
import type { RouteDefinition } from '../../sdk/index.js';
import { syncJobRoutes } from './sync-job-routes.js';
import { syncPushRoutes } from './sync-push-routes.js';
import type { SyncRouteDeps } from './sync-route-pieces.js';
import { syncSetupRoutes } from './sync-setup-routes.js';
import { syncSourceRoutes } from './sync-source-routes.js';

/**
 * The /sync routes, one file per kind: jobs, the source-hosting token and repository,
 * project setup and status, pushed documents. The order is the one the openapi document lists.
 */
export function syncRoutes(deps: SyncRouteDeps): RouteDefinition[] {
  return [...syncJobRoutes(deps), ...syncSourceRoutes(deps), ...syncSetupRoutes(deps), ...syncPushRoutes(deps)];
}
