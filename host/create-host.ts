import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { container as globalContainer } from 'tsyringe';
import { HookCatalogue } from '../core/kernel/hooks.js';
import { HostRegistries } from '../core/kernel/registries.js';
import { ServiceContainer } from '../core/kernel/service-container.js';
import type { CreateHostOptions, Host } from './host.js';
export type { CreateHostOptions, Host } from './host.js';
import type { ServiceRef } from '../core/kernel/service-ref.js';
import { coreServices as services } from '../core/internal-services.js';
import { FLOWHOST_VERSION } from '../core/kernel/version.js';
import { systemClock } from '../core/kernel/clock.js';
import { createVault } from '../core/security/vault.js';
import { loadConfig } from './config/load-config.js';
import { createLogger } from './logging/create-logger.js';
import { openStore } from './store/open-store.js';
import { openBlobStore } from './store/blobs/index.js';
import { TimedStore } from './store/timed-store.js';
import type { MongoStore } from './store/mongodb/index.js';
import { loadVaultKey } from './security/vault-key.js';
import { verifyVaultKey } from './security/vault-canary.js';
import { createGuardedFetch } from './net/guarded-fetch.js';
import { clockLimiters } from './auth/clock-limiter.js';
import { createInProcessApi } from './http/in-process-api.js';
import { describeTightened, prepareDataDir } from './runtime/prepare-data-dir.js';
import { trackRunningJobs } from './scheduler/running-jobs.js';
import { sessionSurface } from './surfaces/session-routes.js';
import { userAdminSurface } from './surfaces/user-admin-routes.js';
import { migrationsSurface } from './surfaces/migrations-routes.js';
import { pluginsSurface } from './surfaces/plugins-routes.js';
import { installedPluginsSurface } from './surfaces/installed-plugins-routes.js';
import { installedPlugins } from './plugin-install/installed-service.js';
import { ensureAdminAccess } from './bootstrap/initial-admin.js';
import { checkInstalledAgainstStore } from './plugin-install/store-record.js';
import { createScheduler } from './scheduler/create-scheduler.js';
import { PeriodicJobs } from './scheduler/periodic-jobs.js';
import { provideKernelServices } from './services/root-services.js';
import { OverridableContainer } from './services/overridable-container.js';
import { runtimeSettings } from './plugin-settings/runtime-settings.js';
import { pluginSettingsSurface } from './surfaces/plugin-settings-routes.js';
import { hostLifecycle, type HostState } from './host-lifecycle.js';
import { hostServer } from './http/host-server.js';
import { loadHostPlugins } from './load-host-plugins.js';
import { hostAuthenticator } from './auth/host-authenticator.js';
import { hostInfoOf } from './runtime/host-info.js';
import type { HostConfig } from './config/schema.js';
import type { Logger } from '../core/kernel/logger.js';
import type { DocumentStore } from '../core/store/port.js';

/**
 * The composition root: a build of Flowhost is the kernel's services (store, vault, clock,
 * Agenda, guarded fetch) plus plugins; the core domains are plugins too. `createHost`
 * loads them (failing fast on any wiring error); `start` listens; `stop` stops accepting,
 * drains running jobs and closes the store.
 */
