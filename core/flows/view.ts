import type { PipelineRecord } from '../pipelines/model.js';
import { flowStepId, publicScheduling, stepKey, type FlowRecord } from './model.js';
import { HandlerSecrets } from './handler-secrets.js';
import { notScheduledDisplay, type MissingContribution } from './orphans.js';

/** The required settings a handler's stored settings lack (FlowsService.missingSettings). */
export type MissingSettings = (slug: string | null, settings: Record<string, unknown>) => string[];

/**
 * The spec's "Flow step configuration" for every step of the flow's pipeline, keyed by
 * flow step id. Secret settings are masked; the engine asks for them `stored` (sealed)
 * and opens them itself. With `missing`, each step also says which required settings of
 * its handler it still lacks (`missing_settings`, [] when none or no handler is picked).
 */
export function flowConfig(
  flow: FlowRecord,
  pipeline: PipelineRecord | null,
  secrets: 'masked' | 'stored' = 'masked',
  missing?: MissingSettings,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const steps = [...(pipeline?.steps ?? [])].sort((a, b) => a.execution_order - b.execution_order);
  for (const step of steps) {
    const id = flowStepId(step.pipeline_step_id, flow.flow_id);
    const own = flow.steps[stepKey(step.pipeline_step_id)];
    const entry: Record<string, unknown> = {
      flow_step_id: id,
      pipeline_step_id: step.pipeline_step_id,
      step_type: step.step_type,
      execution_order: step.execution_order,
      handler_slug: own?.handler_slug ?? null,
      handler_config: secrets === 'masked' ? HandlerSecrets.mask(own?.handler_config ?? {}) : (own?.handler_config ?? {}),
      enabled: own?.enabled ?? true,
    };
    if (step.step_type === 'ai') entry.user_message = own?.user_message ?? '';
    if (missing) entry.missing_settings = missing(own?.handler_slug ?? null, own?.handler_config ?? {});
    out[id] = entry;
  }
  return out;
}

const display = (date: Date | null) => (date ? date.toISOString().replace('T', ' ').slice(0, 19) : null);

/**
 * The whole flow as GET /flows/{id} and PATCH answer it. A flow naming what no loaded
 * plugin provides (`orphaned`) shows no next run: its schedule is skipped when it fires.
 */
export function flowView(
  flow: FlowRecord,
  pipeline: PipelineRecord | null,
  extra: { nextRun: Date | null; isRunning: boolean; recentJobs: unknown[]; missing: MissingSettings; orphaned?: MissingContribution[] },
): Record<string, unknown> {
  const orphaned = extra.orphaned?.length ? extra.orphaned : null;
  const nextRun = orphaned ? null : extra.nextRun;
  return {
    flow_id: flow.flow_id,
    pipeline_id: flow.pipeline_id,
    flow_name: flow.flow_name,
    flow_config: flowConfig(flow, pipeline, 'masked', extra.missing),
    scheduling_config: publicScheduling(flow.scheduling_config),
    last_run: flow.last_run ? flow.last_run.toISOString() : null,
    last_run_status: flow.last_run_status,
    last_run_display: display(flow.last_run) ?? 'Never',
    next_run: nextRun ? nextRun.toISOString() : null,
    next_run_display: orphaned
      ? notScheduledDisplay(orphaned)
      : (display(nextRun) ?? (flow.scheduling_config.interval === 'manual' ? 'Manual' : 'Not scheduled')),
    is_running: extra.isRunning,
    consecutive_failures: flow.consecutive_failures,
    consecutive_no_items: flow.consecutive_no_items,
    recent_jobs: extra.recentJobs,
    created_at: flow.created_at.toISOString(),
    updated_at: flow.updated_at.toISOString(),
    owner_id: flow.owner_id ?? null,
    revision: typeof flow.revision === 'number' ? flow.revision : null,
  };
}

/** The spec's POST /flows answer. */
export function createdFlowView(flow: FlowRecord, pipeline: PipelineRecord, missing: MissingSettings): Record<string, unknown> {
  return {
    flow_id: flow.flow_id,
    pipeline_id: flow.pipeline_id,
    flow_name: flow.flow_name,
    flow_config: flowConfig(flow, pipeline, 'masked', missing),
    scheduling_config: publicScheduling(flow.scheduling_config),
  };
}
