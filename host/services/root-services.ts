import type { Agenda } from 'agenda';
import type { Clock } from '../../core/kernel/clock.js';
import type { HookCatalogue } from '../../core/kernel/hooks.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { HostInfo } from '../../core/kernel/plugin.js';
import type { Registries } from '../../core/kernel/registries.js';
import type { ServiceContainer } from '../../core/kernel/service-container.js';
import { createServiceFactory, type ServiceFactory, type ServiceRef } from '../../core/kernel/service-ref.js';
import { coreServices as services } from '../../core/internal-services.js';
import { services as publicServices } from '../../core/kernel/services.js';
import type { HostVault } from '../../core/security/vault.js';
import { PluginSettingsView } from '../../core/settings/plugin-view.js';
import { domainServices } from '../../sdk/contract/services.js';
import { smtpMail } from '../../core/mail/smtp-mail.js';
import type { GuardedFetch } from '../../core/security/guarded-fetch-types.js';
import type { DocumentStore } from '../../core/store/port.js';
import type { TriggerLimiterFactory } from '../../core/webhooks/trigger-limits.js';
import type { ApiClient } from '../../core/kernel/api-client.js';
import { createAgendaRuntime } from '../scheduler/agenda-runtime.js';
import { createFlowSchedule } from '../scheduler/flow-schedule.js';

export interface KernelServices {
  clock: Clock;
  hooks: HookCatalogue;
  registries: Registries;
  info: HostInfo;
  vault: HostVault;
  fetch: GuardedFetch;
  store: DocumentStore;
  log: Logger;
  rateLimiters: TriggerLimiterFactory;
  agenda: Agenda;
  api: ApiClient;
}

const value = <T>(ref: ServiceRef<T>, instance: T) => createServiceFactory({ service: ref, factory: () => instance }) as ServiceFactory;

/**
 * What only the host can build (the store, the vault, Agenda, its logger...), provided as
 * root services; everything else comes from plugins, the core domains included.
 */
export function provideKernelServices(container: ServiceContainer, kernel: KernelServices): void {
  const factories: ServiceFactory[] = [
    value(services.clock, kernel.clock),
    value(services.hooks, kernel.hooks),
    value(services.registries, kernel.registries),
    value(services.hostInfo, kernel.info),
    value(services.vault, kernel.vault),
    // Each plugin's own: it seals and opens under that plugin's id (core/security/vault.ts).
    createServiceFactory({
      service: publicServices.vault,
      factory: (_deps, { pluginId }) => kernel.vault.forPlugin(pluginId),
    }) as ServiceFactory,
    // Plugin-scoped (only the host provides those): a provider's key for its own plugin only.
    createServiceFactory({
      service: domainServices.settings,
      deps: { settings: services.settings, registries: services.registries },
      factory: ({ settings, registries }, { pluginId }) => new PluginSettingsView(settings, registries, pluginId),
    }) as ServiceFactory,
    value(services.fetch, kernel.fetch),
    value(domainServices.mail, smtpMail),
    value(services.rootStore, kernel.store),
    value(services.rootLogger, kernel.log),
    value(services.rateLimiters, kernel.rateLimiters),
    value(services.api, kernel.api),
    // Agenda drives every background run: execute requests, delayed runs and schedules
    // (when; what a firing starts is the core's scheduledRuns).
    createServiceFactory({
      service: services.runScheduler,
      deps: { engine: services.engine, runs: services.scheduledRuns },
      factory: (deps) =>
        createAgendaRuntime({ ...deps, agenda: kernel.agenda, store: kernel.store, runLeaseSeconds: kernel.info.runLeaseSeconds }),
    }) as ServiceFactory,
    createServiceFactory({
      service: services.flowSchedule,
      deps: { intervals: services.scheduleIntervals },
      factory: ({ intervals }) => createFlowSchedule(kernel.agenda, intervals),
    }) as ServiceFactory,
  ];
  for (const factory of factories) container.provide(factory, 'host');
}
