/**
 * The DocumentStore port: the only way core, host services and plugins touch storage.
 *
 * Two adapters implement it (embedded SQLite and MongoDB) and one contract suite
 * (test/contracts/document-store.contract.ts) runs against both, so anything written
 * here is a promise both keep. The query language is a documented subset of MongoDB's,
 * with MongoDB's semantics where they are subtle:
 *   - `{ f: null }` and `{ f: { $eq: null } }` also match documents without `f`;
 *   - `$ne` / `$nin` match documents without the field;
 *   - equality / `$in` against an array field match when any element matches;
 *   - Dates are stored as Dates, come back as Dates and compare in time order;
 *   - ascending sort puts missing / null first, then numbers, then strings.
 * Not promised (so never used): multi-document transactions, partial or TTL indexes,
 * collations, text search, change streams. Multi-document writes are ordered so a crash
 * leaves nothing half-done (or a state boot repairs), expiry is a time field plus a
 * query, search is `$regex`. `bulkWrite` is one transaction on the embedded store and
 * ordered single-document writes on MongoDB, so callers order its writes the same way.
 */

/** A stored document. `_id` is a string; the adapter generates one when absent. */
export type StoredDocument = { _id: string } & Record<string, unknown>;
export type NewDocument = { _id?: string } & Record<string, unknown>;

export type Scalar = string | number | boolean | null | Date;

/** Operators allowed on one field. */
export interface FieldOperators {
  $eq?: unknown;
  $ne?: unknown;
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
  $in?: unknown[];
  $nin?: unknown[];
  $exists?: boolean;
  /** A RegExp, or a pattern string with `$options` (only the `i` flag is promised). */
  $regex?: RegExp | string;
  $options?: string;
}

/**
 * A filter: field paths (dot paths allowed, e.g. `context.flow_id`) mapped to a value
 * (equality) or to FieldOperators, plus `$and` / `$or` of sub-filters.
 */
export type Filter = {
  $and?: Filter[];
  $or?: Filter[];
} & { [path: string]: unknown };

/** Updates: `$set $unset $inc $push $pull`, dot paths allowed. */
export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, unknown>;
  $inc?: Record<string, number>;
  /** Append one value to an array field (created when missing). */
  $push?: Record<string, unknown>;
  /** Remove every element equal to the value from an array field. */
  $pull?: Record<string, unknown>;
  /** Fields set only when an upsert inserts. */
  $setOnInsert?: Record<string, unknown>;
}

export type SortSpec = Record<string, 1 | -1>;
/** Inclusion (`{a: 1}`) or exclusion (`{a: 0}`) projection; `_id` is kept unless `_id: 0`. */
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface FindOneAndUpdateOptions {
  sort?: SortSpec;
  upsert?: boolean;
  /** Default 'after'. */
  returnDocument?: 'before' | 'after';
  projection?: Projection;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  /** Set when an upsert inserted a document. */
  upsertedId?: string;
}

export interface IndexSpec {
  /** Field paths in order, 1 ascending / -1 descending. */
  fields: Record<string, 1 | -1>;
  unique?: boolean;
  /** A sparse index skips documents missing the (first) field; with unique, missing values never collide. */
  sparse?: boolean;
  /** Defaults to a name derived from the fields. */
  name?: string;
}

/**
 * What `totals` adds up: every matching document, never a page of them. A sum adds the
 * field's numbers; a missing, null or non-numeric value adds nothing (MongoDB's `$sum`).
 */
export interface TotalsSpec {
  /** Numeric field paths to sum. */
  sum?: string[];
  /**
   * One group per distinct value of this field (a field holding strings, numbers or
   * booleans; missing and null form one group, key null). Without it, one group: every
   * matching document, key null, count 0 when none match.
   */
  groupBy?: string;
}

export interface TotalsGroup {
  key: string | number | boolean | null;
  count: number;
  /** Per summed path; 0 when nothing in the group had a number there. */
  sums: Record<string, number>;
}

export interface Collection<T extends Record<string, unknown> = Record<string, unknown>> {
  readonly name: string;
  insertOne(doc: T & NewDocument): Promise<T & StoredDocument>;
  insertMany(docs: Array<T & NewDocument>): Promise<Array<T & StoredDocument>>;
  findOne(filter?: Filter, options?: Omit<FindOptions, 'limit'>): Promise<(T & StoredDocument) | null>;
  find(filter?: Filter, options?: FindOptions): Promise<Array<T & StoredDocument>>;
  count(filter?: Filter): Promise<number>;
  /**
   * Count and sums over every document the filter matches, computed by the store (SQL
   * `SUM` on the embedded store, an aggregate `$group` on MongoDB): exact however many
   * documents match, where adding up a `find` is only as exact as its limit. Groups come
   * in no promised order.
   */
  totals(filter: Filter | undefined, spec: TotalsSpec): Promise<TotalsGroup[]>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomic: two concurrent callers never both match and update the same document. */
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<(T & StoredDocument) | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  createIndex(spec: IndexSpec): Promise<void>;
}

