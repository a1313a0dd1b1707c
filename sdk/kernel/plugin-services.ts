/**
 * The shapes of the plugin-scoped services: each plugin gets its own instance, built
 * knowing the plugin's id, so what it stores, schedules and logs is its own.
 */
import type { Collection, DocumentStore } from '../store/port.js';

/** A plugin's collections: names it declared in `collections` as is, any other namespaced to it. */
export interface PluginStore {
  readonly kind: DocumentStore['kind'];
  collection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): Collection<T>;
  /** The next integer of a sequence (1, 2, ...), namespaced like collections; with `count`, the first of that many consecutive ones. */
  nextId(sequence: string, count?: number): Promise<number>;
}

export interface ScheduledJobContext<D> {
  readonly name: string;
  readonly data: D;
  /** Agenda's run count for this job, starting at 1. */
  readonly attempt: number;
}

export interface JobOptions {
  /** How many runs of this job may run at once in one process (default 1). */
  concurrency?: number;
  /** After how long a run's lock lapses, so another host may retry it (default 10 minutes). */
  lockLifetimeMs?: number;
}

/**
 * A plugin's background jobs, on the host's Agenda (in the store, so they survive restarts
 * and spread over hosts). Names are namespaced to the plugin: 'sync' is 'docsync:sync'.
 */
export interface PluginScheduler {
  define<D extends Record<string, unknown> = Record<string, unknown>>(
    name: string,
    run: (job: ScheduledJobContext<D>) => Promise<void> | void,
    options?: JobOptions,
  ): void;
  /**
   * Repeats every `interval` ('5 minutes', '1 hour', a cron line); first run after one interval.
   * Declared during setup, it is saved as the host starts its scheduler (after it listens).
   */
  every(interval: string, name: string, data?: Record<string, unknown>): Promise<void>;
  /** One run as soon as a worker is free. */
  now(name: string, data?: Record<string, unknown>): Promise<void>;
  /** One run at `when`. */
  at(when: Date, name: string, data?: Record<string, unknown>): Promise<void>;
  /** Removes every scheduled run of `name`; returns how many. */
  cancel(name: string): Promise<number>;
}
