import { StepSettingsCheck } from './step-settings.js';
import { escapeRegExp as escapeRegex } from '../store/document-shape.js';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../kernel/clock.js';
import type { Registries } from '../kernel/registries.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';
import type { Principal } from '../kernel/principal.js';
import { noChangeLog, type ChangeLog } from '../logs/change-log.js';
import type { Collection, DocumentStore } from '../store/port.js';
import { PIPELINES, pipelineIdOfStep, type PipelineRecord, type PipelineStep } from './model.js';
import type { PipelinesApi } from '../../sdk/contract/pipelines.js';
import { apiError } from '../errors/catalogue.js';
import { RevisionLog } from '../revisions/revision-log.js';
import { pendingRevision, type PendingRevision, type RevisionAction } from '../revisions/model.js';
import { PIPELINE_REVISIONS, pipelineSnapshot, restoredPipelineSteps, type PipelineSnapshot } from './revisions.js';

/** What pipelines need from flows, without importing them (flows depend on pipelines). */
export interface PipelineFlows {
  countByPipeline(pipelineIds: number[]): Promise<Map<number, number>>;
  /** Deletes every flow of the pipeline (each recorded as a `delete` revision, schedules first); returns how many. */
  deleteByPipeline(pipelineId: number, by?: Principal | null): Promise<number>;
}

export class PipelinesService implements PipelinesApi {
  /** Every change's revision (see revisions.ts and core/revisions/revision-log.ts). */
  readonly revisions: RevisionLog;

