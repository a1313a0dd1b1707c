import { DuplicateKeyError, type Collection, type Filter, type NewDocument, type StoredDocument } from '../../core/store/port.js';

/**
 * A Map-backed stand-in for a store collection that understands only `_id` lookups,
 * insertOne and deleteOne: enough for code that keeps a few well-known documents
 * (the vault canary). Anything else throws, so a test never silently relies on a
 * behaviour the fake does not have.
 */
export interface FakeCollection extends Collection {
  readonly docs: Map<string, StoredDocument>;
  /** Runs before each insert; a test uses it to let a "concurrent host" win the race. */
  beforeInsert?: (doc: NewDocument) => void;
}

export function fakeCollection(name = 'meta'): FakeCollection {
  const docs = new Map<string, StoredDocument>();
  let generated = 0;
  const unsupported = (method: string) => () => Promise.reject(new Error(`fakeCollection does not implement ${method}`));
  const idOf = (filter: Filter | undefined): string => {
    const keys = Object.keys(filter ?? {});
    if (keys.length !== 1 || typeof filter?._id !== 'string') throw new Error('fakeCollection only matches { _id: string }');
    return filter._id;
  };
  const copy = <T>(value: T): T => structuredClone(value);

  const collection: FakeCollection = {
    name,
    docs,
    async insertOne(doc) {
      collection.beforeInsert?.(doc);
      const id = doc._id ?? `fake-${++generated}`;
      if (docs.has(id)) throw new DuplicateKeyError(name, '_id_');
      const stored = { ...copy(doc), _id: id } as StoredDocument;
      docs.set(id, stored);
      return copy(stored);
    },
    async findOne(filter) {
      const found = docs.get(idOf(filter));
      return found ? copy(found) : null;
    },
    async deleteOne(filter) {
      return docs.delete(idOf(filter)) ? 1 : 0;
    },
    insertMany: unsupported('insertMany'),
    find: unsupported('find'),
    count: unsupported('count'),
    totals: unsupported('totals'),
    updateOne: unsupported('updateOne'),
    updateMany: unsupported('updateMany'),
    findOneAndUpdate: unsupported('findOneAndUpdate'),
    deleteMany: unsupported('deleteMany'),
    createIndex: unsupported('createIndex'),
  };
  return collection;
}
