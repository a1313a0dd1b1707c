// Agenda's `saveJob`: the four ways a job reaches the store, with the semantics of
// Agenda's MongoDB backend:
//   - it has an _id: update that document (a removed job is handed back unchanged);
//   - type 'single' (`every()`): one document per name, upserted; a nextRunAt already due
//     is only written on insert, so re-declaring a schedule does not make it run again;
//   - a `unique()` query: upsert by that query (+ name), optionally insert-only or debounced;
//   - otherwise: insert.
import type { JobParameters, JobRepositoryOptions } from 'agenda';
import type { Collection, Filter, Update } from '../../core/store/port.js';
import { toJobParameters, toSaveFields, type JobDocument, type JobFields, type SaveFields } from './job-document.js';
import { assertUniqueQuery, uniqueKeyFor, upsertJob } from './unique-key.js';

export async function saveJob<DATA>(
  jobs: Collection<JobFields>,
  job: JobParameters<DATA>,
  options: JobRepositoryOptions | undefined,
): Promise<JobParameters<DATA>> {
  const now = new Date();
  const saved = await write(jobs, job as JobParameters, toSaveFields(job as JobParameters, options), now);
  return (saved ? toJobParameters(saved) : job) as JobParameters<DATA>;
}

/** $set plus $setOnInsert for an upsert (their fields never overlap). */
function upsertUpdate({ set, onInsert }: SaveFields): Update {
  return Object.keys(onInsert).length > 0 ? { $set: set, $setOnInsert: onInsert } : { $set: set };
}

async function write(jobs: Collection<JobFields>, job: JobParameters, fields: SaveFields, now: Date): Promise<JobDocument | null> {
  const { set } = fields;
  if (job._id) {
    return jobs.findOneAndUpdate({ _id: String(job._id), name: set.name }, { $set: set }, { returnDocument: 'after' });
  }
  if (set.type === 'single') {
    if (set.nextRunAt && set.nextRunAt <= now) {
      const { nextRunAt, ...rest } = set;
      fields = { set: rest as JobFields, onInsert: { ...fields.onInsert, nextRunAt } };
    }
    return upsertJob(jobs, { name: set.name, type: 'single' }, upsertUpdate(fields), 'singleKey', set.name);
  }
  if (job.unique) return saveUnique(jobs, job, fields, now);
  return jobs.insertOne({ ...fields.onInsert, ...set });
}

async function saveUnique(jobs: Collection<JobFields>, job: JobParameters, saveFields: SaveFields, now: Date): Promise<JobDocument> {
  const fields = saveFields.set;
  const unique: unknown = job.unique;
  assertUniqueQuery(unique);
  // The port refuses operators outside its subset ($where, $expr, ...) with
  // UnsupportedQueryError, so a caller-built unique() cannot run code on the server.
  const filter: Filter = { ...unique, name: fields.name };
  const key = uniqueKeyFor(fields.name, unique);
  const debounce = job.uniqueOpts?.debounce;
  if (!debounce) {
    const update: Update = job.uniqueOpts?.insertOnly ? { $setOnInsert: { ...saveFields.onInsert, ...fields } } : upsertUpdate(saveFields);
    return upsertJob(jobs, filter, update, 'uniqueKey', key);
  }
  const existing = await jobs.findOne(filter);
  if (existing) {
    const startedAt = (existing.debounceStartedAt as Date | null | undefined) ?? now;
    if (debounce.strategy === 'leading') {
      // Leading: the first save decides when it runs; later saves only refresh the data.
      fields.nextRunAt = existing.nextRunAt;
      fields.debounceStartedAt = startedAt;
    } else if (debounce.maxWait && now.getTime() - startedAt.getTime() >= debounce.maxWait) {
      fields.nextRunAt = now;
      fields.debounceStartedAt = null;
    } else {
      fields.nextRunAt = new Date(now.getTime() + debounce.delay);
      fields.debounceStartedAt = startedAt;
    }
    const updated = await jobs.findOneAndUpdate(filter, { $set: fields }, { returnDocument: 'after' });
    if (updated) return updated;
  } else if (debounce.strategy === 'leading') {
    fields.debounceStartedAt = now;
  } else {
    fields.nextRunAt = new Date(now.getTime() + debounce.delay);
    fields.debounceStartedAt = now;
  }
  return upsertJob(jobs, filter, upsertUpdate(saveFields), 'uniqueKey', key);
}
