/**
 * What a plugin may do with pipelines (the templates flows are instances of): read,
 * create, add and configure steps. Derived from chat's workflow tools. Hidden imports,
 * deletes and the raw collection are the core's own.
 */
import { createServiceRef } from '../kernel/service-ref.js';
import type { Principal } from '../kernel/principal.js';
import type { PipelineRecord, PipelineStep } from '../pipelines/model.js';

export type { PipelineRecord, PipelineStep } from '../pipelines/model.js';

export interface PipelinesApi {
  /** 404 `pipeline_not_found` when there is none. */
  get(pipelineId: number): Promise<PipelineRecord>;
  exists(pipelineId: number): Promise<boolean>;
  /** `search`: case-insensitive substring of the name. `flowCounts`: flows per listed pipeline. */
  list(options: {
    perPage: number;
    offset: number;
    search?: string;
  }): Promise<{ items: PipelineRecord[]; total: number; flowCounts: Map<number, number> }>;
  create(
    input: {
      pipeline_name: string;
      agent_id?: number | null;
      steps?: Array<{ step_type: string; label?: string; config?: Record<string, unknown> }>;
    },
    options?: Record<never, never>,
    by?: Principal | null,
  ): Promise<PipelineRecord>;
  addStep(
    pipelineId: number,
    input: { step_type: string; execution_order?: number; label?: string },
    by?: Principal | null,
  ): Promise<PipelineStep>;
  /** Step-type settings kept on the template (an ai step's provider, model, system prompt). */
  configureStep(pipelineStepId: string, config: Record<string, unknown>, by?: Principal | null): Promise<PipelineStep>;
}

/** `deps: { pipelines: services.pipelines }`: provided by the core domain plugin. */
export const pipelinesService = createServiceRef<PipelinesApi, 'root'>({ id: 'pipelines', scope: 'root' });
