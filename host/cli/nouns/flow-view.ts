import { maskDeep } from '../../../core/security/mask.js';
import { CliError } from '../admin-client.js';
import { printJson, printRows } from '../output.js';
import { orderedSteps, type ResolvedStep, type StepInfo } from '../step-refs.js';

/** A flow as the API answers it, and how `flows show`, `create`, `config` and `duplicate` print it. */
export type FlowStep = {
  flow_step_id: string;
  pipeline_step_id: string;
  step_type: string;
  execution_order: number;
  handler_slug: string | null;
  handler_config: Record<string, unknown>;
  enabled: boolean;
  user_message?: string;
  /** Required handler settings still unset: a run refuses the step until they are. */
  missing_settings?: string[];
};
export type FlowView = Record<string, unknown> & {
  flow_id: number;
  flow_name: string;
  pipeline_id: number;
  flow_config: Record<string, FlowStep>;
  scheduling_config: { interval: string; timestamp?: number };
};

export function flowSteps(flow: FlowView): Array<ResolvedStep & FlowStep> {
  const byPipelineStep = new Map(Object.values(flow.flow_config).map((s) => [s.pipeline_step_id, s]));
  return orderedSteps(Object.values(flow.flow_config) as StepInfo[]).map((s) => ({ ...byPipelineStep.get(s.pipeline_step_id)!, ...s }));
}

export function printFlow(flow: FlowView, json: boolean | undefined): void {
  const steps = flowSteps(flow).map((s) => ({
    position: s.position,
    type: s.step_type,
    handler: s.handler_slug,
    config: maskDeep(s.handler_config ?? {}),
    ...(s.step_type === 'ai' ? { user_message: s.user_message ?? '' } : {}),
    enabled: s.enabled,
    missing_settings: s.missing_settings ?? [],
    flow_step_id: s.flow_step_id,
  }));
  const view = {
    flow_id: flow.flow_id,
    flow_name: flow.flow_name,
    pipeline_id: flow.pipeline_id,
    scheduling_config: flow.scheduling_config,
    last_run: flow.last_run ?? null,
    last_run_status: flow.last_run_status ?? null,
    next_run: flow.next_run ?? null,
    steps,
  };
  if (json) {
    printJson(view);
    return;
  }
  const schedule =
    flow.scheduling_config.interval +
    (flow.scheduling_config.timestamp ? ` at ${new Date(flow.scheduling_config.timestamp * 1000).toISOString()}` : '');
  console.log(`Flow ${flow.flow_id} "${flow.flow_name}" (pipeline ${flow.pipeline_id})`);
  console.log(`Schedule: ${schedule}; next run: ${String(flow.next_run_display ?? '-')}`);
  console.log(`Last run: ${String(flow.last_run_display ?? 'Never')}${flow.last_run_status ? ` (${String(flow.last_run_status)})` : ''}`);
  printRows(
    steps.map((s) => ({
      position: s.position,
      type: s.type,
      handler: s.handler ?? '-',
      config: JSON.stringify(s.config),
      enabled: s.enabled ? 'yes' : 'no',
      needs: s.missing_settings.length ? s.missing_settings.join(', ') : '-',
      ...(s.type === 'ai' ? { message: s.user_message } : {}),
    })),
  );
}

export const flowIdOf = (value: unknown): number => {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`'${String(value)}' is not an id`);
  return id;
};
