import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { Collection, MongoClient } from 'mongodb';
import type { Limiter, LimiterFactory } from '../../core/security/limiter.js';

/** The collection rate-limiter-flexible's Mongo store keeps every counter in. */
const TABLE = 'rate_limits';

/**
 * A counter as rate-limiter-flexible's Mongo store writes it (`{key, points, expire}`,
 * `key` carrying the limiter's prefix). test/host/auth/mongo-limiters.test.ts reads the
 * library's own counters through this shape, so a library release that changes it fails there.
 */
interface CounterDocument {
  key: string;
  points: number;
  expire: Date | null;
}

/**
 * Reads asked for in one turn as one `find`: the failed-login throttle reads four counters
 * for every request with Basic credentials (per login and address, per address, per
 * login, the known-address mark), which were four round trips a request on MongoDB.
 */
class BatchedReads {
  private pending: Array<{ key: string; resolve: (doc: CounterDocument | null) => void; reject: (error: unknown) => void }> | null = null;

  constructor(private readonly collection: Collection<CounterDocument>) {}

  read(key: string): Promise<CounterDocument | null> {
    return new Promise((resolve, reject) => {
      if (!this.pending) {
        this.pending = [];
        queueMicrotask(() => this.flush());
      }
      this.pending.push({ key, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.pending ?? [];
    this.pending = null;
    const keys = [...new Set(batch.map((b) => b.key))];
    // The library's own read condition: a counter whose window has passed is no counter.
    this.collection
      .find({ key: { $in: keys }, $or: [{ expire: { $gt: new Date() } }, { expire: { $eq: null } }] })
      .toArray()
      .then(
        (docs) => {
          const byKey = new Map(docs.map((d) => [d.key, d]));
          for (const b of batch) b.resolve(byKey.get(b.key) ?? null);
        },
        (error: unknown) => {
          for (const b of batch) b.reject(error);
        },
      );
  }
}

/** The library's limiter for every write; reads go through the shared batch. */
class MongoLimiter implements Limiter {
  constructor(
    private readonly inner: RateLimiterMongo,
    private readonly reads: BatchedReads,
  ) {}

  get duration(): number {
    return this.inner.duration;
  }

  async get(key: string): Promise<RateLimiterRes | null> {
    const doc = await this.reads.read(this.inner.getKey(key));
    if (!doc) return null;
    // As the library's get answers: no expiry is -1 ms before the next window.
    const msBeforeNext = doc.expire !== null ? Math.max(new Date(doc.expire).getTime() - Date.now(), 0) : -1;
    return new RateLimiterRes(Math.max(this.inner.points - doc.points, 0), msBeforeNext, doc.points, doc.points === 0);
  }

  consume(key: string, points?: number): Promise<RateLimiterRes> {
    return this.inner.consume(key, points);
  }

  penalty(key: string, points?: number): Promise<RateLimiterRes> {
    return this.inner.penalty(key, points);
  }

  set(key: string, points: number, durationSeconds: number): Promise<RateLimiterRes> {
    return this.inner.set(key, points, durationSeconds);
  }

  delete(key: string): Promise<boolean> {
    return this.inner.delete(key);
  }
}

/**
 * Failed-login counters in MongoDB (rate-limiter-flexible's Mongo store), so every host
 * sharing the database sees the same counts: an attacker cannot spread guesses over hosts.
 * The limiters of one factory share their reads (see BatchedReads).
 */
export function mongoLimiters(store: { readonly driverClient: MongoClient; readonly database: string }): LimiterFactory {
  const reads = new BatchedReads(store.driverClient.db(store.database).collection<CounterDocument>(TABLE));
  return (name, points, duration) =>
    new MongoLimiter(
      new RateLimiterMongo({
        storeClient: store.driverClient,
        dbName: store.database,
        tableName: TABLE,
        keyPrefix: name,
        points,
        duration,
      }),
      reads,
    );
}
