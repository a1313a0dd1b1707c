import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { container as globalContainer } from 'tsyringe';
import { HookCatalogue, isTapped } from '../core/kernel/hooks.js';
import { loadPlugins } from '../core/kernel/loader.js';
import { HostRegistries } from '../core/kernel/registries.js';
import type { HostInfo } from '../core/kernel/plugin.js';
import { ServiceContainer } from '../core/kernel/service-container.js';
import { checkCoreApi } from './core-api-check.js';
import type { CreateHostOptions, Host } from './host.js';
export type { CreateHostOptions, Host } from './host.js';
import type { ServiceRef } from '../core/kernel/service-ref.js';
import { coreServices as services } from '../core/internal-services.js';
import { FLOWHOST_VERSION } from '../core/kernel/version.js';
import { systemClock } from '../core/kernel/clock.js';
import { createVault } from '../core/security/vault.js';
import { corePlugins } from '../core/core-plugins.js';
import { loadConfig } from './config/load-config.js';
import { createLogger } from './logging/create-logger.js';
import { openStore } from './store/open-store.js';
import { openBlobStore } from './store/blobs/index.js';
import { TimedStore } from './store/timed-store.js';
import type { MongoStore } from './store/mongodb/index.js';
import { loadVaultKey } from './security/vault-key.js';
import { verifyVaultKey } from './security/vault-canary.js';
import { createGuardedFetch } from './net/guarded-fetch.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { clockLimiters } from './auth/clock-limiter.js';
import { Authenticator } from './auth/authenticator.js';
import { compileRoutes } from './http/route-table.js';
import { createHttpServer } from './http/server.js';
import { httpLimits } from './http/http-limits.js';
import { currentOrigin } from './http/request-origin.js';
import { createInProcessApi } from './http/in-process-api.js';
import { closeServer, listen } from './http/listen.js';
import { systemRoutes, type Readiness } from './http/system-routes.js';
import { describeTightened, prepareDataDir } from './runtime/prepare-data-dir.js';
import { trackRunningJobs } from './scheduler/running-jobs.js';
import { interruptedWork } from '../core/kernel/interrupted-work.js';
import { sessionSurface } from './surfaces/session-routes.js';
import { userAdminSurface } from './surfaces/user-admin-routes.js';
import { migrationsSurface } from './surfaces/migrations-routes.js';
import { pluginsSurface } from './surfaces/plugins-routes.js';
import { installedPluginsSurface } from './surfaces/installed-plugins-routes.js';
import { installedPlugins } from './plugin-install/installed-service.js';
import { ensureAdminAccess } from './bootstrap/initial-admin.js';
import { publishHost, unpublishHost } from './runtime/data-dir-files.js';
import { recordBuild } from './build/build-record.js';
import { checkInstalledAgainstStore } from './plugin-install/store-record.js';
import { createScheduler } from './scheduler/create-scheduler.js';
import { unrefJobWatchdogs } from './scheduler/agenda-watchdog.js';
import { PeriodicJobs } from './scheduler/periodic-jobs.js';
import { CollectionClaims, pluginScopedFactories } from './services/plugin-scoped-services.js';
import { provideKernelServices } from './services/root-services.js';
import { OverridableContainer } from './services/overridable-container.js';
import { checkContributions } from './services/check-contributions.js';
import { migrationRunner } from './migrations/run-migrations.js';
import { services as coreKernelServices } from '../core/kernel/services.js';
import { pluginSettingsStore } from './plugin-settings/stored-settings.js';
import { runtimeSettings } from './plugin-settings/runtime-settings.js';
import { layerSettings } from './plugin-settings/layer-settings.js';
import { disposePlugins } from './plugin-settings/dispose-plugins.js';
import { pluginSettingsSurface } from './surfaces/plugin-settings-routes.js';

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
    const agenda = await createScheduler({
      store,
      name: `${hostname()}-${process.pid}`,
      processEvery: config.schedulerProcessEvery,
      lockLifetime: config.schedulerLockLifetime,
    });
    const scheduledJobs = trackRunningJobs(agenda);
    const periodic = new PeriodicJobs(agenda);
    let readiness: Readiness = 'starting';
    let url = '';
    const info: HostInfo = {
      version: FLOWHOST_VERSION,
      apiPrefix: config.apiPrefix,
      coreNamespace: config.coreNamespace,
      publicUrl: () => (config.publicUrl ?? currentOrigin() ?? url).replace(/\/+$/, ''),
      allowsPrivateUrls: config.allowPrivateUrls,
      storesDebugLogs: config.logDebug === true || config.logLevel === 'debug' || config.logLevel === 'trace',
      stepRecordBytes: config.stepRecordBytes,
      runLeaseSeconds: config.runLeaseSeconds,
    };
    // What must hold across hosts lives in the store: with MongoDB the counters are shared.
    const rateLimiters =
      store.kind === 'mongodb' ? (await import('./auth/mongo-limiters.js')).mongoLimiters(store as MongoStore) : clockLimiters(clock);
    const fetch = createGuardedFetch({ allowPrivate: config.allowPrivateUrls, userAgent: `Flowhost/${FLOWHOST_VERSION}` });
    // The route table exists only after every setup: the in-process API is given it below.
    const api = createInProcessApi({ apiPrefix: config.apiPrefix, coreNamespace: config.coreNamespace, log });
    provideKernelServices(container, { clock, hooks, registries, info, vault, fetch, store: timedStore, log, rateLimiters, agenda, api });
    const pluginSettings = new Map<string, Record<string, unknown>>();
    const claims = new CollectionClaims();
    for (const factory of pluginScopedFactories(
      { log, store: timedStore, agenda, periodic, registries, blobs, settingsOf: (id) => pluginSettings.get(id) ?? {} },
      claims,
    ))
      container.provide(factory, 'host');

    const definitions = [...corePlugins, ...options.plugins];
    // Settings saved at run time win over the file's and the environment's, key by key.
    const storedSettings = pluginSettingsStore(store, vault);
    const layered = layerSettings(definitions, config.pluginSettings, await storedSettings.readAllOpened(), log);
    const loaded = await loadPlugins(definitions, {
      kernelVersion: FLOWHOST_VERSION,
      hooks,
      services: container,
      settings: layered,
      onSettings: (id, value) => pluginSettings.set(id, value),
      onCollections: (id, names) => claims.claim(id, names),
      migrate: migrationRunner({
        store,
        clock,
        owner: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
        storeOf: (id) => container.get(coreKernelServices.store, id),
        logOf: (id) => container.get(coreKernelServices.logger, id),
      }),
      registries,
    });
    registries.seal();
    // Every contributed schema is sound now, or start-up stops naming the plugin and item.
    checkContributions(registries, { compile: config.checkResponses });
    // The kernel closed its interrupted runs while its services were built; plugins close
    // theirs now, before anything is scheduled or served.
    await hooks.repairInterrupted.promise(interruptedWork(store.kind, clock.now()));
    await hooks.booted.promise({ url: '' });

    const get = <T>(ref: ServiceRef<T>) => container.get(ref, 'host');
    const [users, engine, runs] = [await get(services.users), await get(services.engine), await get(services.runScheduler)];
    users.setSessionLimits({ absoluteSeconds: config.sessionTtlSeconds, idleSeconds: config.sessionIdleSeconds });
    const issued = await ensureAdminAccess(users, dataDir, log);
    let localToken: string | null = null;
    const throttle = new LoginThrottle(
      {
        maxFailures: config.loginMaxFailures,
        maxFailuresPerIp: config.loginMaxFailuresPerIp,
        maxFailuresPerLogin: config.loginMaxFailuresPerLogin,
        windowSeconds: config.loginWindowSeconds,
        knownAddressSeconds: config.loginKnownAddressDays * 86_400,
      },
      rateLimiters,
    );
    const authenticator = new Authenticator(users, throttle, () => localToken);
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
    const surfaces = [
      ...hostSurfaces.map((surface) => ({ surface, owner: 'host' })),
      ...registries.surfaces().map((surface) => ({ surface, owner: registries.ownerOf(surface) ?? 'unknown' })),
    ];
    const routeOptions = { apiPrefix: config.apiPrefix, coreNamespace: config.coreNamespace, log, checkResponses: config.checkResponses };
    const routes = compileRoutes(surfaces, routeOptions);
    if (options.coreApi !== false)
      checkCoreApi(
        { routes, stepTypes: registries.stepTypes().map((t) => t.type), intervals: registries.intervals().map((i) => i.value) },
        config.coreNamespace,
      );
    const allRoutes = [
      ...routes,
      ...systemRoutes({
        routes,
        store: timedStore,
        readiness: () => readiness,
        apiPrefix: config.apiPrefix,
        serverUrl: () => `${info.publicUrl()}`,
        routeOptions,
      }),
    ];
    api.attach(allRoutes);
    // Measurements only when a plugin listens (no cost otherwise).
    const server = createHttpServer(allRoutes, {
      authenticator,
      bodyLimit: config.bodyLimit,
      log,
      onFinished: isTapped(hooks.requestFinished) ? (timing) => hooks.requestFinished.call(timing) : undefined,
      ...httpLimits(config),
    });

    let started = false;
    let disposed: Promise<void> | undefined;
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
        return url;
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
      nextJobRun(name) {
        return new Promise<void>((resolve) => {
          agenda.once(`start:${name}`, (started: { attrs: { _id?: unknown } }) => {
            const ended = (job: { attrs: { _id?: unknown } }) => {
              if (String(job.attrs._id) !== String(started.attrs._id)) return;
              agenda.off(`complete:${name}`, ended);
              resolve();
            };
            agenda.on(`complete:${name}`, ended);
          });
        });
      },
      async start() {
        if (started) return url;
        if (options.listen !== false) url = await listen(server, config.port, config.host, options.reservedPort);
        started = true;
        if (options.clusterWorker) localToken = options.clusterWorker.localToken;
        else if (dataDir && url) localToken = publishHost(dataDir, url, `${url}${config.apiPrefix}/${config.coreNamespace}`);
        // Kept after the stop: what a CLI command starting its own host is checked against.
        await recordBuild({ dataDir, store }, loaded, corePlugins);
        log.info(
          { url, store: store.kind, plugins: loaded.map((p) => p.id) },
          url ? `Flowhost listening on ${url}` : 'Flowhost started without a port (requests through handle)',
        );
        await periodic.start();
        await agenda.start();
        unrefJobWatchdogs(agenda);
        // Webhook jobs queued behind a run that never ended here (the host stopped) start now.
        await engine.resumeQueued();
        await hooks.ready.promise({ url });
        readiness = 'ready';
        return url;
      },
      async stop() {
        if (started) {
          readiness = 'stopping';
          await hooks.stopping.promise({ url });
          if (dataDir && !options.clusterWorker) unpublishHost(dataDir);
          // No new connection, no new scheduled work (Agenda hands back what it had locked
          // but not started) and no further queued webhook job (those wait for the next
          // start); then requests in flight, the engine's runs and the scheduled jobs running
          // here all get the same bounded time to end.
          const closed = closeServer(server);
          engine.stopQueues();
          await agenda.stop();
          const boundMs = config.shutdownTimeoutSeconds * 1000;
          let timer: NodeJS.Timeout | undefined;
          const ended = await Promise.race([
            Promise.all([closed, runs.dispatcher.drain(), scheduledJobs.idle()]).then(() => true),
            new Promise<false>((done) => (timer = setTimeout(() => done(false), boundMs))),
          ]);
          clearTimeout(timer);
          if (!ended) {
            // A hung handler or client must not hold the stop: what is cut off here is failed
            // as interrupted (claims, leases released) at a later boot (repairInterrupted).
            server.server.closeAllConnections();
            const left = engine.running() + scheduledJobs.count();
            if (left > 0)
              log.warn(
                { runs: engine.running(), scheduled_jobs: scheduledJobs.count() },
                `${left} run(s) still running after the ${config.shutdownTimeoutSeconds} s shutdown bound were cut off; a later start fails them as interrupted (the next one on the embedded store; on MongoDB, one at least an hour after they started)`,
              );
            else log.warn(`Connections still open after the ${config.shutdownTimeoutSeconds} s shutdown bound were closed`);
          }
          started = false;
        }
        await (disposed ??= disposePlugins(definitions, loaded, log));
        await closeStore();
      },
    };
    return host;
  } catch (error) {
    await closeStore().catch(() => undefined);
    throw error;
  }
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
