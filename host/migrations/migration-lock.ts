/**
 * The store-wide lock one host holds while it runs a plugin's migration steps. Taken with
 * a conditional update (free, or its lease lapsed) or, the first time, a unique insert of
 * the plugin's record: both atomic on either store, so two hosts never both hold it.
 * A lease, not a flag: a host killed mid-step stops renewing, and after the lease another
 * host takes the lock over (and runs that step again, so steps are written re-runnable).
 */
import type { Clock } from '../../core/kernel/clock.js';
import type { Logger } from '../../core/kernel/logger.js';
import { DuplicateKeyError, type Collection } from '../../core/store/port.js';
import type { MigrationLock, MigrationRecord } from './migration-record.js';

export interface LockOptions {
  records: Collection<MigrationRecord>;
  clock: Clock;
  log: Logger;
  /** This host, as other hosts and `flowhost plugins migrations` see the holder. */
  owner: string;
  leaseMs: number;
  /** How often a host waiting for another's lock looks again. */
  pollMs: number;
}

export interface HeldLock {
  /** The record as it was when the lock was taken (what is applied already). */
  readonly record: MigrationRecord;
  /** A renewal found the lock no longer ours (our lease lapsed and another host took it). */
  readonly lost: boolean;
  /** Marks the step now running and renews the lease every third of it until `idle`. */
  running(step: string): Promise<void>;
  idle(): void;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Waits until this host holds `plugin`'s lock (another host's ends or lapses), then holds it. */
export async function takeLock(plugin: string, options: LockOptions): Promise<HeldLock> {
  const { records, clock, log, owner, leaseMs } = options;
  let waitingFor: string | null = null;
  for (;;) {
    const now = clock.now();
    const lock: MigrationLock = { owner, since: now, expires_at: new Date(now.getTime() + leaseMs), step: null };
    const before = await records.findOneAndUpdate(
      { _id: plugin, $or: [{ lock: null }, { 'lock.expires_at': { $lt: now } }] },
      { $set: { lock } },
      { returnDocument: 'before' },
    );
    if (before) {
      if (before.lock)
        log.warn(
          { previous_owner: before.lock.owner, step: before.lock.step, expired_at: before.lock.expires_at },
          `Took over the migration lock of plugin '${plugin}' from '${before.lock.owner}', whose lease lapsed${before.lock.step ? ` during step '${before.lock.step}' (it runs again)` : ''}`,
        );
      return hold(plugin, before, options);
    }
    const existing = await records.findOne({ _id: plugin });
    if (!existing) {
      const fresh: MigrationRecord = { _id: plugin, applied: [], last: null, updated_at: now, failed: null, lock };
      try {
        await records.insertOne(fresh);
        return hold(plugin, { ...fresh, lock: null }, options);
      } catch (error) {
        if (error instanceof DuplicateKeyError) continue; // another host inserted it first: look again
        throw error;
      }
    }
    const holder = existing.lock?.owner ?? '?';
    if (waitingFor !== holder) {
      log.info({ holder, expires_at: existing.lock?.expires_at }, `Waiting for '${holder}' to finish the migrations of plugin '${plugin}'`);
      waitingFor = holder;
    }
    await sleep(options.pollMs);
  }
}

function hold(plugin: string, record: MigrationRecord, options: LockOptions): HeldLock {
  const { records, clock, owner, leaseMs } = options;
  let lost = false;
  let timer: NodeJS.Timeout | undefined;
  const renew = async () => {
    try {
      const result = await records.updateOne(
        { _id: plugin, 'lock.owner': owner },
        { $set: { 'lock.expires_at': new Date(clock.now().getTime() + leaseMs) } },
      );
      if (result.matchedCount === 0) lost = true;
    } catch (error) {
      options.log.warn({ err: error }, `Could not renew the migration lock of plugin '${plugin}'`);
    }
  };
  return {
    record,
    get lost() {
      return lost;
    },
    async running(step) {
      clearInterval(timer);
      const at = new Date(clock.now().getTime() + leaseMs);
      const result = await records.updateOne({ _id: plugin, 'lock.owner': owner }, { $set: { 'lock.step': step, 'lock.expires_at': at } });
      if (result.matchedCount === 0) lost = true;
      timer = setInterval(() => void renew(), Math.max(20, Math.floor(leaseMs / 3)));
      timer.unref();
    },
    idle() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
