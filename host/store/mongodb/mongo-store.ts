import { MongoClient, type Collection as DriverCollection, type Db } from 'mongodb';
import {
  checkIdCount,
  UnsupportedQueryError,
  type BulkOp,
  type BulkResult,
  type Collection,
  type DocumentStore,
  type StoreSpace,
} from '../../../core/store/port.js';
import { parseMongoUrl, type MongoUrlInfo } from './connection-url.js';
import { isDuplicateKey } from './map-error.js';
import { MongoCollection, type CollectionHost, type DriverDocument } from './mongo-collection.js';
import { checkCollectionName } from './query-translation.js';

export interface MongoStoreOptions {
  /** `mongodb://` or `mongodb+srv://`; the path names the database (default `flowhost`). */
  url: string;
  /** How long to look for a usable server, at start-up and for each operation later. Default 5000. */
  serverSelectionTimeoutMs?: number;
}

/**
 * Sequences for nextId live in this collection, one document `{ _id: sequence, value }`
 * each. The leading underscore keeps it apart from application collections (a plugin
 * may well call one of its own "counters").
 */
export const SEQUENCES_COLLECTION = '_sequences';

const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;
/** A first nextId on a new sequence may race another host's first upsert; the loser retries. */
const SEQUENCE_UPSERT_ATTEMPTS = 5;

export class MongoStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MongoStoreUnavailableError';
  }
}

/**
 * The MongoDB DocumentStore: collections map one to one, documents keep string `_id`s,
 * and atomicity is MongoDB's own (single-document updates, findOneAndUpdate), which is
 * what lets several hosts share one database.
 */
export class MongoStore implements DocumentStore, CollectionHost {
  readonly kind = 'mongodb' as const;
  private readonly collections = new Map<string, MongoCollection<Record<string, unknown>>>();
  private readonly db: Db;
  private closed = false;

  /** Use openMongoStore: it connects first, so a bad URL fails at start-up. */
  constructor(
    private readonly client: MongoClient,
    private readonly url: MongoUrlInfo,
  ) {
    this.db = client.db(url.database);
  }

  /** The database name, and the URL without its password: for start-up logs. */
  get database(): string {
    return this.url.database;
  }

  get location(): string {
    return this.url.redacted;
  }

  collection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): Collection<T> {
    checkCollectionName(name);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MongoCollection(this, name);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  async nextId(sequence: string, count = 1): Promise<number> {
    this.ensureOpen();
    checkIdCount(count);
    const sequences = this.db.collection<{ _id: string; value: number }>(SEQUENCES_COLLECTION);
    for (let attempt = 1; ; attempt++) {
      try {
        const doc = await sequences.findOneAndUpdate(
          { _id: sequence },
          { $inc: { value: count } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!doc || typeof doc.value !== 'number') throw new Error(`Sequence ${sequence} returned no value`);
        return doc.value - count + 1;
      } catch (error) {
        if (!isDuplicateKey(error) || attempt >= SEQUENCE_UPSERT_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * The writes in order, each a single-document (or deleteMany) write of its own, stopping
   * at the first that fails. Not a transaction (the port promises none on MongoDB):
   * callers order the writes so a crash between two leaves a state the next start repairs.
   */
  async bulkWrite(ops: BulkOp[]): Promise<BulkResult[]> {
    this.ensureOpen();
    if (!Array.isArray(ops)) throw new UnsupportedQueryError('bulkWrite needs an array of ops');
    for (const op of ops) if (!op || typeof op !== 'object') throw new UnsupportedQueryError('A bulkWrite op must be an object');
    const results: BulkResult[] = [];
    for (const op of ops) {
      const collection = this.collection(op.collection);
      if ('insertOne' in op) results.push(await collection.insertOne(op.insertOne.document));
      else if ('updateOne' in op)
        results.push(await collection.updateOne(op.updateOne.filter, op.updateOne.update, { upsert: op.updateOne.upsert }));
      else if ('findOneAndUpdate' in op)
        results.push(
          await collection.findOneAndUpdate(op.findOneAndUpdate.filter, op.findOneAndUpdate.update, op.findOneAndUpdate.options),
        );
      else if ('deleteMany' in op) results.push(await collection.deleteMany(op.deleteMany.filter));
      else throw new UnsupportedQueryError('A bulkWrite op needs one of insertOne, updateOne, findOneAndUpdate, deleteMany');
    }
    return results;
  }

  async ping(): Promise<void> {
    this.ensureOpen();
    try {
      await this.db.command({ ping: 1 });
    } catch (error) {
      throw new MongoStoreUnavailableError(`MongoDB at ${this.url.hosts} does not answer: ${this.url.scrub((error as Error).message)}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  /**
   * dbStats: storage and index bytes. WiredTiger keeps the room deleted documents leave
   * and reuses it (compact gives it back; an operator's choice), so nothing is given back here.
   */
  async space(): Promise<StoreSpace | null> {
    this.ensureOpen();
    const stats = await this.db.command({ dbStats: 1 });
    const bytes = Number(stats.storageSize ?? 0) + Number(stats.indexSize ?? 0);
    const free = stats.freeStorageSize === undefined ? null : Number(stats.freeStorageSize);
    return Number.isFinite(bytes) ? { kind: 'mongodb', bytes, freeBytes: free } : null;
  }

  async collectionNames(): Promise<string[]> {
    this.ensureOpen();
    return (await this.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  }

  async dropCollection(name: string): Promise<void> {
    this.ensureOpen();
    await this.db
      .collection(name)
      .drop()
      .catch((error: { codeName?: string }) => {
        if (error?.codeName !== 'NamespaceNotFound') throw error;
      });
  }

  /** Drops the whole database. For tests that open a throw-away database per run. */
  async dropDatabase(): Promise<void> {
    this.ensureOpen();
    await this.db.dropDatabase();
  }

  /** The driver client, for libraries that speak to MongoDB themselves (rate-limiter-flexible's store). */
  get driverClient(): MongoClient {
    return this.client;
  }

  /** The driver database, for GridFS blob buckets. */
  get driverDb(): Db {
    this.ensureOpen();
    return this.db;
  }

  /** @internal */
  driverCollection(name: string): DriverCollection<DriverDocument> {
    return this.db.collection(name);
  }

  /** @internal */
  ensureOpen(): void {
    if (this.closed) throw new Error('The MongoDB store is closed');
  }
}

/**
 * Connects and resolves once a server answers. An unreachable or refusing server fails
 * within serverSelectionTimeoutMs with a message naming host and port, never the password.
 */
export async function openMongoStore(options: MongoStoreOptions): Promise<MongoStore> {
  const url = parseMongoUrl(options.url);
  const timeout = options.serverSelectionTimeoutMs ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
  let client: MongoClient;
  try {
    client = new MongoClient(options.url, {
      serverSelectionTimeoutMS: timeout,
      // Like the embedded store, a property set to undefined is not stored (the driver would store null).
      ignoreUndefined: true,
      appName: 'flowhost',
    });
  } catch (error) {
    throw new MongoStoreUnavailableError(`Invalid MongoDB URL ${url.redacted}: ${url.scrub((error as Error).message)}`);
  }
  try {
    await client.connect();
    await client.db(url.database).command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new MongoStoreUnavailableError(
      `Cannot use MongoDB at ${url.hosts} (database ${url.database}) within ${timeout} ms: ${url.scrub((error as Error).message)}`,
    );
  }
  return new MongoStore(client, url);
}
