// Agenda's `unique()` / `every()` upserts are a findOneAndUpdate with upsert, which alone
// lets two hosts that save the same schedule at the same moment both insert (MongoDB
// behaves the same without a unique index). The port has unique sparse indexes but no
// partial ones, so we store a key field only on documents that need it and index that:
// the second insert fails with DuplicateKeyError and is retried as an update of the
// document that holds the key.
import { DuplicateKeyError, type Collection, type Filter, type Update } from '../../core/store/port.js';
import type { JobDocument, JobFields } from './job-document.js';

export type KeyField = 'singleKey' | 'uniqueKey';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A stable key for a `unique()` query made only of `path: scalar` equalities (what
 * Flowhost uses: `{ 'data.flowId': 7 }`); undefined for anything with operators or
 * nested objects, which then upserts without the index's protection (as the reference does).
 */
export function uniqueKeyFor(name: string, unique: Record<string, unknown>): string | undefined {
  const entries = Object.entries(unique);
  if (entries.length === 0) return undefined;
  for (const [path, value] of entries) {
    if (path.startsWith('$')) return undefined;
    if (!['string', 'number', 'boolean'].includes(typeof value)) return undefined;
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([name, entries]);
}

/** Throws when a caller-supplied `unique()` query is not a plain object. */
export function assertUniqueQuery(unique: unknown): asserts unique is Record<string, unknown> {
  if (!isPlainObject(unique)) throw new TypeError('unique() needs a plain object of field paths');
}

/**
 * findOneAndUpdate with upsert; when `key` is given it is written on the document and a
 * lost insert race is retried once against the document holding the key.
 */
export async function upsertJob(
  jobs: Collection<JobFields>,
  filter: Filter,
  update: Update,
  keyField: KeyField,
  key: string | undefined,
): Promise<JobDocument> {
  const keyed: Update = key === undefined ? update : withKey(update, keyField, key);
  try {
    const doc = await jobs.findOneAndUpdate(filter, keyed, { upsert: true, returnDocument: 'after' });
    if (!doc) throw new Error('findOneAndUpdate with upsert returned no document');
    return doc;
  } catch (error) {
    if (!(error instanceof DuplicateKeyError) || key === undefined) throw error;
    const doc = await jobs.findOneAndUpdate({ [keyField]: key }, keyed, { returnDocument: 'after' });
    if (!doc) throw error;
    return doc;
  }
}

function withKey(update: Update, keyField: KeyField, key: string): Update {
  // insertOnly updates are $setOnInsert only; the key belongs with the inserted fields then.
  if (update.$set) return { ...update, $set: { ...update.$set, [keyField]: key } };
  return { ...update, $setOnInsert: { ...update.$setOnInsert, [keyField]: key } };
}
