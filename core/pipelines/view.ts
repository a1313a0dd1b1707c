import type { PipelineRecord, PipelineStep } from './model.js';

const iso = (d: Date) => d.toISOString();

export function stepView(step: PipelineStep): Record<string, unknown> {
  return {
    ...step.config,
    pipeline_step_id: step.pipeline_step_id,
    step_type: step.step_type,
    execution_order: step.execution_order,
    label: step.label,
  };
}

/** What the admin client reads: pipeline_config keyed by step id, and pipeline_steps in order. */
export function pipelineView(pipeline: PipelineRecord, flowCount?: number): Record<string, unknown> {
  const steps = [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);
  const pipeline_config: Record<string, unknown> = {};
  for (const step of steps) pipeline_config[step.pipeline_step_id] = stepView(step);
  return {
    pipeline_id: pipeline.pipeline_id,
    pipeline_name: pipeline.pipeline_name,
    agent_id: pipeline.agent_id,
    pipeline_config,
    pipeline_steps: steps.map(stepView),
    step_count: steps.length,
    ...(flowCount === undefined ? {} : { flow_count: flowCount }),
    created_at: iso(pipeline.created_at),
    updated_at: iso(pipeline.updated_at),
  };
}

export function pipelineListItem(pipeline: PipelineRecord, flowCount: number): Record<string, unknown> {
  return {
    pipeline_id: pipeline.pipeline_id,
    pipeline_name: pipeline.pipeline_name,
    flow_count: flowCount,
    step_count: pipeline.steps.length,
    created_at: iso(pipeline.created_at),
    updated_at: iso(pipeline.updated_at),
  };
}
