import { AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncWaterfallHook, type Tap } from 'tapable';
import type { DataPacket, RegistryItems, RegistryName } from './contributions.js';

/** Passed to the lifecycle hooks. */
export interface LifecycleInfo {
  /** The host's base URL once listening (empty before). */
  url: string;
}

/** Passed to the engine's step hooks (the packets are the waterfall value). */
export interface StepInfo {
  jobId: number;
  flowId: number | null;
  flowStepId: string;
  stepType: string;
  handlerSlug: string | null;
}

export interface JobOutcome {
  jobId: number;
  flowId: number | null;
  status: string;
  error?: string;
}

export interface LogEntry {
  level: 'debug' | 'info' | 'warning' | 'error' | 'critical';
  message: string;
  context: Record<string, unknown>;
  createdAt: Date;
}

export interface WebhookEvent {
  flowId: number;
  jobId: number;
  headers: Readonly<Record<string, string | undefined>>;
}

type Registry<K extends RegistryName> = SyncWaterfallHook<[Array<RegistryItems[K]>]>;

/**
 * The kernel's one catalogue of named hooks. Registries are filters (each plugin adds to
 * or changes the list), lifecycle and engine events are actions. Hooks are plain tapable
 * hooks so tap options (stage, before) order plugins; the loader's interceptor names
 * every tap after the plugin that made it.
 */
export class HookCatalogue {
  // Registries: SyncWaterfallHook filters over a list.
  readonly handlers: Registry<'handlers'> = new SyncWaterfallHook(['handlers']);
  readonly providers: Registry<'providers'> = new SyncWaterfallHook(['providers']);
  readonly presets: Registry<'presets'> = new SyncWaterfallHook(['presets']);
  readonly intervals: Registry<'intervals'> = new SyncWaterfallHook(['intervals']);
  readonly analyticsTools: Registry<'analyticsTools'> = new SyncWaterfallHook(['analyticsTools']);
  readonly chatTools: Registry<'chatTools'> = new SyncWaterfallHook(['chatTools']);
  readonly verifiers: Registry<'verifiers'> = new SyncWaterfallHook(['verifiers']);
  readonly surfaces: Registry<'surfaces'> = new SyncWaterfallHook(['surfaces']);
  readonly authProviders: Registry<'authProviders'> = new SyncWaterfallHook(['authProviders']);
  readonly stepTypes: Registry<'stepTypes'> = new SyncWaterfallHook(['stepTypes']);

  // Lifecycle.
  /** Every plugin is set up and the registries are resolved; nothing is listening yet. */
  readonly booted = new AsyncSeriesHook<[LifecycleInfo]>(['info']);
  /** The HTTP server is listening. */
  readonly ready = new AsyncSeriesHook<[LifecycleInfo]>(['info']);
  /** The host is shutting down; release what you hold. */
  readonly stopping = new AsyncSeriesHook<[LifecycleInfo]>(['info']);

  // Engine (driven by the workflow engine).
  readonly stepStarting = new AsyncSeriesWaterfallHook<[DataPacket[], StepInfo]>(['packets', 'step']);
  readonly stepFinished = new AsyncSeriesWaterfallHook<[DataPacket[], StepInfo]>(['packets', 'step']);
  readonly jobFinished = new AsyncSeriesHook<[JobOutcome]>(['outcome']);
  readonly jobFailed = new AsyncSeriesHook<[JobOutcome]>(['outcome']);
  readonly flowScheduled = new AsyncSeriesHook<[{ flowId: number; interval: string; nextRunAt: Date | null }]>(['schedule']);
  readonly logged = new AsyncSeriesHook<[LogEntry]>(['entry']);
  readonly webhookReceived = new AsyncSeriesHook<[WebhookEvent]>(['event']);

  private current: string | null = null;
  private readonly tapped = new Map<string, Set<string>>();
  private readonly owners = new WeakMap<object, string>();

  constructor() {
    for (const [name, hook] of this.entries()) {
      hook.intercept({
        register: (tap: Tap) => this.onRegister(name, tap),
      });
    }
  }

  /** Names of every hook in the catalogue. */
  static readonly registryNames: readonly RegistryName[] = [
    'handlers', 'providers', 'presets', 'intervals', 'analyticsTools', 'chatTools', 'verifiers', 'surfaces', 'authProviders', 'stepTypes',
  ];

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

  /** The plugin whose registry tap added this item, when known. */
  ownerOf(item: object): string | undefined {
    return this.owners.get(item);
  }

  /** Resolves one registry: every plugin's filter over an empty list. */
  resolve<K extends RegistryName>(name: K): Array<RegistryItems[K]> {
    const hook = this[name] as Registry<K>;
    return hook.call([]);
  }

  private entries(): Array<[string, { intercept(i: { register: (tap: Tap) => Tap }): void }]> {
    return Object.entries(this).filter(([, v]) => v && typeof v === 'object' && typeof (v as { intercept?: unknown }).intercept === 'function') as Array<
      [string, { intercept(i: { register: (tap: Tap) => Tap }): void }]
    >;
  }

  private onRegister(hookName: string, tap: Tap): Tap {
    const owner = this.current ?? tap.name;
    if (!this.tapped.has(owner)) this.tapped.set(owner, new Set());
    this.tapped.get(owner)!.add(hookName);
    const named: Tap = { ...tap, name: owner };
    if ((HookCatalogue.registryNames as readonly string[]).includes(hookName) && (tap as Tap & { type?: string }).type === 'sync') {
      // Remember which plugin added each item, so a duplicate slug can name both plugins.
      const fn = (tap as Tap & { fn: (list: object[]) => object[] }).fn;
      (named as Tap & { fn: (list: object[]) => object[] }).fn = (list: object[]) => {
        const out = fn(list);
        if (!Array.isArray(out)) {
          throw new Error(`Plugin '${owner}': its '${hookName}' tap must return the list (got ${typeof out})`);
        }
        for (const item of out) {
          if (item && typeof item === 'object' && !list.includes(item) && !this.owners.has(item)) this.owners.set(item, owner);
        }
        return out;
      };
    }
    return named;
  }
}
