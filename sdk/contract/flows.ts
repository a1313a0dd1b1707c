/**
 * What a plugin may do with flows: read them, create, rename, reschedule and copy them,
 * choose and configure a step's handler, and read or set handler defaults. Derived from
 * what the built-in plugins call (chat's workflow tools, discovery). Run marks, the raw
 * collection, the webhook trigger's records and legacy migration are the core's own.
 */
import { createServiceRef } from '../kernel/service-ref.js';
import type { Principal } from '../kernel/principal.js';
import type { FlowRecord, SchedulingConfig } from '../flows/model.js';

export type { FlowRecord, FlowStepSettings, SchedulingConfig } from '../flows/model.js';

/** `merge` lays the given keys over the stored ones (null removes a key); `replace` keeps only the given ones. */
export type HandlerDefaultsMode = 'merge' | 'replace';

/** A flow step's handler settings as given on create, keyed by pipeline step id (or full flow step id). */
export interface NewFlowStepConfig {
  handler_slug?: string;
  handler_config?: Record<string, unknown>;
  enabled?: boolean;
  user_message?: string;
}

export interface FlowsApi {
  /** 404 `flow_not_found` when there is none. */
  get(flowId: number): Promise<FlowRecord>;
  list(options: { pipelineId?: number; perPage: number; offset: number }): Promise<{ items: FlowRecord[]; total: number }>;
  /** `by`: who asked, for the change log. */
  create(
    input: {
      pipeline_id: number;
      flow_name?: string;
      flow_config?: Record<string, NewFlowStepConfig>;
      scheduling_config?: SchedulingConfig;
    },
    by?: Principal | null,
  ): Promise<FlowRecord>;
  update(flowId: number, patch: { flow_name?: string; scheduling_config?: SchedulingConfig }, by?: Principal | null): Promise<FlowRecord>;
  /** The flow's next scheduled run; null when its schedule runs it no more (manual, past, unknown interval). */
  nextRun(flowId: number): Promise<Date | null>;
  /** A copy without run history or webhook trigger, named "… (Copy)". */
  duplicate(flowId: number, by?: Principal | null): Promise<FlowRecord>;
  /**
   * Picks a flow step's handler; settings given are checked against the handler's schema
   * (400 naming the fields). Required ones may still be missing: the answered config's
   * `missing_settings` names them, and a run refuses the step until they are set.
   */
  setHandler(
    flowStepId: string,
    input: { handler_slug: string; settings?: Record<string, unknown>; step_type?: string; pipeline_id?: number },
    by?: Principal | null,
  ): Promise<{ flow: FlowRecord; config: Record<string, unknown> }>;
  /** Changes a flow step's handler settings, message or enabled flag; answers the step's configuration. */
  patchStepConfig(
    flowStepId: string,
    input: { handler_config?: Record<string, unknown>; user_message?: string; enabled?: boolean },
    by?: Principal | null,
  ): Promise<Record<string, unknown>>;
  /** Handler defaults as answered (secrets masked): one handler's (404 when unknown), or all that are set. */
  getHandlerDefaults(slug?: string): Promise<Record<string, Record<string, unknown>>>;
  setHandlerDefaults(
    slug: string,
    settings: Record<string, unknown>,
    mode?: HandlerDefaultsMode,
    by?: Principal | null,
  ): Promise<Record<string, unknown>>;
}

/** `deps: { flows: services.flows }`: provided by the core domain plugin. */
export const flowsService = createServiceRef<FlowsApi, 'root'>({ id: 'flows', scope: 'root' });
