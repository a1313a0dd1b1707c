// How an Agenda job looks in the `agenda_jobs` collection, and the conversions both ways.
// Agenda hands us JobParameters whose optional fields may be undefined; we store them as
// null (like Agenda's own MongoDB backend) so a document always has every field and the
// lock query's `lockedAt: null` reads the same on both adapters. Reading back turns null
// into undefined again, because Agenda tests `attrs.lockedAt` etc. for truthiness only.
import { toJobId, type JobParameters, type JobRepositoryOptions } from 'agenda';
import type { StoredDocument } from '../../core/store/port.js';

export const JOBS_COLLECTION = 'agenda_jobs';

/** The stored fields (besides `_id`): Agenda's JobParameters, nulls for "not set". */
export type JobFields = Record<string, unknown> & {
  name: string;
  priority: number;
  nextRunAt: Date | null;
  type: 'normal' | 'single';
  data?: unknown;
  lockedAt?: Date | null;
  /**
   * Set on `type: 'single'` jobs only (the job name). A unique sparse index on it makes
   * concurrent `every()` upserts from two hosts converge on one document; the port has
   * no partial indexes, so a field only some documents carry does that job instead.
   */
  singleKey?: string;
  /** Set on jobs saved with an all-equality `unique()` query; see unique-key.ts. */
  uniqueKey?: string;
};

export type JobDocument = StoredDocument & JobFields;

const OPTIONAL_FIELDS = [
  'lastFinishedAt',
  'failedAt',
  'failCount',
  'failReason',
  'repeatTimezone',
  'lastRunAt',
  'repeatInterval',
  'repeatAt',
  'disabled',
  'progress',
  'debounceStartedAt',
  'fork',
  'startDate',
  'endDate',
  'skipDays',
] as const;

const DATE_FIELDS = new Set(['lastFinishedAt', 'failedAt', 'lastRunAt', 'debounceStartedAt', 'startDate', 'endDate']);

/** Agenda may hand over a date as a string or number (e.g. from a forked worker). */
function asDate(value: unknown): Date | null {
  if (value === undefined || value === null) return null;
  return value instanceof Date ? value : new Date(value as string | number);
}

/**
 * Fields the job processor owns. Agenda leaves them out of what `save()` hands us so a
 * user's save cannot undo a lock or a failure count; Agenda's MongoDB backend then writes
 * them as null anyway (clearing the lock of a running job). We write them only when a
 * save inserts the job, and update them only when they are actually given.
 */
const PROCESSOR_FIELDS = new Set(['lockedAt', 'lastRunAt', 'lastFinishedAt', 'failedAt', 'failCount', 'failReason', 'progress']);

export interface SaveFields {
  /** Written on insert and update. */
  set: JobFields;
  /** Processor fields the job did not carry: null on insert, untouched on update. */
  onInsert: Record<string, unknown>;
}

/** What `saveJob` writes: everything except `_id`, `unique`, `uniqueOpts`. */
export function toSaveFields(job: JobParameters, options: JobRepositoryOptions | undefined): SaveFields {
  const source = job as unknown as Record<string, unknown>;
  const all: Record<string, unknown> = {
    name: job.name,
    priority: job.priority,
    nextRunAt: asDate(job.nextRunAt),
    type: job.type,
    data: job.data,
    lockedAt: asDate(job.lockedAt),
  };
  for (const key of OPTIONAL_FIELDS) all[key] = DATE_FIELDS.has(key) ? asDate(source[key]) : (source[key] ?? null);
  all.lastModifiedBy = options?.lastModifiedBy ?? null;
  const set: Record<string, unknown> = {};
  const onInsert: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(all)) {
    if (PROCESSOR_FIELDS.has(key) && (source[key] === undefined || source[key] === null)) onInsert[key] = null;
    else set[key] = value;
  }
  return { set: set as JobFields, onInsert };
}

function orUndefined<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}

/** A stored document as Agenda's JobParameters (only Agenda's fields; ours stay behind). */
export function toJobParameters(doc: JobDocument): JobParameters {
  const d = doc as Record<string, unknown>;
  const job: JobParameters = {
    _id: toJobId(doc._id),
    name: doc.name,
    priority: doc.priority,
    nextRunAt: doc.nextRunAt ?? null,
    type: doc.type,
    data: doc.data,
    lockedAt: orUndefined(doc.lockedAt),
  };
  const target = job as unknown as Record<string, unknown>;
  for (const key of [...OPTIONAL_FIELDS, 'lastModifiedBy'] as const) target[key] = orUndefined(d[key]);
  return job;
}

/**
 * A job as the lock paths hand it to Agenda: its parameters plus the slot it was locked
 * for. Agenda's Job keeps unknown attrs but recomputes `nextRunAt` before the handler
 * runs, so without this the handler could not tell how late its run started. Never
 * stored: toSaveFields and saveJobState write named fields only.
 */
export type LockedJobParameters = JobParameters & { scheduledFor?: Date };

export function toLockedJob(doc: JobDocument): LockedJobParameters {
  const job: LockedJobParameters = toJobParameters(doc);
  if (doc.nextRunAt) job.scheduledFor = doc.nextRunAt;
  return job;
}

/** The slot a job run by Agenda was locked for (undefined for a job not locked by us). */
export function scheduledForOf(attrs: JobParameters): Date | undefined {
  const value = (attrs as LockedJobParameters).scheduledFor;
  return value instanceof Date ? value : undefined;
}
