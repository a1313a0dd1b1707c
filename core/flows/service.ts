import type { ValidateFunction } from 'ajv';
import { INPUT_LIMITS } from '../kernel/input-limits.js';
import type { Clock } from '../kernel/clock.js';
import { handlerCatalogue, type WorkflowParts } from './workflow-parts.js';
import type { Principal } from '../kernel/principal.js';
import { noChangeLog, type ChangeLog } from '../logs/change-log.js';
import { compileShared, createAjv, describeErrors, type ValidationIssue } from '../kernel/validator.js';
import type { Collection, DocumentStore, Filter } from '../store/port.js';
import type { PipelineRecord } from '../pipelines/model.js';
import type { PipelineFlows } from '../pipelines/service.js';
import type { PipelineRecords } from '../pipelines/records.js';
import {
  FLOWS,
  publicScheduling,
  parseFlowStepId,
  stepKey,
  type FlowRecord,
  type FlowStepSettings,
  type SchedulingConfig,
} from './model.js';
import { flowConfig, type MissingSettings } from './view.js';
import { refuseUrlCredentials, type HandlerSecrets } from './handler-secrets.js';
import { HandlerDefaults, type HandlerDefaultsMode } from './handler-defaults.js';
import { FlowTriggerCache } from './trigger-cache.js';
import { sealStoredUrlCredentials } from './url-credentials-migration.js';
import { FlowOrphans, type MissingContribution } from './orphans.js';
import type { FlowsApi } from '../../sdk/contract/flows.js';
import { apiError } from '../errors/catalogue.js';
import { RevisionLog } from '../revisions/revision-log.js';
import { pendingRevision, type RevisionAction } from '../revisions/model.js';
import { FLOW_REVISIONS, flowSecretFingerprints, flowSnapshot, restoredSteps, type FlowSnapshot } from './revisions.js';

/** A flow step whose handler lacks required settings (GET /flows/problems). */
export interface UnconfiguredStep {
  flow_step_id: string;
  handler_slug: string;
  missing_settings: string[];
}

/** Scheduling seen from flows; the Agenda-backed scheduler implements it. */
export interface FlowSchedule {
  /** (Re)schedules the flow by its config; returns the next run, or null when none. */
  schedule(flowId: number, config: SchedulingConfig): Promise<Date | null>;
  unschedule(flowId: number): Promise<void>;
  nextRun(flowId: number): Promise<Date | null>;
}

/** Until a scheduler is attached, schedules are stored but nothing runs them. */
export const noSchedule: FlowSchedule = {
  schedule: async () => null,
  unschedule: async () => undefined,
  nextRun: async () => null,
};

/** A flow with no runs yet: new flows and copies start here. */
function freshRunState(now: Date) {
  return { last_run: null, last_run_status: null, consecutive_failures: 0, consecutive_no_items: 0, created_at: now, updated_at: now };
}