  private readonly settingsCheck = new StepSettingsCheck();

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    private readonly registries: Registries,
    private readonly catalogue: HandlerCatalogue,
    /** Cascades: a pipeline's flows are counted with it and deleted before it. */
    private readonly flows: PipelineFlows,
    /** Where configuration changes are logged with the acting user. */
    private readonly changed: ChangeLog = noChangeLog,
  ) {
    this.revisions = new RevisionLog(
      store,
      PIPELINE_REVISIONS,
      () => this.collection as unknown as Collection<Record<string, unknown>>,
      'pipeline_id',
    );
  }

  /** The mark of a change about to be written (see core/revisions/model.ts). */
  private mark(action: RevisionAction, change: string, by: Principal | null | undefined, restoredFrom?: number): PendingRevision {
    return pendingRevision(action, change, by, this.clock.now(), restoredFrom);
  }

  /** Writes the revision a changed pipeline's mark announces, and clears the mark. */
  private async revised(pipeline: PipelineRecord): Promise<PipelineRecord> {
    await this.revisions.write(
      pipeline.pipeline_id,
      pipeline.revision as number,
      pipeline.revision_pending as PendingRevision,
      pipelineSnapshot(pipeline),
    );
    const { revision_pending: _mark, ...rest } = pipeline;
    return rest as PipelineRecord;
  }

  get collection(): Collection<PipelineRecord> {
    return this.store.collection<PipelineRecord>(PIPELINES);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ fields: { pipeline_id: 1 }, unique: true });
    await this.revisions.init();
    // A change whose revision a crash kept from being written gets it now.
    await this.revisions.repair((record) => pipelineSnapshot(record as PipelineRecord));
    // A delete that crashed midway is finished now: its flows go, then the pipeline.
    for (const stuck of await this.collection.find({ deleting: true })) {
      await this.revisedDelete(stuck);
      await this.finishDelete(stuck.pipeline_id);
    }
  }

  async list(options: {
    perPage: number;
    offset: number;
    search?: string;
  }): Promise<{ items: PipelineRecord[]; total: number; flowCounts: Map<number, number> }> {
    const filter: Record<string, unknown> = { deleting: { $ne: true } };
    if (options.search) filter.pipeline_name = { $regex: escapeRegex(options.search), $options: 'i' };
    const [items, total] = await Promise.all([
      this.collection.find(filter, { sort: { pipeline_id: 1 }, skip: options.offset, limit: options.perPage }),
      this.collection.count(filter),
    ]);
    const flowCounts = await this.flows.countByPipeline(items.map((p) => p.pipeline_id));
    return { items, total, flowCounts };
  }

  /** Names of these pipelines, for views of other domains (jobs). */
  async namesOf(pipelineIds: readonly number[]): Promise<Map<number, string>> {
    if (pipelineIds.length === 0) return new Map();
    const found = await this.collection.find(
      { pipeline_id: { $in: [...pipelineIds] } },
      { projection: { pipeline_id: 1, pipeline_name: 1 } },
    );
    return new Map(found.map((p) => [p.pipeline_id, p.pipeline_name]));
  }

  async get(pipelineId: number): Promise<PipelineRecord> {
    const pipeline = await this.collection.findOne({ pipeline_id: pipelineId, deleting: { $ne: true } });
    if (!pipeline) throw apiError('pipeline_not_found', { message: `Pipeline ${pipelineId} not found` });
    return pipeline;
  }

  async exists(pipelineId: number): Promise<boolean> {
    return (await this.collection.count({ pipeline_id: pipelineId, deleting: { $ne: true } })) > 0;
  }

  /**
   * `hidden`: the pipeline is stored with the delete mark, so it is invisible and a crash
   * before `reveal` has it (and any flows written for it) removed at the next boot; an
   * import writes its pipeline this way.
   */
  async create(
    input: {
      pipeline_name: string;
      agent_id?: number | null;
      steps?: Array<{ step_type: string; label?: string; config?: Record<string, unknown> }>;
    },
    options: { hidden?: boolean } = {},
    by?: Principal | null,
  ): Promise<PipelineRecord> {
    const pipelineId = await this.store.nextId('pipelines');
    const steps = (input.steps ?? []).map((step, index) => this.newStep(pipelineId, step.step_type, index, step.label, step.config));
    const now = this.clock.now();
    const created = await this.collection
      .insertOne({
        pipeline_id: pipelineId,
        pipeline_name: input.pipeline_name.trim(),
        steps,
        agent_id: input.agent_id ?? null,
        created_at: now,
        updated_at: now,
        ...(options.hidden ? { deleting: true } : {}),
        revision: 1,
        revision_pending: this.mark(options.hidden ? 'import' : 'create', options.hidden ? 'pipeline.import' : 'pipeline.create', by),
      } as unknown as PipelineRecord)
      .then((inserted) => this.revised(inserted));
    await this.changed(
      by,
      `Pipeline ${pipelineId} "${created.pipeline_name}" created with ${steps.length} step${steps.length === 1 ? '' : 's'}`,
      { pipeline_id: pipelineId, change: 'pipeline.create' },
    );
    return created;
  }

  /** Makes a pipeline created with `hidden` visible. */
  async reveal(pipelineId: number): Promise<void> {
    await this.collection.updateOne({ pipeline_id: pipelineId }, { $unset: { deleting: '' } });
  }

  /** Removes a pipeline created with `hidden` (its flows and their schedules first). */
  async discardHidden(pipelineId: number, by?: Principal | null): Promise<void> {
    const hidden = await this.collection.findOne({ pipeline_id: pipelineId });
    if (hidden) await this.revisedDelete(hidden, by);
    await this.finishDelete(pipelineId, by);
  }

  /** `name`, or `name (2)`, `name (3)`... : the first no visible pipeline carries. */
  async freeName(name: string): Promise<string> {
    const base = name.trim();
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base} (${n})`;
      if ((await this.collection.count({ pipeline_name: candidate, deleting: { $ne: true } })) === 0) return candidate;
    }
  }

  async rename(pipelineId: number, name: string, by?: Principal | null): Promise<PipelineRecord> {
    await this.get(pipelineId);
    const renamed = await this.revised(
      (await this.collection.findOneAndUpdate(
        { pipeline_id: pipelineId },
        {
          $set: { pipeline_name: name.trim(), updated_at: this.clock.now(), revision_pending: this.mark('update', 'pipeline.update', by) },
          $inc: { revision: 1 },
        },
      )) ?? this.gone(pipelineId),
    );
    await this.changed(by, `Pipeline ${pipelineId} renamed to "${renamed.pipeline_name}"`, {
      pipeline_id: pipelineId,
      change: 'pipeline.update',
      fields: ['pipeline_name'],
    });
    return renamed;
  }

  /**
   * Deletes a pipeline with its flows. Ordered for crashes: the pipeline is marked first
   * (hidden at once), then its flows and their schedules go, the pipeline last; a mark
   * left by a crash is finished at the next boot.
   */
  async delete(pipelineId: number, by?: Principal | null): Promise<{ pipeline_id: number; deleted_flows: number }> {
    const pipeline = await this.get(pipelineId);
    // The revision first: a crash after it leaves a `delete` revision over a pipeline still
    // there (the next change records over it), never a pipeline gone without one.
    await this.revisedDelete(pipeline, by);
    await this.collection.updateOne({ pipeline_id: pipelineId }, { $set: { deleting: true } });
    const deleted = await this.finishDelete(pipelineId, by);
    await this.changed(by, `Pipeline ${pipelineId} "${pipeline.pipeline_name}" deleted with ${deleted} flow${deleted === 1 ? '' : 's'}`, {
      pipeline_id: pipelineId,
      change: 'pipeline.delete',
      deleted_flows: deleted,
    });
    return { pipeline_id: pipelineId, deleted_flows: deleted };
  }

  /**
   * Lays revision `revision` back over the pipeline (name, agent, steps in its order), as
   * a new `restore` revision; a setting the revision shows masked keeps its current value.
   * Flows keep their own configuration (they have their own history): a step the revision
   * brings back finds the flow settings it had, as removed steps' settings are kept.
   */
  async restore(pipelineId: number, revision: number, by?: Principal | null): Promise<PipelineRecord> {
    const pipeline = await this.get(pipelineId);
    const found = await this.revisions.get(pipelineId, revision);
    if (!found) throw apiError('revision_not_found', { message: `Pipeline ${pipelineId} has no revision ${revision}` });
    const snapshot = found.snapshot as PipelineSnapshot;
    const restored = await this.revised(
      (await this.collection.findOneAndUpdate(
        { pipeline_id: pipelineId },
        {
          $set: {
            pipeline_name: snapshot.pipeline_name,
            agent_id: snapshot.agent_id,
            steps: restoredPipelineSteps(snapshot, pipeline.steps),
            updated_at: this.clock.now(),
            revision_pending: this.mark('restore', 'pipeline.restore', by, revision),
          },
          $inc: { revision: 1 },
        },
      )) ?? this.gone(pipelineId),
    );
    await this.changed(by, `Pipeline ${pipelineId} restored to revision ${revision} (now revision ${String(restored.revision)})`, {
      pipeline_id: pipelineId,
      change: 'pipeline.restore',
      restored_from: revision,
    });
    return restored;
  }

  async addStep(
    pipelineId: number,
    input: { step_type: string; execution_order?: number; label?: string },
    by?: Principal | null,
  ): Promise<PipelineStep> {
    const pipeline = await this.get(pipelineId);
    const steps = [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);
    const at = Math.min(input.execution_order ?? steps.length, steps.length);
    const step = this.newStep(pipelineId, input.step_type, at, input.label);
    steps.splice(at, 0, step);
    await this.saveSteps(pipelineId, steps, this.mark('update', 'pipeline.step.add', by));
    await this.changed(by, `Pipeline ${pipelineId}: ${step.step_type} step ${step.pipeline_step_id} added at position ${at + 1}`, {
      pipeline_id: pipelineId,
      change: 'pipeline.step.add',
      pipeline_step_id: step.pipeline_step_id,
      step_type: step.step_type,
    });
    return { ...step, execution_order: at };
  }

  async removeStep(pipelineId: number, pipelineStepId: string, by?: Principal | null): Promise<void> {
    const pipeline = await this.get(pipelineId);
    const steps = pipeline.steps.filter((s) => s.pipeline_step_id !== pipelineStepId);
    if (steps.length === pipeline.steps.length)
      throw apiError('step_not_found', { message: `Step ${pipelineStepId} is not in pipeline ${pipelineId}` });
    // Flows keep their stored config for the step: views list only the pipeline's steps, so nothing dangles.
    await this.saveSteps(
      pipelineId,
      steps.sort((a, b) => a.execution_order - b.execution_order),
      this.mark('update', 'pipeline.step.remove', by),
    );
    await this.changed(by, `Pipeline ${pipelineId}: step ${pipelineStepId} removed`, {
      pipeline_id: pipelineId,
      change: 'pipeline.step.remove',
      pipeline_step_id: pipelineStepId,
    });
  }

  async reorder(
    pipelineId: number,
    order: Array<{ pipeline_step_id: string; execution_order: number }>,
    by?: Principal | null,
  ): Promise<PipelineStep[]> {
    const pipeline = await this.get(pipelineId);
    const known = new Set(pipeline.steps.map((s) => s.pipeline_step_id));
    const given = new Set(order.map((o) => o.pipeline_step_id));
    if (given.size !== order.length || given.size !== known.size || [...given].some((id) => !known.has(id))) {
      throw apiError('invalid_step_order');
    }
    const rank = new Map(order.map((o) => [o.pipeline_step_id, o.execution_order]));
    const steps = [...pipeline.steps].sort((a, b) => rank.get(a.pipeline_step_id)! - rank.get(b.pipeline_step_id)!);
    const saved = await this.saveSteps(pipelineId, steps, this.mark('update', 'pipeline.step.reorder', by));
    await this.changed(by, `Pipeline ${pipelineId}: steps reordered`, { pipeline_id: pipelineId, change: 'pipeline.step.reorder' });
    return saved;
  }

  async configureStep(pipelineStepId: string, config: Record<string, unknown>, by?: Principal | null): Promise<PipelineStep> {
    const pipelineId = pipelineIdOfStep(pipelineStepId);
    const pipeline = pipelineId === null ? null : await this.collection.findOne({ pipeline_id: pipelineId, deleting: { $ne: true } });
    const step = pipeline?.steps.find((s) => s.pipeline_step_id === pipelineStepId);
    if (!pipeline || !step) throw apiError('step_not_found', { message: `Pipeline step ${pipelineStepId} not found` });
    const { step_type, pipeline_id, label, ...rest } = config;
    if (step_type !== undefined && step_type !== step.step_type)
      throw apiError('step_type_mismatch', { message: `Step ${pipelineStepId} is a ${step.step_type} step, not ${String(step_type)}` });
    if (pipeline_id !== undefined && pipeline_id !== pipeline.pipeline_id)
      throw apiError('pipeline_mismatch', { message: `Step ${pipelineStepId} belongs to pipeline ${pipeline.pipeline_id}` });
    if (rest.provider !== undefined && rest.provider !== '' && !this.registries.providers().some((p) => p.slug === rest.provider)) {
      throw apiError('provider_not_found', { message: `No AI provider '${String(rest.provider)}' is registered`, status: 400 });
    }
    // A null removes its key (an unset setting goes back to its default).
    const merged: Record<string, unknown> = { ...step.config };
    for (const [key, value] of Object.entries(rest)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    const type = this.catalogue.stepType(step.step_type);
    if (type) this.settingsCheck.check(type, merged);
    const updated: PipelineStep = { ...step, label: typeof label === 'string' ? label : step.label, config: merged };
    await this.saveSteps(
      pipeline.pipeline_id,
      pipeline.steps.map((s) => (s.pipeline_step_id === pipelineStepId ? updated : s)),
      this.mark('update', 'pipeline.step.configure', by),
    );
    const fields = Object.keys(config).sort();
    await this.changed(by, `Pipeline ${pipeline.pipeline_id}: step ${pipelineStepId} configured (${fields.join(', ') || 'nothing'})`, {
      pipeline_id: pipeline.pipeline_id,
      change: 'pipeline.step.configure',
      pipeline_step_id: pipelineStepId,
      fields,
    });
    return updated;
  }

  private newStep(pipelineId: number, stepType: string, order: number, label?: string, config: Record<string, unknown> = {}): PipelineStep {
    const known = this.catalogue.stepTypes();
    const type = known.find((t) => t.type === stepType);
    if (!type)
      throw apiError('invalid_step_type', { message: `Unknown step type '${stepType}' (known: ${known.map((t) => t.type).join(', ')})` });
    return {
      pipeline_step_id: `${pipelineId}_${randomUUID()}`,
      step_type: stepType,
      execution_order: order,
      label: label?.trim() || `${type.label} Step`,
      config,
    };
  }

  /** A pipeline deleted by another request between its read and its write: 404, nothing written. */
  private gone(pipelineId: number): never {
    throw apiError('pipeline_not_found', { message: `Pipeline ${pipelineId} not found` });
  }

  private async saveSteps(pipelineId: number, ordered: PipelineStep[], mark: PendingRevision): Promise<PipelineStep[]> {
    const steps = ordered.map((s, index) => ({ ...s, execution_order: index }));
    const saved = await this.collection.findOneAndUpdate(
      { pipeline_id: pipelineId },
      { $set: { steps, updated_at: this.clock.now(), revision_pending: mark }, $inc: { revision: 1 } },
    );
    if (saved) await this.revised(saved);
    return steps;
  }

  /** Records the pipeline's last configuration as a `delete` revision, before it goes (a no-op when written already). */
  private async revisedDelete(pipeline: PipelineRecord, by?: Principal | null): Promise<void> {
    const mark = this.mark('delete', 'pipeline.delete', by);
    await this.revisions.write(pipeline.pipeline_id, RevisionLog.next(pipeline), mark, pipelineSnapshot(pipeline), false);
  }

  private async finishDelete(pipelineId: number, by?: Principal | null): Promise<number> {
    const deleted = await this.flows.deleteByPipeline(pipelineId, by);
    await this.collection.deleteOne({ pipeline_id: pipelineId });
    return deleted;
  }
}
