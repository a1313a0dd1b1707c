import type { Agenda, Job } from 'agenda';
import { PluginError } from '../../core/errors.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { HostRegistries } from '../../core/kernel/registries.js';
import { registrarFactories } from '../../core/kernel/contribution-kinds.js';
import type { PluginScheduler, PluginStore } from '../../core/kernel/plugin-services.js';
import { createServiceFactory, type ServiceFactory } from '../../core/kernel/service-ref.js';
import { services } from '../../core/kernel/services.js';
import type { DocumentStore } from '../../core/store/port.js';
import type { PeriodicJobs } from '../scheduler/periodic-jobs.js';
import type { BlobStore } from '../store/blobs/index.js';

export interface PluginScopeDeps {
  log: Logger;
  store: DocumentStore;
  agenda: Agenda;
  /** Where `every` goes: saved as the scheduler starts (host/scheduler/periodic-jobs.ts). */
  periodic: PeriodicJobs;
  /** The contribution lists the registrars write to. */
  registries: HostRegistries;
  /** Stored files: each plugin gets the bucket named after it. */
  blobs: BlobStore;
  settingsOf(pluginId: string): Record<string, unknown>;
}

/** Collection ownership: a name declared by one plugin is that plugin's alone. */
export class CollectionClaims {
  private readonly owners = new Map<string, string>();

  claim(pluginId: string, names: readonly string[]): void {
    for (const name of names) {
      const owner = this.owners.get(name);
      if (owner && owner !== pluginId) throw new PluginError(pluginId, `claims collection '${name}', which plugin '${owner}' owns`);
      this.owners.set(name, pluginId);
    }
  }

  ownerOf(name: string): string | undefined {
    return this.owners.get(name);
  }
}

/** `@acme/flowhost-hello` → `acme_flowhost-hello`: a prefix a collection name may carry. */
export function namespaceOf(pluginId: string): string {
  return pluginId.replace(/^@/, '').replace(/[^A-Za-z0-9_-]/g, '_');
}

function pluginStore(pluginId: string, store: DocumentStore, claims: CollectionClaims): PluginStore {
  const nameFor = (name: string): string => {
    const owner = claims.ownerOf(name);
    if (owner === pluginId) return name;
    const namespaced = `${namespaceOf(pluginId)}__${name}`;
    if (namespaced.length > 64) throw new PluginError(pluginId, `collection name '${namespaced}' is longer than 64 characters`);
    return namespaced;
  };
  return {
    kind: store.kind,
    collection: (name) => store.collection(nameFor(name)),
    nextId: (sequence, count) => store.nextId(nameFor(sequence), count),
  };
}

function pluginScheduler(pluginId: string, agenda: Agenda, periodic: PeriodicJobs, log: Logger): PluginScheduler {
  const full = (name: string) => `${pluginId}:${name}`;
  return {
    define(name, run, options = {}) {
      agenda.define(
        full(name),
        async (job: Job<Record<string, unknown>>) => {
          try {
            await run({ name, data: (job.attrs.data ?? {}) as never, attempt: (job.attrs as { runCount?: number }).runCount ?? 1 });
          } catch (error) {
            log.error({ err: error, job: full(name) }, `Job '${name}' of plugin '${pluginId}' failed`);
            throw error;
          }
        },
        { concurrency: options.concurrency ?? 1, ...(options.lockLifetimeMs ? { lockLifetime: options.lockLifetimeMs } : {}) },
      );
    },
    every: (interval, name, data) => periodic.every(interval, full(name), data ?? {}),
    now: async (name, data) => void (await agenda.now(full(name), data ?? {})),
    at: async (when, name, data) => void (await agenda.schedule(when, full(name), data ?? {})),
    cancel: (name) => agenda.cancel({ name: full(name) }),
  };
}

/** The factories of every plugin-scoped service: logger, config, store, blobs, scheduler, and the registrars. */
export function pluginScopedFactories(deps: PluginScopeDeps, claims: CollectionClaims): ServiceFactory[] {
  const factories: ServiceFactory[] = [
    createServiceFactory({ service: services.logger, factory: (_d, { pluginId }) => deps.log.child({ plugin: pluginId }) }),
    createServiceFactory({ service: services.config, factory: (_d, { pluginId }) => deps.settingsOf(pluginId) }),
    createServiceFactory({ service: services.store, factory: (_d, { pluginId }) => pluginStore(pluginId, deps.store, claims) }),
    createServiceFactory({ service: services.blobs, factory: (_d, { pluginId }) => deps.blobs.bucket(pluginId) }),
    createServiceFactory({
      service: services.scheduler,
      factory: (_d, { pluginId }) => pluginScheduler(pluginId, deps.agenda, deps.periodic, deps.log.child({ plugin: pluginId })),
    }),
  ];
  return [...factories, ...registrarFactories(deps.registries)];
}
