/**
 * The HTTP side of a wired host: the host's and the plugins' surfaces compiled into one route
 * table (checked against the core API), the system routes beside it, the in-process API
 * given the table, and the server answering it. Called once every plugin's setup has run.
 */
import { isTapped, type HookCatalogue } from '../../core/kernel/hooks.js';
import type { HostInfo } from '../../core/kernel/plugin.js';
import type { HostRegistries } from '../../core/kernel/registries.js';
import { intervals } from '../../sdk/contract/schedule-intervals.js';
import { stepTypes } from '../../sdk/contract/handler-catalogue.js';
import type { ExtensionPoint } from '../../core/kernel/extension-point.js';
import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import type { DocumentStore } from '../../core/store/port.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { HostConfig } from '../config/schema.js';
import { checkCoreApi } from '../core-api-check.js';
import type { Host } from '../host.js';
import { httpLimits } from './http-limits.js';
import type { createInProcessApi } from './in-process-api.js';
import { compileRoutes } from './route-table.js';
import { createHttpServer } from './server.js';
import { systemRoutes, type Readiness } from './system-routes.js';

export function hostServer(parts: {
  hostSurfaces: SurfaceDefinition[];
  registries: HostRegistries;
  config: HostConfig;
  log: Host['log'];
  hooks: HookCatalogue;
  /** The core API check (CreateHostOptions.coreApi): on unless false. */
  coreApi: boolean | undefined;
  store: DocumentStore;
  info: HostInfo;
  readiness: () => Readiness;
  api: ReturnType<typeof createInProcessApi>;
  authenticator: Authenticator;
}) {
  const { hostSurfaces, registries, config, log, hooks, info, api } = parts;
  const surfaces = [
    ...hostSurfaces.map((surface) => ({ surface, owner: 'host' })),
    ...registries.surfaces().map((surface) => ({ surface, owner: registries.ownerOf(surface) ?? 'unknown' })),
  ];
  const routeOptions = { apiPrefix: config.apiPrefix, coreNamespace: config.coreNamespace, log, checkResponses: config.checkResponses };
  const routes = compileRoutes(surfaces, routeOptions);
  if (parts.coreApi !== false)
    checkCoreApi(
      {
        routes,
        stepTypes: declaredKeys(registries, stepTypes, (t) => t.type),
        intervals: declaredKeys(registries, intervals, (i) => i.value),
      },
      config.coreNamespace,
    );
  const allRoutes = [
    ...routes,
    ...systemRoutes({
      routes,
      store: parts.store,
      readiness: parts.readiness,
      apiPrefix: config.apiPrefix,
      serverUrl: () => `${info.publicUrl()}`,
      routeOptions,
    }),
  ];
  api.attach(allRoutes);
  // Measurements only when a plugin listens (no cost otherwise).
  const server = createHttpServer(allRoutes, {
    authenticator: parts.authenticator,
    bodyLimit: config.bodyLimit,
    log,
    onFinished: isTapped(hooks.requestFinished) ? (timing) => hooks.requestFinished.call(timing) : undefined,
    ...httpLimits(config),
  });
  return { allRoutes, server };
}

/** What the workflows domain's point lists, when the build loads its owner (the host's view of the point). */
function declaredKeys<T extends object>(registries: HostRegistries, point: ExtensionPoint<T>, key: (item: T) => string): string[] {
  const declared = registries.extensionPoints().some((entry) => entry.point.id === point.id);
  return declared ? registries.extensionPoint(point).list().map(key) : [];
}
