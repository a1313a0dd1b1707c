import { performance } from 'node:perf_hooks';
import type { SyncHook } from 'tapable';
import { callMeasuringHook, isTapped, type StoreOperationTiming } from '../../core/kernel/hooks.js';
import type { Logger } from '../../core/kernel/logger.js';
import type {
  BulkOp,
  BulkResult,
  Collection,
  DocumentStore,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  NewDocument,
  StoredDocument,
  TotalsGroup,
  TotalsSpec,
  Update,
  UpdateOptions,
  UpdateResult,
  StoreSpace,
} from '../../core/store/port.js';

/** The hook, and where a tap that throws is reported (never to the store's caller). */
interface Timing {
  hook: SyncHook<[StoreOperationTiming]>;
  log: Logger;
}

/**
 * Runs `operation` and reports how long it took to the `storeOperationTimed` hook. When
 * nothing is tapped, the call is passed straight through: a host without a listener pays
 * one check per operation, no promise and no clock read.
 */
function timed<R>(timing: Timing, collection: string, operation: StoreOperationTiming['operation'], run: () => Promise<R>): Promise<R> {
  const { hook, log } = timing;
  if (!isTapped(hook)) return run();
  const started = performance.now();
  const report = (failed: boolean) =>
    callMeasuringHook(hook, { collection, operation, durationMs: performance.now() - started, failed }, (error) =>
      log.warn({ err: error }, 'A storeOperationTimed tap failed'),
    );
  let pending: Promise<R>;
  try {
    pending = run();
  } catch (error) {
    // An adapter that throws before its promise (a bad argument) is a failed operation too.
    report(true);
    throw error;
  }
  return pending.then(
    (value) => {
      report(false);
      return value;
    },
    (error: unknown) => {
      report(true);
      throw error;
    },
  );
}

class TimedCollection<T extends Record<string, unknown>> implements Collection<T> {
  readonly name: string;

  constructor(
    private readonly inner: Collection<T>,
    private readonly timing: Timing,
  ) {
    this.name = inner.name;
  }

  insertOne(doc: T & NewDocument): Promise<T & StoredDocument> {
    return timed(this.timing, this.name, 'insertOne', () => this.inner.insertOne(doc));
  }
  insertMany(docs: Array<T & NewDocument>): Promise<Array<T & StoredDocument>> {
    return timed(this.timing, this.name, 'insertMany', () => this.inner.insertMany(docs));
  }
  findOne(filter?: Filter, options?: Omit<FindOptions, 'limit'>): Promise<(T & StoredDocument) | null> {
    return timed(this.timing, this.name, 'findOne', () => this.inner.findOne(filter, options));
  }
  find(filter?: Filter, options?: FindOptions): Promise<Array<T & StoredDocument>> {
    return timed(this.timing, this.name, 'find', () => this.inner.find(filter, options));
  }
  count(filter?: Filter): Promise<number> {
    return timed(this.timing, this.name, 'count', () => this.inner.count(filter));
  }
  totals(filter: Filter | undefined, spec: TotalsSpec): Promise<TotalsGroup[]> {
    return timed(this.timing, this.name, 'totals', () => this.inner.totals(filter, spec));
  }
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult> {
    return timed(this.timing, this.name, 'updateOne', () => this.inner.updateOne(filter, update, options));
  }
  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return timed(this.timing, this.name, 'updateMany', () => this.inner.updateMany(filter, update));
  }
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<(T & StoredDocument) | null> {
    return timed(this.timing, this.name, 'findOneAndUpdate', () => this.inner.findOneAndUpdate(filter, update, options));
  }
  deleteOne(filter: Filter): Promise<number> {
    return timed(this.timing, this.name, 'deleteOne', () => this.inner.deleteOne(filter));
  }
  deleteMany(filter: Filter): Promise<number> {
    return timed(this.timing, this.name, 'deleteMany', () => this.inner.deleteMany(filter));
  }
  createIndex(spec: IndexSpec): Promise<void> {
    return timed(this.timing, this.name, 'createIndex', () => this.inner.createIndex(spec));
  }
}

/**
 * The store the host's services and plugins use: the adapter's, with every operation
 * reported to the `storeOperationTimed` hook (the metrics plugin's store latency). The
 * host keeps the adapter itself for what is adapter-specific (blob buckets, MongoDB's
 * shared rate limiters, the scheduler, closing).
 */
export class TimedStore implements DocumentStore {
  readonly kind: DocumentStore['kind'];
  readonly singleWriter?: boolean;
  private readonly collections = new Map<string, TimedCollection<Record<string, unknown>>>();

  constructor(
    private readonly inner: DocumentStore,
    private readonly timing: Timing,
  ) {
    this.kind = inner.kind;
    this.singleWriter = inner.singleWriter;
  }

  collection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      // The adapter validates the name (and throws) before anything is cached.
      collection = new TimedCollection(this.inner.collection(name), this.timing);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  nextId(sequence: string, count?: number): Promise<number> {
    return timed(this.timing, '', 'nextId', () => this.inner.nextId(sequence, count));
  }

  bulkWrite(ops: BulkOp[]): Promise<BulkResult[]> {
    return timed(this.timing, '', 'bulkWrite', () => this.inner.bulkWrite(ops));
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async space(): Promise<StoreSpace | null> {
    return this.inner.space ? this.inner.space() : null;
  }

  async collectionNames(): Promise<string[]> {
    return this.inner.collectionNames ? this.inner.collectionNames() : [];
  }

  async dropCollection(name: string): Promise<void> {
    await this.inner.dropCollection?.(name);
  }

  async giveSpaceBack(options: { full?: boolean; maxPages?: number }): Promise<number> {
    return this.inner.giveSpaceBack ? this.inner.giveSpaceBack(options) : 0;
  }
}
