/**
 * The revisions of one kind (flows or pipelines) in their own collection. The writer
 * (FlowsService, PipelinesService) changes the record and marks it with the pending
 * revision in one write, then calls `write`, which stores the revision and clears the
 * mark. A crash in between leaves the mark, and `repair` (at boot) writes the revision
 * from it: a record never stays changed without its revision. The unique index on
 * (entity_id, revision) makes a repeated write of the same revision a no-op.
 */
import type { Collection, DocumentStore } from '../store/port.js';
import { DuplicateKeyError } from '../store/port.js';
import type { PendingRevision, RevisionRecord } from './model.js';

export class RevisionLog {
  constructor(
    private readonly store: DocumentStore,
    /** `flow_revisions` or `pipeline_revisions`. */
    private readonly name: string,
    /** The record's collection and id field, for clearing the mark. */
    private readonly records: () => Collection<Record<string, unknown>>,
    private readonly idField: 'flow_id' | 'pipeline_id',
  ) {}

  get collection(): Collection<RevisionRecord> {
    return this.store.collection<RevisionRecord>(this.name);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ fields: { entity_id: 1, revision: 1 }, unique: true });
  }

  /** The revision number after the record's current one (a delete's, written before the record goes). */
  static next(record: { revision?: unknown } | null | undefined): number {
    return (typeof record?.revision === 'number' ? record.revision : 0) + 1;
  }

  /**
   * Stores the revision the mark announces, with `snapshot` (already masked), then clears
   * the mark when it is still this one (`clearMark`: false for a record that is gone).
   */
  async write(
    entityId: number,
    revision: number,
    pending: PendingRevision,
    snapshot: Record<string, unknown>,
    clearMark = true,
    fingerprints: Record<string, string> = {},
  ): Promise<void> {
    try {
      await this.collection.insertOne({
        entity_id: entityId,
        revision,
        action: pending.action,
        change: pending.change,
        user_id: pending.user_id,
        user_login: pending.user_login,
        client: pending.client,
        created_at: pending.at,
        ...(pending.restored_from !== undefined ? { restored_from: pending.restored_from } : {}),
        snapshot,
        ...(Object.keys(fingerprints).length ? { secret_fingerprints: fingerprints } : {}),
      } as unknown as RevisionRecord);
    } catch (error) {
      // Written already (a repair racing a slow writer): the revision is there.
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    if (clearMark) await this.records().updateOne({ [this.idField]: entityId, revision }, { $unset: { revision_pending: '' } });
  }

  /** Writes the revision of every record a crash left marked (boot). `snapshotOf`: the record's masked configuration. */
  async repair(
    snapshotOf: (record: Record<string, unknown>) => Record<string, unknown>,
    fingerprintsOf: (record: Record<string, unknown>) => Record<string, string> = () => ({}),
  ): Promise<number> {
    const marked = await this.records().find({ revision_pending: { $exists: true } });
    for (const record of marked)
      await this.write(
        record[this.idField] as number,
        record.revision as number,
        record.revision_pending as PendingRevision,
        snapshotOf(record),
        true,
        fingerprintsOf(record),
      );
    return marked.length;
  }

  async list(entityId: number, perPage: number, offset: number): Promise<{ items: RevisionRecord[]; total: number }> {
    const [items, total] = await Promise.all([
      this.collection.find(
        { entity_id: entityId },
        { sort: { revision: -1 }, skip: offset, limit: perPage, projection: { snapshot: 0, secret_fingerprints: 0 } },
      ),
      this.collection.count({ entity_id: entityId }),
    ]);
    return { items, total };
  }

  async get(entityId: number, revision: number): Promise<RevisionRecord | null> {
    return this.collection.findOne({ entity_id: entityId, revision });
  }

  /** The latest revision; null when none was recorded (a record older than revisions). */
  async latest(entityId: number): Promise<RevisionRecord | null> {
    return (await this.collection.find({ entity_id: entityId }, { sort: { revision: -1 }, limit: 1 }))[0] ?? null;
  }
}