export type StoreKind = 'embedded' | 'mongodb';

/** One write of a `bulkWrite`, on a named collection; its result is what the Collection method answers. */
export type BulkOp =
  | { collection: string; insertOne: { document: NewDocument } }
  | { collection: string; updateOne: { filter: Filter; update: Update; upsert?: boolean } }
  | { collection: string; findOneAndUpdate: { filter: Filter; update: Update; options?: FindOneAndUpdateOptions } }
  | { collection: string; deleteMany: { filter: Filter } };

/** Per op, in order: the stored document (insertOne), UpdateResult (updateOne), the document or null (findOneAndUpdate), the count deleted (deleteMany). */
export type BulkResult = StoredDocument | UpdateResult | number | null;

/** The bound on `nextId`'s `count`, checked the same way by every adapter. */
export const MAX_ID_BLOCK = 10_000;

export function checkIdCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_ID_BLOCK)
    throw new UnsupportedQueryError(`nextId count must be an integer from 1 to ${MAX_ID_BLOCK}`);
}

export interface DocumentStore {
  readonly kind: StoreKind;
  /**
   * True when this process is the only writer of the data (the embedded file held
   * exclusively, or in memory): what this process wrote is all there is, so a cache this
   * process invalidates on its own writes is exact. Absent or false: other hosts may write.
   */
  readonly singleWriter?: boolean;
  collection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): Collection<T>;
  /**
   * Next integer of a named sequence, starting at 1; atomic across callers and hosts.
   * With `count` (1–10,000), reserves that many consecutive integers in one write and
   * returns the first (a batch of inserts numbers itself without a write per document).
   */
  nextId(sequence: string, count?: number): Promise<number>;
  /**
   * Several writes, in order, possibly on several collections. Embedded: one transaction,
   * all or nothing (one commit instead of one per write). MongoDB: the writes one after
   * another, stopping at the first that fails (earlier ones stay), so callers order them
   * as for separate writes: a crash between two leaves a state the next start repairs.
   */
  bulkWrite(ops: BulkOp[]): Promise<BulkResult[]>;
  /** Resolves when the store answers; rejects with a reason when it cannot. */
  ping(): Promise<void>;
  /** How much room the data takes (retention, GET /metrics); absent where the store cannot tell. */
  space?(): Promise<StoreSpace | null>;
  /**
   * Gives the room deleted documents left back to the file system where the store keeps
   * it (embedded: SQLite's free pages); answers the bytes given back. `full` rewrites the
   * whole store (a maintenance window); otherwise at most `maxPages` pages go at a time.
   */
  giveSpaceBack?(options: { full?: boolean; maxPages?: number }): Promise<number>;
  /** The collections that exist (what a plugin purge looks for); absent where the store cannot tell. */
  collectionNames?(): Promise<string[]>;
  /** Removes a collection with its documents and indexes (a purged plugin's); nothing when it does not exist. */
  dropCollection?(name: string): Promise<void>;
  close(): Promise<void>;
}

/** The room a store's data takes. */
export interface StoreSpace {
  kind: StoreKind;
  /** Bytes the store takes (embedded: the database file's pages; MongoDB: storage and indexes). */
  bytes: number;
  /** Of those, bytes held free for reuse (embedded: the freelist); null where unknown. */
  freeBytes: number | null;
  /** Embedded: whether the file gives free pages back a few at a time (`incremental`) or only on a full vacuum (`none`). */
  autoVacuum?: 'none' | 'full' | 'incremental';
}

/** Thrown by insert / update / upsert when a unique index would be violated. */
export class DuplicateKeyError extends Error {
  readonly code = 'duplicate_key';
  constructor(
    readonly collection: string,
    readonly index: string,
    message?: string,
  ) {
    super(message ?? `Duplicate key in ${collection} (index ${index})`);
    this.name = 'DuplicateKeyError';
  }
}

/** Thrown for a filter or update outside the documented subset. */
export class UnsupportedQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedQueryError';
  }
}

/** Thrown by a write whose document either store could not keep (see `storableProblem`). */
export class UnsupportedDocumentError extends UnsupportedQueryError {
  constructor(
    readonly collection: string,
    readonly reason: string,
  ) {
    super(`A document for '${collection}' cannot be stored: ${reason}`);
    this.name = 'UnsupportedDocumentError';
  }
}
