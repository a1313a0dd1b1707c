/** A step of a pipeline (the template); flows configure each step's handler. */
export interface PipelineStep {
  /** `{pipeline_id}_{uuid}`: the pipeline is readable from the id. */
  pipeline_step_id: string;
  step_type: string;
  /** Zero-based, contiguous. */
  execution_order: number;
  label: string;
  /** Step-type settings kept on the template, e.g. an ai step's provider, model, system_prompt. */
  config: Record<string, unknown>;
}

export interface PipelineRecord extends Record<string, unknown> {
  _id: string;
  pipeline_id: number;
  pipeline_name: string;
  steps: PipelineStep[];
  agent_id: number | null;
  created_at: Date;
  updated_at: Date;
  /** Set while a delete is in progress; such pipelines are hidden and finished at boot. */
  deleting?: boolean;
  /** The number of the pipeline's latest revision (absent on pipelines not changed since revisions were kept). */
  revision?: number;
}

export const PIPELINES = 'pipelines';

export function pipelineIdOfStep(pipelineStepId: string): number | null {
  const match = /^(\d+)_[0-9a-f-]{36}$/.exec(pipelineStepId);
  return match ? Number(match[1]) : null;
}
