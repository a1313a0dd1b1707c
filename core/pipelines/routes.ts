/**
 * The /pipelines surface: pipelines and their steps, each group in its own file under
 * routes/ over a shared PipelinesContext; the answers' schemas are in responses.ts.
 */
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { FlowsService } from '../flows/service.js';
import type { PipelinesService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { pipelinesResponses } from './responses.js';
import { pipelinesContext } from './routes/context.js';
import { pipelineRoutes } from './routes/pipelines.js';
import { stepRoutes } from './routes/steps.js';

/** Pipelines: the shapes the original admin client sends and reads (compat document). */
export function pipelinesSurface(pipelines: PipelinesService, flows: FlowsService): SurfaceDefinition {
  const ctx = pipelinesContext(pipelines, flows);
  return withResponses({ id: 'pipelines', routes: [...pipelineRoutes(ctx), ...stepRoutes(ctx)] }, pipelinesResponses);
}
