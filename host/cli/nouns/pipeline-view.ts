import { CliError } from '../admin-client.js';
import type { ApiSession } from '../api-session.js';
import { printJson, printRows } from '../output.js';
import { orderedSteps, type ResolvedStep, type StepInfo } from '../step-refs.js';

/** A pipeline as the API answers it, and how the `pipelines` verbs print it. */
export type PipelineView = {
  pipeline_id: number;
  pipeline_name: string;
  pipeline_steps: StepInfo[];
  flow_count?: number;
  step_count?: number;
};

export const stepRows = (steps: StepInfo[]) =>
  orderedSteps(steps).map((s) => ({ position: s.position, type: s.step_type, label: s.label ?? '', id: s.pipeline_step_id }));

/** One step as `--json` names it: the same fields as a row of `steps`. */
export const stepRow = (step: ResolvedStep) => ({
  position: step.position,
  type: step.step_type,
  label: step.label ?? '',
  id: step.pipeline_step_id,
});

export const pipelineIdOf = (value: unknown): number => {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`'${String(value)}' is not a pipeline id`);
  return id;
};

export async function readPipeline(
  api: ApiSession,
  id: number,
): Promise<{ pipeline: PipelineView; flows: Array<Record<string, unknown>> }> {
  return (await api.call<{ data: { pipeline: PipelineView; flows: Array<Record<string, unknown>> } }>('GET', `/pipelines/${id}`)).data;
}

/** `--json`: the pipeline with its steps in order (what `pipelines create` prints), plus `extra`. */
export function printPipeline(
  pipeline: PipelineView,
  json: boolean | undefined,
  headline: string,
  extra: Record<string, unknown> = {},
): void {
  if (json) {
    printJson({
      pipeline_id: pipeline.pipeline_id,
      pipeline_name: pipeline.pipeline_name,
      ...extra,
      steps: stepRows(pipeline.pipeline_steps),
    });
    return;
  }
  console.log(headline);
  printRows(stepRows(pipeline.pipeline_steps));
}
