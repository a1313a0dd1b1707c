/** What the /pipelines routes share: the services, and one pipeline with its flows. */
import type { FlowsService } from '../../flows/service.js';
import { flowView } from '../../flows/view.js';
import type { PipelinesService } from '../service.js';
import { pipelineView } from '../view.js';

/** Every /pipelines route is for administrators. */
export const admin = { capability: 'manage_options' } as const;

export interface PipelinesContext {
  pipelines: PipelinesService;
  flows: FlowsService;
  /** One pipeline with its steps and (up to 500 of) its flows, as the admin client reads it. */
  single(pipelineId: number): Promise<{ pipeline: ReturnType<typeof pipelineView>; flows: ReturnType<typeof flowView>[] }>;
}

export function pipelinesContext(pipelines: PipelinesService, flows: FlowsService): PipelinesContext {
  const single = async (pipelineId: number) => {
    const pipeline = await pipelines.get(pipelineId);
    const { items } = await flows.list({ pipelineId, perPage: 500, offset: 0 });
    const flowViews = await Promise.all(
      items.map(async (f) =>
        flowView(f, pipeline, {
          nextRun: await flows.schedule.nextRun(f.flow_id),
          orphaned: flows.orphans.missing(f, pipeline),
          isRunning: false,
          recentJobs: [],
          missing: flows.missing,
        }),
      ),
    );
    return { pipeline: pipelineView(pipeline, items.length), flows: flowViews };
  };
  return { pipelines, flows, single };
}
