/** /flows/{flow_id}/revisions: a flow's history, diffs and restore (core/revisions/routes.ts). */
import type { SurfaceDefinition } from '../kernel/routes.js';
import { revisionRoutes } from '../revisions/routes.js';
import { flowView } from './responses.js';
import type { FlowsContext } from './routes/context.js';

export function flowRevisionsSurface(ctx: FlowsContext): SurfaceDefinition {
  const { flows } = ctx;
  return {
    id: 'flows-revisions',
    routes: revisionRoutes({
      kind: 'flow',
      base: '/flows/{flow_id}',
      param: 'flow_id',
      log: flows.revisions,
      notFound: 'flow_not_found',
      view: flowView,
      exists: async (id) => (await flows.record(id)) !== null,
      async restore(id, revision, by) {
        const flow = await flows.restore(id, revision, by);
        return { revision: flow.revision as number, view: await ctx.whole(flow) };
      },
    }),
  };
}
