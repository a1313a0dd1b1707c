/**
 * The /flows surface: the collection, one flow, and its steps, each in its own file under
 * routes/ over a shared FlowsContext; the answers' schemas are in responses.ts.
 */
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { SettingsService } from '../settings/service.js';
import type { JobsService } from '../jobs/service.js';
import type { FlowsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { flowsResponses } from './responses.js';
import { collectionRoutes } from './routes/collection.js';
import { flowsContext, type FlowOwners } from './routes/context.js';
import { flowRoutes } from './routes/flow.js';
import { stepRoutes } from './routes/steps.js';

export function flowsSurface(flows: FlowsService, settings: SettingsService, jobs: JobsService, users: FlowOwners): SurfaceDefinition {
  const ctx = flowsContext(flows, settings, jobs, users);
  return withResponses({ id: 'flows', routes: [...collectionRoutes(ctx), ...flowRoutes(ctx), ...stepRoutes(ctx)] }, flowsResponses);
}
