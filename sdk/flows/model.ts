/** A flow's own settings for one pipeline step (keyed by flow step id on the flow). */
export interface FlowStepSettings {
  handler_slug: string | null;
  handler_config: Record<string, unknown>;
  enabled: boolean;
  /** ai steps: the flow's message to the model. */
  user_message?: string;
}

export interface SchedulingConfig {
  interval: string;
  /** Unix seconds; required for one_time. */
  timestamp?: number;
}

export interface FlowRecord extends Record<string, unknown> {
  _id: string;
  flow_id: number;
  pipeline_id: number;
  flow_name: string;
  steps: Record<string, FlowStepSettings>;
  scheduling_config: SchedulingConfig;
  /**
   * The user whose capabilities the flow's runs write content with (kses unless they have
   * unfiltered_html): whoever created it, or whom an administrator made its owner. Null or
   * absent (flows from before owners were kept, a deleted owner): nobody's, so filtered.
   */
  owner_id?: number | null;
  last_run: Date | null;
  last_run_status: string | null;
  consecutive_failures: number;
  consecutive_no_items: number;
  created_at: Date;
  updated_at: Date;
  /** The number of the flow's latest revision (absent on flows not changed since revisions were kept). */
  revision?: number;
}

export const FLOWS = 'flows';

/**
 * The schedule as answered and copied: interval and timestamp only. Records written by the
 * original plugin may still carry its webhook settings (tokens, secrets) under
 * `scheduling_config` until the webhooks domain migrates them; those never leave the store.
 */
export function publicScheduling(config: SchedulingConfig): SchedulingConfig {
  return config.timestamp === undefined ? { interval: config.interval } : { interval: config.interval, timestamp: config.timestamp };
}

/** `{pipeline_step_id}_{flow_id}` where pipeline_step_id is `{pipeline_id}_{uuid}`. */
export function flowStepId(pipelineStepId: string, flowId: number): string {
  return `${pipelineStepId}_${flowId}`;
}

export function parseFlowStepId(id: string): { pipelineStepId: string; pipelineId: number; flowId: number } | null {
  const match = /^((\d+)_[0-9a-f-]{36})_(\d+)$/.exec(id);
  return match ? { pipelineStepId: match[1]!, pipelineId: Number(match[2]), flowId: Number(match[3]) } : null;
}

/** Key of a step in FlowRecord.steps: store field paths allow letters, digits and '_' only. */
export function stepKey(pipelineStepId: string): string {
  return pipelineStepId.replace(/-/g, '_');
}
