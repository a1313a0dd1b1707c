/**
 * One sync per project at a time across hosts: a lease document in the store, taken with
 * a unique insert (or over an expired one), renewed while the sync runs, released by its
 * holder. A host that dies leaves a lease that lapses after `ttlMs`.
 */
import { DuplicateKeyError, type Collection } from '../../sdk/index.js';

export interface LeaseDoc extends Record<string, unknown> {
  _id: string;
  holder: string;
  expires_at: Date;
}

export class ProjectLeases {
  constructor(
    private readonly leases: Collection<LeaseDoc>,
    private readonly now: () => Date,
    private readonly ttlMs = 120_000,
  ) {}

  private expiry(): Date {
    return new Date(this.now().getTime() + this.ttlMs);
  }

  async acquire(termId: number, holder: string): Promise<boolean> {
    const _id = `project:${termId}`;
    try {
      await this.leases.insertOne({ _id, holder, expires_at: this.expiry() });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    // Held: ours again (a retried job), or lapsed.
    const taken = await this.leases.findOneAndUpdate(
      { _id, $or: [{ holder }, { expires_at: { $lt: this.now() } }] },
      { $set: { holder, expires_at: this.expiry() } },
    );
    return taken !== null;
  }

  async renew(termId: number, holder: string): Promise<void> {
    await this.leases.updateOne({ _id: `project:${termId}`, holder }, { $set: { expires_at: this.expiry() } });
  }

  async release(termId: number, holder: string): Promise<void> {
    await this.leases.deleteOne({ _id: `project:${termId}`, holder });
  }

  /** Every lease `holder` has (a job that will never release them: its host was killed). */
  async releaseAllOf(holder: string): Promise<number> {
    return this.leases.deleteMany({ holder });
  }
}
