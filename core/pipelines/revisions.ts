/**
 * A pipeline's revisions (issue 55): its name, agent and steps, keyed by step id (so a
 * diff names the step, and a reorder reads as changed positions), every secret-named step
 * setting masked. A restore keeps the current value of a setting the revision shows masked.
 */
import { isSecretKey } from '../security/mask.js';
import { HandlerSecrets } from '../flows/handler-secrets.js';
import type { PipelineRecord, PipelineStep } from './model.js';

export const PIPELINE_REVISIONS = 'pipeline_revisions';

const MASK = '••••••••';

export interface PipelineSnapshot extends Record<string, unknown> {
  pipeline_name: string;
  agent_id: number | null;
  steps: Record<string, Omit<PipelineStep, 'pipeline_step_id'>>;
}

export function pipelineSnapshot(pipeline: Pick<PipelineRecord, 'pipeline_name' | 'agent_id' | 'steps'>): PipelineSnapshot {
  const steps: PipelineSnapshot['steps'] = {};
  for (const step of [...(pipeline.steps ?? [])].sort((a, b) => a.execution_order - b.execution_order)) {
    const { pipeline_step_id, ...rest } = step;
    steps[pipeline_step_id] = { ...rest, config: HandlerSecrets.mask(step.config ?? {}) };
  }
  return { pipeline_name: pipeline.pipeline_name, agent_id: pipeline.agent_id ?? null, steps };
}

/** A step's settings with each masked secret back to its current value (dropped when there is none). */
function keptConfig(config: Record<string, unknown>, current: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (isSecretKey(key) && typeof value === 'string' && value.startsWith(MASK)) {
      if (key in current) out[key] = current[key];
    } else out[key] = value;
  }
  return out;
}

/** The steps a restore writes, in the revision's order. */
export function restoredPipelineSteps(snapshot: PipelineSnapshot, current: PipelineStep[]): PipelineStep[] {
  const now = new Map(current.map((s) => [s.pipeline_step_id, s]));
  return Object.entries(snapshot.steps)
    .sort(([, a], [, b]) => a.execution_order - b.execution_order)
    .map(([id, step], index) => ({
      ...step,
      pipeline_step_id: id,
      execution_order: index,
      config: keptConfig(step.config ?? {}, now.get(id)?.config ?? {}),
    }));
}
