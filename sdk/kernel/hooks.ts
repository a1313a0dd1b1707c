import { AsyncSeriesHook, SyncHook, type Tap } from 'tapable';
import type { InterruptedWork } from './interrupted-work.js';

/** Passed to the lifecycle hooks. */
export interface LifecycleInfo {
  /** The host's base URL once listening (empty before). */
  url: string;
}

/** A step that ran, for measuring (the `stepTimed` hook). */
export interface StepTiming {
  jobId: number;
  flowId: number | null;
  stepType: string;
  handlerSlug: string | null;
  status: 'completed' | 'failed';
  durationMs: number;
  itemsIn: number;
  itemsOut: number;
}

/** A scheduled run that started, for measuring (the `scheduledRunStarted` hook). */
export interface ScheduledRunTiming {
  flowId: number;
  jobId: number;
  /** The slot the schedule gave this run. */
  scheduledFor: Date;
  /** From the slot to the run's job record being created (never below 0). */
  latenessMs: number;
}

/** An answered HTTP request, for measuring (the `requestFinished` hook). */
export interface RequestTiming {
  method: string;
  /** The route's path pattern (`/api/automation/v1/flows/{flow_id}`), or `unmatched`. */
  route: string;
  /** The plugin that contributed the route ('host' for the host's own). */
  owner: string;
  status: number;
  durationMs: number;
}

/** A store operation that finished, for measuring (the `storeOperationTimed` hook). */
export interface StoreOperationTiming {
  /** The collection; '' for the store-wide `nextId` and `bulkWrite`. */
  collection: string;
  operation:
    | 'insertOne'
    | 'insertMany'
    | 'findOne'
    | 'find'
    | 'count'
    | 'totals'
    | 'updateOne'
    | 'updateMany'
    | 'findOneAndUpdate'
    | 'deleteOne'
    | 'deleteMany'
    | 'createIndex'
    | 'nextId'
    | 'bulkWrite';
  durationMs: number;
  /** The operation rejected (a duplicate key, a store that cannot be reached...). */
  failed: boolean;
}

type Interceptable = { intercept(i: { register: (tap: Tap) => Tap }): void };

/** The hooks among an object's fields, by name. */
function interceptable(hooks: object): Array<[string, Interceptable]> {
  return Object.entries(hooks).filter(
    ([, v]) => v && typeof v === 'object' && typeof (v as { intercept?: unknown }).intercept === 'function',
  ) as Array<[string, Interceptable]>;
}

/**
 * Whether anything tapped `hook`. Not tapable's `isUsed()`, which also counts
 * interceptors: the catalogue intercepts every hook (to name each tap after its plugin),
 * so every hook would look used and a hot path would pay for listeners it does not have.
 */
export function isTapped(hook: { readonly taps: readonly unknown[] }): boolean {
  return hook.taps.length > 0;
}

/**
 * Calls a measuring hook: a tap that throws is handed to `onError` and never reaches the
 * caller, so measuring cannot fail the step, run or store operation it measures.
 */
export function callMeasuringHook<T>(hook: SyncHook<[T]>, value: T, onError: (error: unknown) => void): void {
  try {
    hook.call(value);
  } catch (error) {
    onError(error);
  }
}

/**
 * The kernel's catalogue of named hooks: what the host itself fires, its lifecycle and the
 * measurements. A domain's events are that domain's hooks, fired by it alone and listened
 * to through its service (`services.engineEvents`, `logEvents`, `webhookEvents`,
 * `siteEvents`; sdk/kernel/domain-hooks.ts). Contributions are not hooks: they are lists
 * (`Registry`). Tap options (stage, before) order plugins instead of invented priorities.
 */
export class HookCatalogue {
  // Lifecycle.
  /**
   * At boot, after every setup and before `booted` (nothing runs or listens yet): close the
   * work a killed host left `running` and that started before `info.startedBefore` (fail
   * it as interrupted, give back its claims and leases), as the kernel does for its runs.
   */
  readonly repairInterrupted = new AsyncSeriesHook<[InterruptedWork]>(['work']);
  /** Every plugin is set up and the registries are resolved; nothing is listening yet. */
  readonly booted = new AsyncSeriesHook<[LifecycleInfo]>(['info']);
  /** The HTTP server is listening. */
  readonly ready = new AsyncSeriesHook<[LifecycleInfo]>(['info']);
  /** The host is shutting down; release what you hold. */
  readonly stopping = new AsyncSeriesHook<[LifecycleInfo]>(['info']);

  // Measurements (synchronous and cheap: called on hot paths; a tap must not throw or block).
  /** After each step that ran, with its duration. */
  readonly stepTimed = new SyncHook<[StepTiming]>(['step']);
  /** After each answered HTTP request, with its route, status and duration. */
  readonly requestFinished = new SyncHook<[RequestTiming]>(['request']);
  /** When a flow's schedule starts a run, with how late it started after its slot. */
  readonly scheduledRunStarted = new SyncHook<[ScheduledRunTiming]>(['run']);
  /** After each store operation the host's services and plugins make, with its duration. */
  readonly storeOperationTimed = new SyncHook<[StoreOperationTiming]>(['operation']);

  private current: string | null = null;
  private readonly tapped = new Map<string, Set<string>>();

  constructor() {
    this.attribute(this);
  }

  /**
   * Names each tap on `hooks` (a domain's own, by their names) after the plugin being set
   * up, as the catalogue's own are, so `flowhost plugins list` shows what each plugin
   * listens to wherever the hook lives. The domain that owns the hooks calls it once.
   */
  attribute(hooks: object): void {
    for (const [name, hook] of interceptable(hooks)) hook.intercept({ register: (tap: Tap) => this.onRegister(name, tap) });
  }

  /** Runs `fn` with every tap made meanwhile attributed to `pluginId`. */
  async withPlugin<T>(pluginId: string, fn: () => Promise<T> | T): Promise<T> {
    const previous = this.current;
    this.current = pluginId;
    try {
      return await fn();
    } finally {
      this.current = previous;
    }
  }

  /** Hook names each plugin tapped (for `flowhost plugins list`). */
  tapsOf(pluginId: string): string[] {
    return [...(this.tapped.get(pluginId) ?? [])].sort();
  }

  /** Names every tap after the plugin being set up, whatever name the tap gave. */
  private onRegister<T extends Tap>(hookName: string, tap: T): T {
    const owner = this.current ?? tap.name;
    if (!this.tapped.has(owner)) this.tapped.set(owner, new Set());
    this.tapped.get(owner)!.add(hookName);
    return { ...tap, name: owner };
  }
}
