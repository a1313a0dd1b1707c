/**
 * A short cache of remote answers per identical request, so a chat loop (or an impatient
 * user) does not spend quota twice. It lives in the store so every host behind one store
 * shares it. Keys hash the action and its resolved parameters (dates already filled
 * in); the tool's configuration is not in the key because saving it clears the cache.
 */
import { createHash } from 'node:crypto';
import { stableJson, type Clock, type Collection } from '../index.js';

export interface CacheDoc extends Record<string, unknown> {
  _id: string;
  /** The answer as JSON text: remote rows may hold keys a store refuses ('$…', dotted). */
  body: string;
  /** Epoch milliseconds: numbers compare the same on both stores. */
  expires_at_ms: number;
}

export class ResultCache {
  constructor(
    private readonly collection: Collection<CacheDoc>,
    private readonly clock: Clock,
  ) {}

  key(request: Record<string, unknown>): string {
    return createHash('sha256').update(stableJson(request)).digest('hex');
  }

  async get(key: string): Promise<Record<string, unknown> | null> {
    const doc = await this.collection.findOne({ _id: key });
    if (!doc) return null;
    if (doc.expires_at_ms <= this.clock.now().getTime()) {
      await this.collection.deleteOne({ _id: key, expires_at_ms: doc.expires_at_ms });
      return null;
    }
    return JSON.parse(doc.body) as Record<string, unknown>;
  }

  async put(key: string, body: Record<string, unknown>, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    const now = this.clock.now().getTime();
    await this.collection.updateOne(
      { _id: key },
      { $set: { body: JSON.stringify(body), expires_at_ms: now + ttlSeconds * 1000 } },
      { upsert: true },
    );
    // Expired entries of other requests go on the way out, so the collection stays small.
    await this.collection.deleteMany({ expires_at_ms: { $lte: now } });
  }

  async clear(): Promise<void> {
    await this.collection.deleteMany({});
  }
}