export async function createHost(options: CreateHostOptions): Promise<Host> {
  const config = loadConfig({ env: options.env, overrides: options.config });
  const log = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const { dataDir, store, blobs, closeStore } = await openStorage(options, config, log);

  try {
    const key = dataDir ? (await loadVaultKey({ dataDir, secretKey: config.secretKey })).key : randomKey(config.secretKey);
    const vault = createVault(key);
    await verifyVaultKey(vault, store.collection('meta'));
    const hooks = new HookCatalogue();
    // What services and plugins use: the same store, its operations reported for measuring.
    const timedStore = new TimedStore(store, { hook: hooks.storeOperationTimed, log });
    const registries = new HostRegistries();
    // A child of tsyringe's global container: two hosts in one process never share.
    const root = globalContainer.createChildContainer();
    const container = options.services?.length ? new OverridableContainer(root, options.services) : new ServiceContainer(root);
    const { agenda, scheduledJobs, periodic } = await hostScheduler(store, config);
    const state: HostState = { url: '', readiness: 'starting', localToken: null };
    const info = hostInfoOf(config, () => state.url);
    // What must hold across hosts lives in the store: with MongoDB the counters are shared.
    const rateLimiters =
      store.kind === 'mongodb' ? (await import('./auth/mongo-limiters.js')).mongoLimiters(store as MongoStore) : clockLimiters(clock);
    const fetch = createGuardedFetch({ allowPrivate: config.allowPrivateUrls, userAgent: `Flowhost/${FLOWHOST_VERSION}` });
    // The route table exists only after every setup: the in-process API is given it below.
    const api = createInProcessApi({ apiPrefix: config.apiPrefix, coreNamespace: config.coreNamespace, log });
    provideKernelServices(container, { clock, hooks, registries, info, vault, fetch, store: timedStore, log, rateLimiters, agenda, api });
    const { definitions, loaded, pluginSettings, storedSettings } = await loadHostPlugins({
      plugins: options.plugins,
      config,
      store,
      vault,
      hooks,
      clock,
      registries,
      container,
      scope: { log, store: timedStore, agenda, periodic, registries, blobs },
    });

    const get = <T>(ref: ServiceRef<T>) => container.get(ref, 'host');
    const [users, engine, runs] = [await get(services.users), await get(services.engine), await get(services.runScheduler)];
    users.setSessionLimits({ absoluteSeconds: config.sessionTtlSeconds, idleSeconds: config.sessionIdleSeconds });
    const issued = await ensureAdminAccess(users, dataDir, log);
    const authenticator = hostAuthenticator(users, config, rateLimiters, () => state.localToken);
    // Plugins installed in the data directory (`/installed-plugins`), changed while this host runs.
    const installed = installedPlugins({ dataDir, store, loaded, allow: config.pluginAllow });
    // Authentication is the host's: its session and user administration routes stay here.
    const hostSurfaces = [
      sessionSurface({
        users,
        authenticator,
        ttlSeconds: config.sessionTtlSeconds,
        secureCookies: () => info.publicUrl().startsWith('https:'),
      }),
      userAdminSurface(users),
      migrationsSurface(definitions, store),
      pluginsSurface(loaded, installed.restartNeeded),
      installedPluginsSurface(installed),
      pluginSettingsSurface(
        runtimeSettings({ definitions, fileSettings: config.pluginSettings, applied: pluginSettings, stored: storedSettings, clock, log }),
      ),
    ];
    const { allRoutes, server } = hostServer({
      hostSurfaces,
      registries,
      config,
      log,
      hooks,
      coreApi: options.coreApi,
      store: timedStore,
      info,
      readiness: () => state.readiness,
      api,
      authenticator,
    });

    const host: Host = {
      config,
      hooks,
      registries,
      container: root,
      services: container,
      store,
      users,
      vault,
      log,
      plugins: loaded,
      routes: allRoutes,
      get url() {
        return state.url;
      },
      initialAdmin: issued,
      engine,
      logs: await get(services.logs),
      content: await get(services.content),
      jobs: await get(services.jobs),
      flows: await get(services.flows),
      pipelines: await get(services.pipelines),
      execute: await get(services.execute),
      webhooks: await get(services.webhooks),
      handle(req, res) {
        // restify's own listener on its Node server: the one place that answers a request.
        server.server.emit('request', req, res);
      },
      ...hostLifecycle(
        {
          options,
          config,
          log,
          hooks,
          store,
          engine,
          dataDir,
          server,
          agenda,
          periodic,
          scheduledJobs,
          runs,
          definitions,
          loaded,
          closeStore,
        },
        state,
      ),
    };
    return host;
  } catch (error) {
    await closeStore().catch(() => undefined);
    throw error;
  }
}

/** The data directory (made and tightened), the store and the blob store, and how to close them once. */
async function openStorage(options: CreateHostOptions, config: HostConfig, log: Logger) {
  const dataDir = config.dataDir === ':memory:' ? null : resolve(config.dataDir);
  // First write of the start (`flowhost serve` has bound its port already): a directory
  // that cannot be written stops here, naming itself and the cause.
  const tightened = dataDir ? prepareDataDir(dataDir) : null;
  if (tightened) log.warn({ data_dir: tightened.dir, mode: `0${tightened.from.toString(8)}` }, describeTightened(tightened));
  const store = options.store ?? (await openStore(config, dataDir));
  // On MongoDB every host runs the same installed plugins: one whose folder differs stops here.
  await checkInstalledAgainstStore(store, dataDir).catch(async (error) => {
    if (!options.store) await store.close();
    throw error;
  });
  const blobs = await openBlobStore(store, dataDir);
  const closeStore = once(async () => {
    blobs.close();
    if (!options.store) await store.close();
  });
  return { dataDir, store, blobs, closeStore };
}

/** Agenda for this process, with the jobs running here tracked (a stop waits for them) and the periodic jobs. */
async function hostScheduler(store: DocumentStore, config: HostConfig) {
  const agenda = await createScheduler({
    store,
    name: `${hostname()}-${process.pid}`,
    processEvery: config.schedulerProcessEvery,
    lockLifetime: config.schedulerLockLifetime,
  });
  const scheduledJobs = trackRunningJobs(agenda);
  const periodic = new PeriodicJobs(agenda);
  return { agenda, scheduledJobs, periodic };
}

/** In-memory hosts without FLOWHOST_SECRET_KEY get a throwaway key. */
function randomKey(secretKey: string | undefined): Buffer {
  if (secretKey && /^[0-9a-fA-F]{64}$/.test(secretKey)) return Buffer.from(secretKey, 'hex');
  return randomBytes(32);
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}
