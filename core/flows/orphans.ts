/**
 * Orphan flows (issue 54): a flow whose enabled step names a handler or step type, or whose
 * schedule names an interval, that no loaded plugin provides (the plugin was removed or
 * left out of the build). Worked out from the registries as loaded now, never stored on
 * the flow, so restarting with the plugin back makes the flow whole with no manual step.
 * Which plugin provided a name is remembered per store (`contribution_owners`, written at
 * every boot), so the reason can say what to load again.
 */
import type { WorkflowParts } from './workflow-parts.js';
import { DuplicateKeyError, type BulkOp, type DocumentStore } from '../store/port.js';
import type { PipelineRecord } from '../pipelines/model.js';
import { flowStepId, stepKey, type FlowRecord } from './model.js';

/** The store's record of who provided each handler, step type and interval at the last boots. */
export const CONTRIBUTION_OWNERS = 'contribution_owners';

export type OrphanKind = 'handler' | 'step_type' | 'interval';

/** One name a flow uses that no loaded plugin provides. */
export interface MissingContribution {
  kind: OrphanKind;
  name: string;
  /** The step naming it; null for the schedule's interval. */
  flow_step_id: string | null;
  /** The plugin that provided it when it was last loaded on this store; null when never seen. */
  plugin: string | null;
  /** One sentence for people: what is missing, where, and what to load. */
  reason: string;
}

/** The flows domain's points, by the kind a flow names, and the field that names an item. */
const pointOf = { handler: 'handlers', step_type: 'stepTypes', interval: 'intervals' } as const;
const keyField = { handler: 'slug', step_type: 'type', interval: 'value' } as const;
const labelOf = { handler: 'handler', step_type: 'step type', interval: 'interval' } as const;

interface OwnerRecord extends Record<string, unknown> {
  key: string;
  plugin: string;
}

export class FlowOrphans {
  constructor(
    private readonly store: DocumentStore,
    private readonly parts: WorkflowParts,
  ) {}

  /** Each loaded item of a kind: its name and the plugin that added it. */
  private loaded(kind: OrphanKind): Array<{ name: string; plugin: string | undefined }> {
    return this.parts[pointOf[kind]].entries().map(({ item, owner }) => ({
      name: String((item as unknown as Record<string, unknown>)[keyField[kind]]),
      plugin: owner,
    }));
  }

  private has(kind: OrphanKind, name: string): boolean {
    return this.parts[pointOf[kind]].get(name) !== undefined;
  }

  private get owners() {
    return this.store.collection<OwnerRecord>(CONTRIBUTION_OWNERS);
  }

  /**
   * Remembers which plugin provides each handler, step type and interval loaded now. Only
   * what changed is written, in one bulk write (one transaction on the embedded store; a
   * fresh store's first start writes them all).
   */
  async recordOwners(): Promise<void> {
    await this.owners.createIndex({ fields: { key: 1 }, unique: true });
    const known = new Map((await this.owners.find({})).map((o) => [o.key, o.plugin]));
    const writes: BulkOp[] = [];
    for (const kind of ['handler', 'step_type', 'interval'] as OrphanKind[]) {
      for (const { name, plugin } of this.loaded(kind)) {
        const key = `${kind}:${name}`;
        if (plugin && known.get(key) !== plugin)
          writes.push({ collection: CONTRIBUTION_OWNERS, updateOne: { filter: { key }, update: { $set: { plugin } }, upsert: true } });
      }
    }
    if (writes.length === 0) return;
    await this.store.bulkWrite(writes).catch((error: unknown) => {
      // Another host of a MongoDB store starting at the same time wrote a key first: its
      // record is as good, and what this one did not write is written at its next start.
      if (!(error instanceof DuplicateKeyError)) throw error;
    });
  }

  /** Who provided what, as remembered (read once per scan or view). */
  async ownerLookup(): Promise<(kind: OrphanKind, name: string) => string | null> {
    const known = new Map((await this.owners.find({})).map((o) => [o.key, o.plugin]));
    return (kind, name) => known.get(`${kind}:${name}`) ?? null;
  }

  /**
   * What the flow names that no loaded plugin provides, in run order, the interval last.
   * Disabled steps are left out: a run skips them, as `missing_settings` does.
   */
  missing(
    flow: FlowRecord,
    pipeline: PipelineRecord | null,
    ownerOf: (kind: OrphanKind, name: string) => string | null = () => null,
  ): MissingContribution[] {
    const found: MissingContribution[] = [];
    const add = (kind: OrphanKind, name: string, stepId: string | null) => {
      if (this.has(kind, name)) return;
      const plugin = ownerOf(kind, name);
      const where = stepId ? `step ${stepId}` : 'the schedule';
      const load = plugin ? `; it came from plugin '${plugin}', load it again` : '';
      found.push({
        kind,
        name,
        flow_step_id: stepId,
        plugin,
        reason: `${where} names ${labelOf[kind]} '${name}', which no loaded plugin provides${load}`,
      });
    };
    const steps = [...(pipeline?.steps ?? [])].sort((a, b) => a.execution_order - b.execution_order);
    for (const step of steps) {
      const own = flow.steps?.[stepKey(step.pipeline_step_id)];
      if (own?.enabled === false) continue;
      const id = flowStepId(step.pipeline_step_id, flow.flow_id);
      add('step_type', step.step_type, id);
      if (own?.handler_slug) add('handler', own.handler_slug, id);
    }
    const interval = flow.scheduling_config?.interval;
    if (interval) add('interval', interval, null);
    return found;
  }
}

/** What stops a run at once: a missing handler or step type (a missing interval only stops the schedule). */
export function blocksRun(missing: readonly MissingContribution[]): MissingContribution[] {
  return missing.filter((m) => m.kind !== 'interval');
}

/** The short form for a flow's next run: what keeps it from being scheduled. */
export function notScheduledDisplay(missing: readonly MissingContribution[]): string {
  return `Not scheduled: ${missing.map((m) => `${labelOf[m.kind]} '${m.name}' missing`).join(', ')}`;
}