export class FlowsService implements FlowsApi, PipelineFlows {
  private readonly ajv = createAjv();
  private readonly validators = new WeakMap<object, ValidateFunction>();
  /** missingSettings as a function, for the views (flowConfig). */
  readonly missing: MissingSettings = (slug, settings) => this.missingSettings(slug, settings);
  /** The handler defaults new flow steps start from (see handler-defaults.ts). */
  readonly defaults: HandlerDefaults;
  /** What the webhook trigger reads per request (see trigger-cache.ts); every write below that changes a flow's name, pipeline, schedule or webhook settings forgets it. */
  private readonly triggerCache: FlowTriggerCache;
  /** What flows name that no loaded plugin provides (see orphans.ts). */
  readonly orphans: FlowOrphans;
  /** Every change's revision (see revisions.ts and core/revisions/revision-log.ts). */
  readonly revisions: RevisionLog;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    /** The flows domain's own handlers, step types and intervals (its extension points), read at call time. */
    private readonly parts: WorkflowParts,
    /** The pipelines flows are instances of (read only: pipelines depend on flows, not back). */
    private readonly pipelines: PipelineRecords,
    /** Seals secret-named handler settings at rest (see handler-secrets.ts). */
    readonly secrets: HandlerSecrets,
    /** Where flow schedules go (Agenda in a host); `noSchedule` stores them and runs nothing. */
    private readonly scheduler: FlowSchedule = noSchedule,
    /** Where configuration changes are logged with the acting user. */
    private readonly changed: ChangeLog = noChangeLog,
  ) {
    this.defaults = new HandlerDefaults(store, handlerCatalogue(parts), secrets, clock);
    this.triggerCache = new FlowTriggerCache(() => this.collection, store.singleWriter === true);
    this.orphans = new FlowOrphans(store, parts);
    this.revisions = new RevisionLog(
      store,
      FLOW_REVISIONS,
      () => this.collection as unknown as Collection<Record<string, unknown>>,
      'flow_id',
    );
  }

  /**
   * What a write that changes a flow adds to its update: the next revision number and the
   * mark naming who changes it, in the same atomic write (see core/revisions/model.ts).
   */
  private revise(action: RevisionAction, change: string, by: Principal | null | undefined, restoredFrom?: number) {
    return {
      $inc: { revision: 1 },
      revision_pending: pendingRevision(action, change, by, this.clock.now(), restoredFrom),
    };
  }

  /** The flow's secrets' fingerprints for its revision (a secret that cannot be opened has none). */
  private fingerprints(flow: FlowRecord): Record<string, string> {
    try {
      return flowSecretFingerprints(flow, this.secrets);
    } catch {
      // Sealed under another key (a restored backup): the change is still recorded, without them.
      return {};
    }
  }

  /** Writes the revision a changed flow's mark announces, and clears the mark. */
  private async revised(flow: FlowRecord): Promise<FlowRecord> {
    const pending = flow.revision_pending as Parameters<RevisionLog['write']>[2];
    await this.revisions.write(flow.flow_id, flow.revision as number, pending, flowSnapshot(flow), true, this.fingerprints(flow));
    const { revision_pending: _mark, ...rest } = flow;
    return rest as FlowRecord;
  }

  /** Records the flow's last configuration as a `delete` revision, before the flow goes. */
  private async revisedDelete(flow: FlowRecord, by: Principal | null | undefined): Promise<void> {
    const pending = pendingRevision('delete', 'flow.delete', by, this.clock.now());
    await this.revisions.write(flow.flow_id, RevisionLog.next(flow), pending, flowSnapshot(flow), false, this.fingerprints(flow));
  }

  /** Handler defaults as answered (secrets masked): one handler's (404 when unknown), or all that are set. */
  async getHandlerDefaults(slug?: string): Promise<Record<string, Record<string, unknown>>> {
    return this.defaults.view(slug);
  }

  /**
   * Sets a handler's defaults: `merge` lays the given keys over the stored ones (null
   * removes a key), `replace` keeps only the given ones. Answers them masked.
   */
  async setHandlerDefaults(
    slug: string,
    settings: Record<string, unknown>,
    mode: HandlerDefaultsMode = 'merge',
    by?: Principal | null,
  ): Promise<Record<string, unknown>> {
    const saved = await this.defaults.set(slug, settings, mode);
    await this.changed(
      by,
      `Handler defaults of ${slug} ${mode === 'replace' ? 'replaced' : 'updated'} (${saved.fields.join(', ') || 'none'})`,
      { change: 'handler.defaults', handler: slug, mode, fields: saved.fields },
    );
    return saved.settings;
  }

  get collection(): Collection<FlowRecord> {
    return this.store.collection<FlowRecord>(FLOWS);
  }

  // The webhook trigger's configuration lives on the flow record (so views and copies can
  // leave it out); the webhooks domain reads and writes it only through these.

  /** Names of these flows, for views of other domains (jobs). */
  async namesOf(flowIds: readonly number[]): Promise<Map<number, string>> {
    if (flowIds.length === 0) return new Map();
    const found = await this.collection.find({ flow_id: { $in: [...flowIds] } }, { projection: { flow_id: 1, flow_name: 1 } });
    return new Map(found.map((f) => [f.flow_id, f.flow_name]));
  }

  /** The flow record as stored, webhook configuration included; null when there is none. */
  async record(flowId: number): Promise<FlowRecord | null> {
    return this.collection.findOne({ flow_id: flowId });
  }

  /**
   * The flow as the webhook trigger reads it, from memory where that is exact (see
   * trigger-cache.ts): name, pipeline, schedule and webhook settings are current; the
   * run-state fields may be stale. Shared between requests: never change it.
   */
  async triggerRecord(flowId: number): Promise<FlowRecord | null> {
    return this.triggerCache.get(flowId);
  }

  /** Forgets what the webhook trigger cached of the flow (null: of every flow), after a write elsewhere (legacy migration). */
  forgetTrigger(flowId: number | null): void {
    this.triggerCache.forget(flowId);
  }

  /** Sets (or with null, removes) the flow's webhook configuration. */
  async saveWebhook(flowId: number, config: Record<string, unknown> | null): Promise<void> {
    await this.collection.updateOne({ flow_id: flowId }, config ? { $set: { webhook: config } } : { $unset: { webhook: '' } });
    this.triggerCache.forget(flowId);
  }

  get schedule(): FlowSchedule {
    return this.scheduler;
  }

  async nextRun(flowId: number): Promise<Date | null> {
    return this.scheduler.nextRun(flowId);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ fields: { flow_id: 1 }, unique: true });
    await this.collection.createIndex({ fields: { pipeline_id: 1, flow_id: 1 } });
    await sealStoredUrlCredentials(this.collection, this.secrets);
    await this.revisions.init();
    // A change whose revision a crash kept from being written gets it now.
    await this.revisions.repair(
      (record) => flowSnapshot(record as FlowRecord),
      (record) => this.fingerprints(record as FlowRecord),
    );
  }

  async get(flowId: number): Promise<FlowRecord> {
    const flow = await this.collection.findOne({ flow_id: flowId });
    if (!flow) throw apiError('flow_not_found', { message: `Flow ${flowId} not found` });
    return flow;
  }

  async pipelineOf(flow: FlowRecord): Promise<PipelineRecord | null> {
    return this.pipelines.find(flow.pipeline_id);
  }

  /** A pipeline as stored (one being deleted included); null when there is none. */
  async pipeline(pipelineId: number): Promise<PipelineRecord | null> {
    return this.pipelines.find(pipelineId);
  }

  /** The agent a pipeline belongs to (its runs' log entries carry it); null when none or gone. */
  async agentOf(pipelineId: number | null): Promise<number | null> {
    return this.pipelines.agentOf(pipelineId);
  }

  async list(options: { pipelineId?: number; perPage: number; offset: number }): Promise<{ items: FlowRecord[]; total: number }> {
    const filter: Filter = options.pipelineId ? { pipeline_id: options.pipelineId } : {};
    const [items, total] = await Promise.all([
      this.collection.find(filter, { sort: { flow_id: 1 }, skip: options.offset, limit: options.perPage }),
      this.collection.count(filter),
    ]);
    return { items, total };
  }

  async create(
    input: {
      pipeline_id: number;
      flow_name?: string;
      flow_config?: Record<
        string,
        { handler_slug?: string; handler_config?: Record<string, unknown>; enabled?: boolean; user_message?: string }
      >;
      scheduling_config?: SchedulingConfig;
    },
    by?: Principal | null,
  ): Promise<FlowRecord> {
    const pipeline = await this.pipelines.get(input.pipeline_id);
    const scheduling = this.checkScheduling(input.scheduling_config ?? { interval: 'manual' });
    // A flow step for every pipeline step; given configs are accepted keyed by pipeline
    // step id (what a client knows before the flow exists) or by the full flow step id.
    // Everything is checked before the flow id is taken: a refused request spends none.
    const steps: Record<string, FlowStepSettings> = {};
    const namedFlowIds = new Map<string, number>();
    for (const step of pipeline.steps) steps[stepKey(step.pipeline_step_id)] = { handler_slug: null, handler_config: {}, enabled: true };
    for (const [key, given] of Object.entries(input.flow_config ?? {})) {
      const psid = pipeline.steps.find(
        (s) =>
          s.pipeline_step_id === key ||
          (key.startsWith(`${s.pipeline_step_id}_`) && /^\d+$/.test(key.slice(s.pipeline_step_id.length + 1))),
      )?.pipeline_step_id;
      if (!psid)
        throw apiError('config_not_found', {
          message: `flow_config names '${key}', which is not a step of pipeline ${pipeline.pipeline_id}`,
          status: 400,
        });
      if (key !== psid) namedFlowIds.set(key, Number(key.slice(psid.length + 1)));
      const step = pipeline.steps.find((s) => s.pipeline_step_id === psid)!;
      const current = steps[stepKey(psid)]!;
      if (given.handler_slug) {
        current.handler_slug = given.handler_slug;
        // The handler's defaults first; the given settings win key by key.
        const base = await this.defaults.opened(given.handler_slug);
        current.handler_config = this.secrets.seal(
          this.checkHandler(step.step_type, given.handler_slug, { ...base, ...(given.handler_config ?? {}) }, 'any'),
        );
      }
      if (given.enabled !== undefined) current.enabled = given.enabled;
      if (given.user_message !== undefined) current.user_message = given.user_message;
    }
    const flowId = await this.store.nextId('flows');
    // A full flow step id can only be checked now: it must name the flow being made.
    for (const [key, named] of namedFlowIds) {
      if (named !== flowId)
        throw apiError('config_not_found', {
          message: `flow_config names '${key}', which is not a step of the new flow ${flowId}`,
          status: 400,
        });
    }
    const now = this.clock.now();
    const flow = await this.collection
      .insertOne({
        flow_id: flowId,
        pipeline_id: pipeline.pipeline_id,
        flow_name: input.flow_name?.trim() || 'Flow',
        steps,
        scheduling_config: scheduling,
        owner_id: by?.userId ?? null,
        ...freshRunState(now),
        revision: 1,
        revision_pending: this.revise('create', 'flow.create', by).revision_pending,
      } as unknown as FlowRecord)
      .then((created) => this.revised(created));
    await this.scheduler.schedule(flowId, scheduling);
    await this.changed(
      by,
      `Flow ${flowId} "${flow.flow_name}" created in pipeline ${pipeline.pipeline_id} (schedule: ${scheduling.interval})`,
      { flow_id: flowId, pipeline_id: pipeline.pipeline_id, change: 'flow.create', interval: scheduling.interval },
    );
    return flow;
  }

  async update(
    flowId: number,
    patch: { flow_name?: string; scheduling_config?: SchedulingConfig; owner_id?: number | null },
    by?: Principal | null,
  ): Promise<FlowRecord> {
    const before = await this.get(flowId);
    const $set: Record<string, unknown> = { updated_at: this.clock.now() };
    if (patch.flow_name !== undefined) $set.flow_name = patch.flow_name.trim();
    if (patch.owner_id !== undefined) $set.owner_id = patch.owner_id;
    if (patch.scheduling_config !== undefined) $set.scheduling_config = this.checkScheduling(patch.scheduling_config);
    const { $inc, revision_pending } = this.revise('update', 'flow.update', by);
    const flow = await this.revised(
      (await this.collection.findOneAndUpdate({ flow_id: flowId }, { $set: { ...$set, revision_pending }, $inc })) ?? this.gone(flowId),
    );
    this.triggerCache.forget(flowId);
    if (patch.scheduling_config !== undefined) await this.scheduler.schedule(flowId, flow.scheduling_config);
    const what: string[] = [];
    if (patch.flow_name !== undefined) what.push(`name "${before.flow_name}" → "${flow.flow_name}"`);
    if (patch.scheduling_config !== undefined)
      what.push(`schedule ${before.scheduling_config?.interval ?? 'none'} → ${flow.scheduling_config.interval}`);
    if (patch.owner_id !== undefined) what.push(`owner ${before.owner_id ?? 'none'} → ${flow.owner_id ?? 'none'}`);
    await this.changed(by, `Flow ${flowId} updated (${what.join(', ') || 'nothing'})`, {
      flow_id: flowId,
      pipeline_id: flow.pipeline_id,
      change: 'flow.update',
      fields: Object.keys(patch)
        .filter((k) => (patch as Record<string, unknown>)[k] !== undefined)
        .sort(),
      ...(patch.scheduling_config !== undefined ? { interval: flow.scheduling_config.interval } : {}),
    });
    return flow;
  }

  /** The schedule goes first: a crash in between leaves a flow without a schedule, never a schedule without a flow. */
  async delete(flowId: number, by?: Principal | null): Promise<void> {
    const flow = await this.get(flowId);
    // The revision first: a crash after it leaves the flow with a `delete` revision on top
    // (the next change records over it), never a flow gone without one.
    await this.revisedDelete(flow, by);
    await this.scheduler.unschedule(flowId);
    await this.collection.deleteOne({ flow_id: flowId });
    this.triggerCache.forget(flowId);
    await this.changed(by, `Flow ${flowId} "${flow.flow_name}" deleted`, {
      flow_id: flowId,
      pipeline_id: flow.pipeline_id,
      change: 'flow.delete',
    });
  }

  /**
   * Lays revision `revision` back over the flow, recorded as a new `restore` revision: its
   * name, schedule, owner and steps. A secret the revision shows masked keeps the value the
   * flow holds now (restoredSteps). 404 when the flow or the revision is unknown; 400 when
   * its schedule can no longer be set (an interval no plugin provides, a past one_time).
   */
  async restore(flowId: number, revision: number, by?: Principal | null): Promise<FlowRecord> {
    const flow = await this.get(flowId);
    const found = await this.revisions.get(flowId, revision);
    if (!found) throw apiError('revision_not_found', { message: `Flow ${flowId} has no revision ${revision}` });
    const snapshot = found.snapshot as FlowSnapshot;
    const scheduling = this.checkScheduling(snapshot.scheduling_config);
    const { $inc, revision_pending } = this.revise('restore', 'flow.restore', by, revision);
    const $set = {
      flow_name: snapshot.flow_name,
      scheduling_config: scheduling,
      owner_id: snapshot.owner_id,
      steps: restoredSteps(snapshot.steps, flow.steps, this.secrets),
      updated_at: this.clock.now(),
      revision_pending,
    };
    const restored = await this.revised((await this.collection.findOneAndUpdate({ flow_id: flowId }, { $set, $inc })) ?? this.gone(flowId));
    this.triggerCache.forget(flowId);
    await this.scheduler.schedule(flowId, restored.scheduling_config);
    await this.changed(by, `Flow ${flowId} restored to revision ${revision} (now revision ${String(restored.revision)})`, {
      flow_id: flowId,
      pipeline_id: restored.pipeline_id,
      change: 'flow.restore',
      restored_from: revision,
    });
    return restored;
  }

  async duplicate(flowId: number, by?: Principal | null): Promise<FlowRecord> {
    const source = await this.get(flowId);
    const copyId = await this.store.nextId('flows');
    const now = this.clock.now();
    const { _id: _ignored, revision: _revision, revision_pending: _pending, ...rest } = source;
    const copy = await this.collection
      .insertOne({
        ...structuredClone(rest),
        flow_id: copyId,
        flow_name: `${source.flow_name} (Copy)`,
        // The copy is its maker's, as a new flow is (an unknown maker keeps the source's owner).
        owner_id: by ? by.userId : (source.owner_id ?? null),
        // Run history and the webhook trigger (its secrets above all) are not copied.
        webhook: undefined,
        scheduling_config: publicScheduling(source.scheduling_config),
        running_job_id: null,
        running_since: null,
        ...freshRunState(now),
        revision: 1,
        revision_pending: this.revise('duplicate', 'flow.duplicate', by).revision_pending,
      } as unknown as FlowRecord)
      .then((created) => this.revised(created));
    await this.scheduler.schedule(copyId, copy.scheduling_config);
    await this.changed(by, `Flow ${flowId} duplicated as flow ${copyId} "${copy.flow_name}"`, {
      flow_id: copyId,
      pipeline_id: copy.pipeline_id,
      change: 'flow.duplicate',
      source_flow_id: flowId,
    });
    return copy;
  }

  async problems(threshold: number): Promise<FlowRecord[]> {
    return this.collection.find(
      { $or: [{ consecutive_failures: { $gte: threshold } }, { consecutive_no_items: { $gte: threshold } }] },
      { sort: { flow_id: 1 } },
    );
  }

  /**
   * The flows an enabled step of which lacks required handler settings, with those steps
   * (in run order), by flow id. A scan of every flow: what is missing comes from the
   * handlers' schemas as loaded now, not from a stored flag a plugin upgrade would leave stale.
   */
  async unconfigured(): Promise<Map<number, { flow: FlowRecord; steps: UnconfiguredStep[] }>> {
    const found = new Map<number, { flow: FlowRecord; steps: UnconfiguredStep[] }>();
    const pipelines = new Map<number, Promise<PipelineRecord | null>>();
    const flows = await this.collection.find(
      {},
      {
        sort: { flow_id: 1 },
        projection: { flow_id: 1, flow_name: 1, pipeline_id: 1, steps: 1, consecutive_failures: 1, consecutive_no_items: 1 },
      },
    );
    for (const flow of flows) {
      if (!pipelines.has(flow.pipeline_id)) pipelines.set(flow.pipeline_id, this.pipelines.find(flow.pipeline_id));
      const pipeline = await pipelines.get(flow.pipeline_id)!;
      if (!pipeline) continue;
      const steps = Object.values(flowConfig(flow, pipeline, 'stored', this.missing))
        .filter((step) => step.enabled !== false && (step.missing_settings as string[]).length > 0)
        .map((step) => ({
          flow_step_id: String(step.flow_step_id),
          handler_slug: String(step.handler_slug),
          missing_settings: step.missing_settings as string[],
        }));
      if (steps.length > 0) found.set(flow.flow_id, { flow, steps });
    }
    return found;
  }

  /**
   * The flows that name a handler, step type or interval no loaded plugin provides, with
   * what they miss, by flow id: a scan of every flow, as `unconfigured` is.
   */
  async orphaned(): Promise<Map<number, { flow: FlowRecord; missing: MissingContribution[] }>> {
    const found = new Map<number, { flow: FlowRecord; missing: MissingContribution[] }>();
    const pipelines = new Map<number, Promise<PipelineRecord | null>>();
    const ownerOf = await this.orphans.ownerLookup();
    const flows = await this.collection.find(
      {},
      {
        sort: { flow_id: 1 },
        projection: {
          flow_id: 1,
          flow_name: 1,
          pipeline_id: 1,
          steps: 1,
          scheduling_config: 1,
          consecutive_failures: 1,
          consecutive_no_items: 1,
        },
      },
    );
    for (const flow of flows) {
      if (!pipelines.has(flow.pipeline_id)) pipelines.set(flow.pipeline_id, this.pipelines.find(flow.pipeline_id));
      const missing = this.orphans.missing(flow, await pipelines.get(flow.pipeline_id)!, ownerOf);
      if (missing.length > 0) found.set(flow.flow_id, { flow, missing });
    }
    return found;
  }

  /** What one flow names that no loaded plugin provides ([] for a whole flow). */
  async missingContributions(flow: FlowRecord): Promise<MissingContribution[]> {
    const pipeline = await this.pipelineOf(flow);
    const bare = this.orphans.missing(flow, pipeline);
    // The owners' record is read only for a flow that needs it.
    return bare.length ? this.orphans.missing(flow, pipeline, await this.orphans.ownerLookup()) : bare;
  }

  /** The flow step configuration of one step; 404 config_not_found when unknown. */
  async stepConfig(id: string): Promise<{ flow: FlowRecord; pipeline: PipelineRecord; config: Record<string, unknown> }> {
    const parsed = parseFlowStepId(id);
    const flow = parsed ? await this.collection.findOne({ flow_id: parsed.flowId }) : null;
    const pipeline = flow ? await this.pipelineOf(flow) : null;
    const config = flow && pipeline ? flowConfig(flow, pipeline, 'masked', this.missing)[id] : undefined;
    if (!flow || !pipeline || !config) throw apiError('config_not_found', { message: `No flow step '${id}'`, status: 404 });
    return { flow, pipeline, config };
  }

  async setHandler(
    id: string,
    input: { handler_slug: string; settings?: Record<string, unknown>; step_type?: string; pipeline_id?: number },
    by?: Principal | null,
  ): Promise<{ flow: FlowRecord; config: Record<string, unknown> }> {
    const { flow, config } = await this.stepConfig(id);
    if (input.step_type !== undefined && input.step_type !== config.step_type)
      throw apiError('step_type_mismatch', { message: `Flow step ${id} is a ${String(config.step_type)} step` });
    if (input.pipeline_id !== undefined && input.pipeline_id !== flow.pipeline_id)
      throw apiError('pipeline_mismatch', { message: `Flow step ${id} belongs to pipeline ${flow.pipeline_id}` });
    const psid = String(config.pipeline_step_id);
    const current = flow.steps[stepKey(psid)] ?? { handler_slug: null, handler_config: {}, enabled: true };
    const stored = current.handler_slug === input.handler_slug ? this.secrets.open(current.handler_config) : {};
    const base = await this.defaults.opened(input.handler_slug);
    const handlerConfig = this.secrets.seal(
      this.checkHandler(
        String(config.step_type),
        input.handler_slug,
        { ...base, ...this.secrets.keepMasked(input.settings ?? {}, stored) },
        'any',
      ),
    );
    const updated = await this.saveStep(
      flow.flow_id,
      psid,
      { ...current, handler_slug: input.handler_slug, handler_config: handlerConfig },
      this.revise('update', 'flow.step.handler', by),
    );
    const fields = Object.keys(input.settings ?? {}).sort();
    await this.changed(
      by,
      `Flow ${flow.flow_id}: step ${id} handler set to ${input.handler_slug}${fields.length ? ` (settings: ${fields.join(', ')})` : ''}`,
      {
        flow_id: flow.flow_id,
        pipeline_id: flow.pipeline_id,
        flow_step_id: id,
        change: 'flow.step.handler',
        handler: input.handler_slug,
        fields,
      },
    );
    return { flow: updated, config: (await this.stepConfig(id)).config };
  }

  async patchStepConfig(
    id: string,
    input: { handler_config?: Record<string, unknown>; user_message?: string; enabled?: boolean },
    by?: Principal | null,
  ): Promise<Record<string, unknown>> {
    const { flow, config } = await this.stepConfig(id);
    const psid = String(config.pipeline_step_id);
    const current = flow.steps[stepKey(psid)] ?? { handler_slug: null, handler_config: {}, enabled: true };
    const next: FlowStepSettings = { ...current };
    if (input.user_message !== undefined) {
      if (config.step_type !== 'ai')
        throw apiError('not_an_ai_step', { message: `user_message applies to ai steps; ${id} is a ${String(config.step_type)} step` });
      next.user_message = input.user_message;
    }
    if (input.enabled !== undefined) next.enabled = input.enabled;
    if (input.handler_config !== undefined) {
      if (!current.handler_slug)
        throw apiError('handler_not_set', { message: `Flow step ${id} has no handler yet; pick one with PUT /flows/steps/${id}/handler` });
      const stored = this.secrets.open(current.handler_config);
      const merged = { ...stored, ...this.secrets.keepMasked(input.handler_config, stored) };
      next.handler_config = this.secrets.seal(this.checkHandler(String(config.step_type), current.handler_slug, merged, 'any'));
    }
    await this.saveStep(flow.flow_id, psid, next, this.revise('update', 'flow.step.config', by));
    const fields = [
      ...Object.keys(input.handler_config ?? {}).map((k) => `handler_config.${k}`),
      ...(input.user_message !== undefined ? ['user_message'] : []),
      ...(input.enabled !== undefined ? ['enabled'] : []),
    ].sort();
    const enabledText = input.enabled !== undefined ? `; step ${input.enabled ? 'enabled' : 'disabled'}` : '';
    await this.changed(by, `Flow ${flow.flow_id}: step ${id} configuration changed (${fields.join(', ') || 'nothing'})${enabledText}`, {
      flow_id: flow.flow_id,
      pipeline_id: flow.pipeline_id,
      flow_step_id: id,
      change: 'flow.step.config',
      fields,
    });
    return (await this.stepConfig(id)).config;
  }

  // PipelineFlows ------------------------------------------------------------------

  async countByPipeline(pipelineIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    await Promise.all(pipelineIds.map(async (id) => counts.set(id, await this.collection.count({ pipeline_id: id }))));
    return counts;
  }

  async deleteByPipeline(pipelineId: number, by?: Principal | null): Promise<number> {
    const flows = await this.collection.find({ pipeline_id: pipelineId });
    for (const flow of flows) await this.revisedDelete(flow, by);
    for (const flow of flows) await this.scheduler.unschedule(flow.flow_id);
    const deleted = await this.collection.deleteMany({ pipeline_id: pipelineId });
    this.triggerCache.forget(null);
    return deleted;
  }

  // Checks ---------------------------------------------------------------------------

  checkScheduling(config: SchedulingConfig): SchedulingConfig {
    const interval = this.parts.intervals.get(config.interval);
    if (!interval) {
      throw apiError('rest_invalid_param', {
        message: `Unknown interval '${config.interval}' (known: ${this.parts.intervals
          .list()
          .map((i) => i.value)
          .join(', ')})`,
        data: {
          params: { 'scheduling_config.interval': 'unknown interval' },
        },
      });
    }
    if (config.interval === 'one_time') {
      const now = Math.floor(this.clock.now().getTime() / 1000);
      if (!Number.isSafeInteger(config.timestamp) || config.timestamp! <= now || config.timestamp! > INPUT_LIMITS.maxUnixSeconds) {
        throw apiError('rest_invalid_param', {
          message: `A one_time schedule needs a future Unix timestamp no later than ${INPUT_LIMITS.maxUnixSeconds} (year 9999)`,
          data: { params: { 'scheduling_config.timestamp': 'must be a future Unix time in seconds' } },
        });
      }
      return { interval: 'one_time', timestamp: config.timestamp! };
    }
    return { interval: config.interval };
  }

  /**
   * Writes a flow for a pipeline whose steps were checked already (an import), without
   * scheduling it; the caller schedules it once every write has succeeded.
   */
  async insertChecked(
    pipeline: PipelineRecord,
    input: { flow_name: string; steps: Record<string, FlowStepSettings>; scheduling_config: SchedulingConfig; owner_id?: number | null },
    by?: Principal | null,
  ): Promise<FlowRecord> {
    const flowId = await this.store.nextId('flows');
    const steps: Record<string, FlowStepSettings> = {};
    for (const step of pipeline.steps) {
      const given = input.steps[step.pipeline_step_id];
      // An imported document written by hand may carry a secret: sealed like any other.
      steps[stepKey(step.pipeline_step_id)] = given
        ? { ...given, handler_config: this.secrets.seal(given.handler_config) }
        : { handler_slug: null, handler_config: {}, enabled: true };
    }
    return this.collection
      .insertOne({
        flow_id: flowId,
        pipeline_id: pipeline.pipeline_id,
        flow_name: input.flow_name.trim() || 'Flow',
        steps,
        scheduling_config: input.scheduling_config,
        owner_id: input.owner_id ?? null,
        ...freshRunState(this.clock.now()),
        revision: 1,
        revision_pending: this.revise('import', 'flow.import', by).revision_pending,
      } as unknown as FlowRecord)
      .then((created) => this.revised(created));
  }

  /**
   * The handler must exist, fit the step type, and its settings pass its schema (defaults
   * applied). `mayLack`: dotted fields that may be missing although required (secrets an
   * export left out), or 'any': a step being set up (the admin client picks a handler with
   * `settings: {}` and fills the fields after). Either way what is missing is stored, shown
   * as the step's `missing_settings`, and refused when a run reaches the step.
   */
  checkHandler(
    stepType: string,
    slug: string,
    settings: Record<string, unknown>,
    mayLack: ReadonlySet<string> | 'any' = new Set(),
  ): Record<string, unknown> {
    const handler = this.parts.handlers.get(slug);
    if (!handler) throw apiError('handler_not_found', { message: `No handler '${slug}' is registered`, status: 400 });
    const type = this.parts.stepTypes.get(stepType);
    if (!type?.handlerType || type.handlerType !== handler.type) {
      throw apiError('handler_step_mismatch', { message: `Handler '${slug}' is a ${handler.type} handler; this is a ${stepType} step` });
    }
    refuseUrlCredentials(slug, settings, handler.settings, Boolean(handler.auth));
    const copy = structuredClone(settings);
    const params: Record<string, string> = {};
    for (const issue of this.settingsIssues(handler.settings, copy))
      if (!(issue.missing && (mayLack === 'any' || mayLack.has(issue.field)))) params[issue.field || 'settings'] = issue.message;
    // Defaults are filled in as the settings are checked, after rules that compare fields
    // (if/then) ran: what is stored must pass them too (cms: the default taxonomy must be
    // one the chosen post type carries).
    for (const issue of this.settingsIssues(handler.settings, structuredClone(copy)))
      if (!issue.missing && !((issue.field || 'settings') in params)) params[issue.field || 'settings'] = issue.message;
    if (Object.keys(params).length > 0) {
      throw apiError('rest_invalid_param', {
        message: `Invalid settings for handler '${slug}': ${Object.values(params).join('; ')}`,
        data: { params },
      });
    }
    return copy;
  }

  /**
   * The required settings a handler's stored settings lack (dotted paths, sorted); empty
   * when none, or when the handler is not registered (a run reports that itself). Sealed
   * secrets count as present: only presence is asked.
   */
  missingSettings(slug: string | null | undefined, settings: Record<string, unknown>): string[] {
    const handler = slug ? this.parts.handlers.get(slug) : undefined;
    if (!handler) return [];
    return this.settingsIssues(handler.settings, structuredClone(settings))
      .filter((issue) => issue.missing)
      .map((issue) => issue.field)
      .sort();
  }

  /** What the handler's settings schema finds wrong with `settings` (validated in place: defaults applied). */
  private settingsIssues(schema: object | undefined, settings: Record<string, unknown>): ValidationIssue[] {
    if (!schema) return [];
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = compileShared(this.ajv, schema);
      this.validators.set(schema, validate);
    }
    return validate(settings) ? [] : describeErrors(validate.errors);
  }

  /**
   * A flow deleted by another request between its read and its write: 404, and nothing
   * was written (the chunked-slow body fuzz found a restore answering 500 so on MongoDB).
   */
  private gone(flowId: number): never {
    throw apiError('flow_not_found', { message: `Flow ${flowId} not found` });
  }

  private async saveStep(
    flowId: number,
    pipelineStepId: string,
    settings: FlowStepSettings,
    { $inc, revision_pending }: ReturnType<FlowsService['revise']>,
  ): Promise<FlowRecord> {
    return this.revised(
      (await this.collection.findOneAndUpdate(
        { flow_id: flowId },
        { $set: { [`steps.${stepKey(pipelineStepId)}`]: settings, updated_at: this.clock.now(), revision_pending }, $inc },
      )) ?? this.gone(flowId),
    );
  }
}
