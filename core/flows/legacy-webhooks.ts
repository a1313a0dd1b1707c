import type { Collection } from '../store/port.js';
import type { FlowRecord } from './model.js';

/**
 * The webhook settings the original plugin kept under a flow's `scheduling_config`, as
 * the webhooks domain migrates them to `webhook` (once per flow, at first read or at boot).
 * Apart from FlowsService: only the migration needs it, and it will go with the legacy form.
 */
export class LegacyFlowWebhooks {
  constructor(private readonly flows: { readonly collection: Collection<FlowRecord>; forgetTrigger(flowId: number): void }) {}

  private get collection(): Collection<FlowRecord> {
    return this.flows.collection;
  }

  /** Flows whose scheduling_config still holds one of these legacy webhook keys. */
  async withLegacyWebhookKeys(keys: readonly string[]): Promise<FlowRecord[]> {
    return this.collection.find({
      $or: keys.map((key) => ({ [`scheduling_config.${key}`]: { $exists: true } })),
      webhook: { $exists: false },
    });
  }

  /**
   * Writes a migrated webhook configuration and removes the legacy keys, in one update
   * that only applies while the flow has none: concurrent first reads migrate it once.
   */
  async migrateWebhook(flowId: number, config: Record<string, unknown>, legacyKeys: readonly string[]): Promise<boolean> {
    const $unset = Object.fromEntries(legacyKeys.map((key) => [`scheduling_config.${key}`, '']));
    const result = await this.collection.updateOne({ flow_id: flowId, webhook: { $exists: false } }, { $set: { webhook: config }, $unset });
    this.flows.forgetTrigger(flowId);
    return result.matchedCount === 1;
  }
}
