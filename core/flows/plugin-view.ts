/**
 * Flows as a plugin sees them (`services.flows`): the record's own fields with handler
 * secrets masked as the REST API masks them, the schedule without legacy webhook settings,
 * and no webhook trigger at all. Sealed values never leave the core, so a plugin's vault
 * (which cannot open them anyway) is never even handed one. The core keeps FlowsService.
 */
import type { FlowsApi } from '../../sdk/contract/flows.js';
import { withoutSealed } from '../security/sealed-mask.js';
import { HandlerSecrets } from './handler-secrets.js';
import { publicScheduling, type FlowRecord, type FlowStepSettings } from './model.js';
import type { FlowsService } from './service.js';

/** The fields a plugin sees; anything else on the record (the webhook trigger) stays in. */
export function flowForPlugins(flow: FlowRecord): FlowRecord {
  const steps: Record<string, FlowStepSettings> = {};
  for (const [key, step] of Object.entries(flow.steps ?? {})) {
    steps[key] = { ...step, handler_config: HandlerSecrets.mask(step.handler_config ?? {}) };
  }
  return withoutSealed({
    _id: flow._id,
    flow_id: flow.flow_id,
    pipeline_id: flow.pipeline_id,
    flow_name: flow.flow_name,
    owner_id: flow.owner_id,
    steps,
    scheduling_config: publicScheduling(flow.scheduling_config),
    last_run: flow.last_run,
    last_run_status: flow.last_run_status,
    consecutive_failures: flow.consecutive_failures,
    consecutive_no_items: flow.consecutive_no_items,
    created_at: flow.created_at,
    updated_at: flow.updated_at,
  });
}

export class PluginFlowsView implements FlowsApi {
  constructor(private readonly flows: FlowsService) {}

  async get(flowId: number): Promise<FlowRecord> {
    return flowForPlugins(await this.flows.get(flowId));
  }

  async list(options: Parameters<FlowsApi['list']>[0]): ReturnType<FlowsApi['list']> {
    const { items, total } = await this.flows.list(options);
    return { items: items.map(flowForPlugins), total };
  }

  async create(...args: Parameters<FlowsApi['create']>): Promise<FlowRecord> {
    return flowForPlugins(await this.flows.create(...args));
  }

  async update(...args: Parameters<FlowsApi['update']>): Promise<FlowRecord> {
    return flowForPlugins(await this.flows.update(...args));
  }

  nextRun(flowId: number): Promise<Date | null> {
    return this.flows.nextRun(flowId);
  }

  async duplicate(...args: Parameters<FlowsApi['duplicate']>): Promise<FlowRecord> {
    return flowForPlugins(await this.flows.duplicate(...args));
  }

  async setHandler(...args: Parameters<FlowsApi['setHandler']>): ReturnType<FlowsApi['setHandler']> {
    const { flow, config } = await this.flows.setHandler(...args);
    return { flow: flowForPlugins(flow), config: withoutSealed(config) };
  }

  async patchStepConfig(...args: Parameters<FlowsApi['patchStepConfig']>): ReturnType<FlowsApi['patchStepConfig']> {
    return withoutSealed(await this.flows.patchStepConfig(...args));
  }

  async getHandlerDefaults(slug?: string): ReturnType<FlowsApi['getHandlerDefaults']> {
    return withoutSealed(await this.flows.getHandlerDefaults(slug));
  }

  async setHandlerDefaults(...args: Parameters<FlowsApi['setHandlerDefaults']>): ReturnType<FlowsApi['setHandlerDefaults']> {
    return withoutSealed(await this.flows.setHandlerDefaults(...args));
  }
}
