/**
 * Where a store keeps what each plugin's migrations did: one document per plugin in
 * `plugin_migrations`, holding the steps applied (in the order they ran), the last one,
 * the last failure, and the lock a host holds while it runs steps. One document for both,
 * so recording a step and checking the lock is still ours is a single conditional write.
 */
import type { Collection, DocumentStore } from '../../core/store/port.js';

export const MIGRATIONS_COLLECTION = 'plugin_migrations';

/** The lease a host holds while it runs a plugin's steps; renewed while a step runs. */
export interface MigrationLock extends Record<string, unknown> {
  owner: string;
  since: Date;
  expires_at: Date;
  /** The step running (or about to) under this lock. */
  step: string | null;
}

export interface MigrationFailure extends Record<string, unknown> {
  step: string;
  message: string;
  at: Date;
}

export interface MigrationRecord extends Record<string, unknown> {
  /** The plugin id. */
  _id: string;
  applied: string[];
  last: string | null;
  updated_at: Date;
  failed: MigrationFailure | null;
  lock: MigrationLock | null;
}

export function migrationRecords(store: DocumentStore): Collection<MigrationRecord> {
  return store.collection<MigrationRecord>(MIGRATIONS_COLLECTION);
}

/** One plugin's steps against its record: what ran, what is still to run. */
export interface MigrationStatus {
  plugin: string;
  applied: Array<{ id: string; description: string | null }>;
  pending: Array<{ id: string; description: string | null }>;
  last: string | null;
  updated_at: string | null;
  failed: { step: string; message: string; at: string } | null;
  /** A host holds the lock now (running steps, or killed while its lease lasts). */
  locked_by: string | null;
}

export function statusOf(
  plugin: string,
  steps: ReadonlyArray<{ id: string; description?: string }>,
  record: MigrationRecord | null,
): MigrationStatus {
  const done = new Set(record?.applied ?? []);
  const view = (s: { id: string; description?: string }) => ({ id: s.id, description: s.description ?? null });
  return {
    plugin,
    applied: steps.filter((s) => done.has(s.id)).map(view),
    pending: steps.filter((s) => !done.has(s.id)).map(view),
    last: record?.last ?? null,
    updated_at: record?.updated_at ? record.updated_at.toISOString() : null,
    failed: record?.failed ? { ...record.failed, at: record.failed.at.toISOString() } : null,
    locked_by: record?.lock ? record.lock.owner : null,
  };
}
