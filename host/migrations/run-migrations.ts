/**
 * Runs a plugin's pending migration steps, once per store, before its setup. Every boot
 * reads the plugin's record first: nothing pending, nothing locked. Otherwise the host
 * takes the plugin's lock (waiting while another host holds it), reads what is applied
 * again under it, and runs what is left in order, recording each step as it ends. A step
 * that throws is recorded as the plugin's failure and stops start-up, naming the plugin
 * and the step; no later step runs, and the next boot starts again from that step.
 */
import { PluginError } from '../../core/errors.js';
import type { Clock } from '../../core/kernel/clock.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { PluginStore } from '../../core/kernel/plugin-services.js';
import type { DocumentStore } from '../../core/store/port.js';
import type { PluginMigration } from '../../sdk/migrations.js';
import { takeLock, type HeldLock } from './migration-lock.js';
import { migrationRecords, type MigrationRecord } from './migration-record.js';

/** 30 s: a host killed mid-migration holds the others back at most this long. */
export const MIGRATION_LEASE_MS = 30_000;

export interface MigrationRunnerOptions {
  store: DocumentStore;
  clock: Clock;
  /** Names this host in the lock. */
  owner: string;
  leaseMs?: number;
  pollMs?: number;
  /** The plugin's own store and logger: what its setup gets from `services.store` / `services.logger`. */
  storeOf(pluginId: string): Promise<PluginStore>;
  logOf(pluginId: string): Promise<Logger>;
}

export function migrationRunner(options: MigrationRunnerOptions) {
  const records = migrationRecords(options.store);
  return async function runMigrations(pluginId: string, steps: ReadonlyArray<PluginMigration>): Promise<string[]> {
    if (steps.length === 0) return [];
    const seen = await records.findOne({ _id: pluginId });
    if (seen && pendingOf(steps, seen).length === 0) return [];
    const log = await options.logOf(pluginId);
    const lock = await takeLock(pluginId, {
      records,
      clock: options.clock,
      log,
      owner: options.owner,
      leaseMs: options.leaseMs ?? MIGRATION_LEASE_MS,
      pollMs: options.pollMs ?? 200,
    });
    const ran: string[] = [];
    try {
      const store = await options.storeOf(pluginId);
      // Read under the lock: a host that held it before us may have applied them all.
      for (const step of pendingOf(steps, lock.record)) {
        await runStep(pluginId, step, { lock, store, log, records, clock: options.clock, owner: options.owner });
        ran.push(step.id);
      }
    } finally {
      lock.idle();
      await records.updateOne({ _id: pluginId, 'lock.owner': options.owner }, { $set: { lock: null } });
    }
    return ran;
  };
}

function pendingOf(steps: ReadonlyArray<PluginMigration>, record: MigrationRecord): PluginMigration[] {
  const applied = new Set(record.applied);
  return steps.filter((step) => !applied.has(step.id));
}

interface StepDeps {
  lock: HeldLock;
  store: PluginStore;
  log: Logger;
  records: ReturnType<typeof migrationRecords>;
  clock: Clock;
  owner: string;
}

async function runStep(pluginId: string, step: PluginMigration, deps: StepDeps): Promise<void> {
  const { lock, records, clock, owner } = deps;
  const log = deps.log.child({ migration: step.id });
  await lock.running(step.id);
  const started = clock.now().getTime();
  log.info(`Running migration '${step.id}' of plugin '${pluginId}'${step.description ? `: ${step.description}` : ''}`);
  try {
    await step.up({ pluginId, stepId: step.id, store: deps.store, log });
  } catch (error) {
    lock.idle();
    const message = error instanceof Error ? error.message : String(error);
    await records.updateOne({ _id: pluginId, 'lock.owner': owner }, { $set: { failed: { step: step.id, message, at: clock.now() } } });
    throw new PluginError(pluginId, `migration '${step.id}' failed: ${message} (start-up stopped; no later step ran)`, { cause: error });
  }
  lock.idle();
  const now = clock.now();
  const recorded = lock.lost
    ? { matchedCount: 0 }
    : await records.updateOne(
        { _id: pluginId, 'lock.owner': owner },
        { $push: { applied: step.id }, $set: { last: step.id, updated_at: now, failed: null, 'lock.step': null } },
      );
  if (recorded.matchedCount === 0)
    throw new PluginError(
      pluginId,
      `lost the migration lock during migration '${step.id}' (its lease lapsed and another host took it over; that host runs the step again)`,
    );
  log.info({ ms: now.getTime() - started }, `Migration '${step.id}' of plugin '${pluginId}' applied`);
}
