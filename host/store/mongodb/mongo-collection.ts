import { newDocumentId as newId, storableProblem } from '../../../core/store/document-shape.js';
import { MongoBulkWriteError, type Collection as DriverCollection, type Document, type Filter as DriverFilter } from 'mongodb';
import {
  UnsupportedDocumentError,
  UnsupportedQueryError,
  type Collection,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type NewDocument,
  type StoredDocument,
  type TotalsGroup,
  type TotalsSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '../../../core/store/port.js';
import { firstWriteError, isIndexConflict, rethrow } from './map-error.js';
import { checkTotalsSpec, completeTotals } from '../../../core/store/totals-spec.js';
import {
  checkCount,
  checkPath,
  checkProjection,
  checkSort,
  idFromFilter,
  indexName,
  toMongoFilter as translateFilter,
  toMongoUpdate,
} from './query-translation.js';

type Doc = Record<string, unknown>;
/** How documents look to the driver: string ids (its default id type is ObjectId). */
export type DriverDocument = Document & { _id: string };
type Query = DriverFilter<DriverDocument>;

/** 24 hex characters, like the embedded store's ids (and an ObjectId's text). */

/** What a collection needs from its store: the driver collection, and a closed check. */
export interface CollectionHost {
  driverCollection(name: string): DriverCollection<DriverDocument>;
  ensureOpen(): void;
}

/**
 * One port collection over one MongoDB collection. Queries are checked and translated
 * before they reach the driver; duplicate keys come back as the port's DuplicateKeyError.
 */
export class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly host: CollectionHost,
    readonly name: string,
  ) {}

  private get driver(): DriverCollection<DriverDocument> {
    this.host.ensureOpen();
    return this.host.driverCollection(this.name);
  }

  private async run<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } catch (error) {
      rethrow(this.name, error);
    }
  }

  /** The embedded store's rules, so a document refused on a laptop is refused here too. */
  private checkStorable(doc: unknown): void {
    const problem = storableProblem(doc);
    if (problem) throw new UnsupportedDocumentError(this.name, problem);
  }

  /** Each value an update writes, at the depth its path puts it. */
  private checkUpdateValues(update: Update): void {
    for (const op of ['$set', '$setOnInsert', '$push'] as const) {
      for (const [path, value] of Object.entries((update as Record<string, Record<string, unknown> | undefined>)[op] ?? {})) {
        const problem = storableProblem(value, path.split('.').length);
        if (problem) throw new UnsupportedDocumentError(this.name, `${path}: ${problem}`);
      }
    }
  }

  async insertOne(doc: T & NewDocument): Promise<T & StoredDocument> {
    this.checkStorable(doc);
    const stored = withId(doc);
    await this.run(() => this.driver.insertOne({ ...stored }));
    return storedForm(stored);
  }

  async insertMany(docs: Array<T & NewDocument>): Promise<Array<T & StoredDocument>> {
    if (!Array.isArray(docs)) throw new UnsupportedQueryError('insertMany needs an array of documents');
    for (const doc of docs) this.checkStorable(doc);
    const stored = docs.map((doc) => withId(doc));
    if (stored.length === 0) return [];
    const driver = this.driver;
    try {
      await driver.insertMany(
        stored.map((d) => ({ ...d })),
        { ordered: true },
      );
    } catch (error) {
      await this.undoPartialInsert(driver, stored, error);
      rethrow(this.name, error);
    }
    return stored.map(storedForm);
  }

  async findOne(filter?: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<(T & StoredDocument) | null> {
    const query = toMongoFilter(filter);
    const sort = checkSort(options.sort);
    const skip = checkCount('skip', options.skip);
    const projection = checkProjection(options.projection);
    const found = await this.run(() => this.driver.findOne(query, { sort, skip, projection }));
    return found as unknown as (T & StoredDocument) | null;
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<Array<T & StoredDocument>> {
    const query = toMongoFilter(filter);
    const sort = checkSort(options.sort);
    const skip = checkCount('skip', options.skip);
    const limit = checkCount('limit', options.limit);
    const projection = checkProjection(options.projection);
    const found = await this.run(() => this.driver.find(query, { sort, skip, limit, projection }).toArray());
    return found as unknown as Array<T & StoredDocument>;
  }

  async count(filter?: Filter): Promise<number> {
    const query = toMongoFilter(filter);
    return this.run(() => this.driver.countDocuments(query));
  }

  /**
   * One `$match` + `$group` pipeline: the server adds up every matching document. Sums are
   * named by position (`s0`...), since a field path is no valid output name.
   */
  async totals(filter: Filter | undefined, spec: TotalsSpec): Promise<TotalsGroup[]> {
    const checked = checkTotalsSpec(spec, checkPath);
    const query = toMongoFilter(filter);
    const group: Document = { _id: checked.groupBy === undefined ? null : `$${checked.groupBy}`, n: { $sum: 1 } };
    checked.sum.forEach((path, i) => {
      group[`s${i}`] = { $sum: `$${path}` };
    });
    const rows = await this.run(() => this.driver.aggregate<Document>([{ $match: query }, { $group: group }]).toArray());
    const groups = rows.map((row) => ({
      key: (row._id ?? null) as TotalsGroup['key'],
      count: Number(row.n),
      sums: Object.fromEntries(checked.sum.map((path, i) => [path, Number(row[`s${i}`] ?? 0)])),
    }));
    return completeTotals(groups, checked);
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const changes = toMongoUpdate(update);
    this.checkUpdateValues(update);
    const query = toMongoFilter(filter);
    const upsert = options.upsert === true;
    const result = await this.run(() => this.driver.updateOne(query, upsert ? withInsertId(filter, changes) : changes, { upsert }));
    return toResult(result.matchedCount, result.modifiedCount, result.upsertedId);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const changes = toMongoUpdate(update);
    this.checkUpdateValues(update);
    const query = toMongoFilter(filter);
    const result = await this.run(() => this.driver.updateMany(query, changes));
    return toResult(result.matchedCount, result.modifiedCount, null);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<(T & StoredDocument) | null> {
    const changes = toMongoUpdate(update);
    this.checkUpdateValues(update);
    const query = toMongoFilter(filter);
    const sort = checkSort(options.sort);
    const projection = checkProjection(options.projection);
    const upsert = options.upsert === true;
    const found = await this.run(() =>
      this.driver.findOneAndUpdate(query, upsert ? withInsertId(filter, changes) : changes, {
        sort,
        projection,
        upsert,
        // The port's default is 'after'; the driver's is 'before'.
        returnDocument: options.returnDocument ?? 'after',
      }),
    );
    return found as unknown as (T & StoredDocument) | null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    const query = toMongoFilter(filter);
    const result = await this.run(() => this.driver.deleteOne(query));
    return result.deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const query = toMongoFilter(filter);
    const result = await this.run(() => this.driver.deleteMany(query));
    return result.deletedCount;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const name = indexName(spec.fields, spec.name);
    // Only unique and sparse: partial, TTL and collation indexes are outside the port.
    const options: { name: string; unique?: true; sparse?: true } = { name };
    if (spec.unique) options.unique = true;
    if (spec.sparse) options.sparse = true;
    try {
      await this.driver.createIndex(spec.fields, options);
    } catch (error) {
      // An index of that name or those keys already exists with other options. The
      // embedded store keeps the existing index in that case (CREATE INDEX IF NOT EXISTS);
      // doing the same keeps a boot that works on a laptop from failing in production.
      if (isIndexConflict(error)) return;
      rethrow(this.name, error);
    }
  }

  /**
   * An ordered insertMany stops at the first refused document but keeps the ones before
   * it. The embedded store inserts all or none, so remove this call's earlier documents
   * (their ids are this call's own: had one existed, the insert would have stopped there).
   */
  private async undoPartialInsert(driver: DriverCollection<DriverDocument>, stored: DriverDocument[], error: unknown): Promise<void> {
    if (!(error instanceof MongoBulkWriteError)) return;
    const failedAt = firstWriteError(error)?.index;
    if (typeof failedAt !== 'number' || failedAt <= 0) return;
    const ids = stored.slice(0, failedAt).map((d) => String(d._id));
    await driver.deleteMany({ _id: { $in: ids } }).catch(() => undefined);
  }
}

function toMongoFilter(filter: Filter | undefined): Query {
  return translateFilter(filter) as Query;
}

/**
 * A copy of a document as a read gives it back: the client is set to ignore undefined
 * fields (they are not stored), and the driver stores an undefined array element as null.
 */
function storedForm<T>(doc: T): T {
  const copy = structuredClone(doc);
  const clean = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        if (node[i] === undefined) node[i] = null;
        else clean(node[i]);
      }
    } else if (node !== null && typeof node === 'object' && !(node instanceof Date) && !(node instanceof RegExp)) {
      const object = node as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        if (object[key] === undefined) delete object[key];
        else clean(object[key]);
      }
    }
  };
  clean(copy);
  return copy;
}

function withId<T extends Doc>(doc: T & NewDocument): T & StoredDocument {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new UnsupportedQueryError('A document must be an object');
  const id = doc._id ?? newId();
  if (typeof id !== 'string' || id.length === 0) throw new UnsupportedQueryError('_id must be a non-empty string');
  return { ...doc, _id: id } as T & StoredDocument;
}

/**
 * Without an `_id` from the filter, MongoDB would give an upserted document an ObjectId;
 * the port's ids are strings, so supply one that only an insert uses.
 */
function withInsertId(filter: Filter, changes: Document): Document {
  const id = idFromFilter(filter);
  if (id === undefined) return { ...changes, $setOnInsert: { ...(changes.$setOnInsert as Document | undefined), _id: newId() } };
  if (typeof id !== 'string' || id.length === 0) throw new UnsupportedQueryError('_id must be a non-empty string');
  return changes;
}

function toResult(matchedCount: number, modifiedCount: number, upsertedId: unknown): UpdateResult {
  const result: UpdateResult = { matchedCount, modifiedCount };
  if (upsertedId !== null && upsertedId !== undefined) result.upsertedId = String(upsertedId);
  return result;
}
