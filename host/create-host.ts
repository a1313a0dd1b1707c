import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { container as globalContainer, type DependencyContainer } from 'tsyringe';
import { HookCatalogue } from '../core/kernel/hooks.js';
import { loadPlugins, type LoadedPlugin } from '../core/kernel/loader.js';
import { Registries } from '../core/kernel/registries.js';
import type { PluginDefinition, HostInfo } from '../core/kernel/plugin.js';
import { ServiceContainer } from '../core/kernel/service-container.js';
import { createServiceFactory, type ServiceRef } from '../core/kernel/service-ref.js';
import { services } from '../core/kernel/services.js';
import { CollectionClaims, pluginScopedFactories } from './services/plugin-scoped-services.js';
import { checkContributions } from './services/check-contributions.js';
import type { SurfaceDefinition } from '../core/kernel/routes.js';
import { FLOWHOST_VERSION } from '../core/kernel/version.js';
import { systemClock, type Clock } from '../core/kernel/clock.js';
import type { Logger } from '../core/kernel/logger.js';
import type { DocumentStore } from '../core/store/port.js';
import { createVault, type Vault } from '../core/security/vault.js';
import type { GuardedFetch } from '../core/security/guarded-fetch-types.js';
import { UsersRepository } from '../core/users/repository.js';
import { UsersService } from '../core/users/service.js';
import { loadConfig } from './config/load-config.js';
import type { HostConfig } from './config/schema.js';
import { createLogger } from './logging/create-logger.js';
import { openStore } from './store/open-store.js';
import { loadVaultKey } from './security/vault-key.js';
import { verifyVaultKey } from './security/vault-canary.js';
import { createGuardedFetch } from './net/guarded-fetch.js';
import { LoginThrottle, memoryLimiters } from './auth/login-throttle.js';
import { mongoLimiters } from './auth/mongo-limiters.js';
import { MongoStore } from './store/mongodb/index.js';
import { Authenticator } from './auth/authenticator.js';
import { compileRoutes, type CompiledRoute } from './http/route-table.js';
import { createHttpServer } from './http/server.js';
import { systemRoutes } from './http/system-routes.js';
import { sessionSurface } from './surfaces/session-routes.js';
import { userAdminSurface } from './surfaces/user-admin-routes.js';
import { ensureAdminAccess, type IssuedAdminPassword } from './bootstrap/initial-admin.js';
import { publishHost, unpublishHost } from './runtime/data-dir-files.js';
import { SettingsService } from '../core/settings/service.js';
import { settingsSurface } from '../core/settings/routes.js';
import { PipelinesService } from '../core/pipelines/service.js';
import { pipelinesSurface } from '../core/pipelines/routes.js';
import { FlowsService } from '../core/flows/service.js';
import { flowsSurface } from '../core/flows/routes.js';
import { PreferencesService, preferencesSurface } from '../core/users/preferences.js';
import { ContentService } from '../core/content/service.js';
import { JobsService } from '../core/jobs/service.js';
import { jobsSurface } from '../core/jobs/routes.js';
import { Engine, type EngineLog } from '../core/engine/engine.js';
import type { JobDispatcher } from '../core/engine/dispatcher.js';
import { ExecuteService } from '../core/engine/execute.js';
import { executeSurface } from '../core/engine/routes.js';
import { hostname } from 'node:os';
import { createScheduler } from './scheduler/create-scheduler.js';
import { createAgendaRuntime } from './scheduler/agenda-runtime.js';
import { LogsRepository } from '../core/logs/repository.js';
import { LogsService } from '../core/logs/service.js';
import { logsSurface } from './surfaces/logs-routes.js';
import { WebhooksService } from '../core/webhooks/service.js';
import { TriggerLimits } from '../core/webhooks/trigger-limits.js';
import { EventDedupe } from '../core/webhooks/event-dedupe.js';
import { triggerSurface, webhookAdminSurface } from '../core/webhooks/routes.js';

export interface CreateHostOptions {
  /** The plugins of this build, in any order (dependencies order them). */
  plugins: ReadonlyArray<PluginDefinition>;
  /** Values that win over the environment and flowhost.config.json. */
  config?: Partial<HostConfig>;
  /** The environment to read (default process.env; tests pass {}). */
  env?: NodeJS.ProcessEnv;
  /** Use this store instead of opening one from config (tests, custom builds). */
  store?: DocumentStore;
  clock?: Clock;
  logger?: Logger;
}

export interface Host {
  readonly config: HostConfig;
  readonly hooks: HookCatalogue;
  readonly registries: Registries;
  readonly container: DependencyContainer;
  /** Resolves any service reference, e.g. `host.services.get(services.flows, 'test')`. */
  readonly services: ServiceContainer;
  readonly store: DocumentStore;
  readonly users: UsersService;
  readonly vault: Vault;
  readonly log: Logger;
  readonly plugins: readonly LoadedPlugin[];
  readonly routes: readonly CompiledRoute[];
  /** Base URL once started, e.g. http://127.0.0.1:8080 ('' before). */
  readonly url: string;
  /** Set when this start issued an administrator password (first start). */
  readonly initialAdmin: IssuedAdminPassword | null;
  readonly engine: Engine;
  readonly logs: LogsService;
  readonly content: ContentService;
  readonly jobs: JobsService;
  readonly flows: FlowsService;
  readonly pipelines: PipelinesService;
  readonly execute: ExecuteService;
  readonly webhooks: WebhooksService;
  /** Replaces the in-process dispatcher (e.g. with the Agenda scheduler). */
  useDispatcher(dispatcher: JobDispatcher): void;
  start(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A build of Flowhost: the chosen plugins on one store, served over HTTP. `createHost`
 * wires everything and loads the plugins (failing fast on any wiring error); `start`
 * listens; `stop` stops accepting, drains in-flight requests and closes the store.
 */
export async function createHost(options: CreateHostOptions): Promise<Host> {
  const config = loadConfig({ env: options.env, overrides: options.config });
  const log = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const inMemory = config.dataDir === ':memory:';
  const dataDir = inMemory ? null : resolve(config.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const store = options.store ?? (await openStore(config, dataDir));
  let closed = false;
  const closeStore = async () => {
    if (!closed && !options.store) await store.close();
    closed = true;
  };

  try {
    const key = dataDir ? (await loadVaultKey({ dataDir, secretKey: config.secretKey })).key : randomKey(config.secretKey);
    const vault = createVault(key);
    await verifyVaultKey(vault, store.collection('meta'));
    const fetch: GuardedFetch = createGuardedFetch({ allowPrivate: config.allowPrivateUrls, userAgent: `Flowhost/${FLOWHOST_VERSION}` });

    const hooks = new HookCatalogue();
    const registries = new Registries(hooks);
    // The host's own root: a child of tsyringe's global container, so two hosts in one
    // process (tests, custom builds) never share registrations. Every service reference
    // resolves through it (plugin-scoped ones through the plugin's child container).
    const root = globalContainer.createChildContainer();
    const container = new ServiceContainer(root);
    const provideValue = <T>(ref: ServiceRef<T>, value: T) => container.provide(createServiceFactory({ service: ref, factory: () => value }) as never, 'host');

    const users = new UsersService(new UsersRepository(store), clock);
    await users.init();
    const content = new ContentService(store, clock);
    await content.init();
    const logs = new LogsService(new LogsRepository(store), clock, {
      onWritten: (entry, createdAt) => hooks.logged.promise({ level: entry.level, message: entry.message, context: entry.context, createdAt }),
    });
    await logs.init();

    let url = '';
    const info: HostInfo = {
      version: FLOWHOST_VERSION,
      apiPrefix: config.apiPrefix,
      coreNamespace: config.coreNamespace,
      publicUrl: () => (config.publicUrl ?? url).replace(/\/+$/, ''),
    };

    // Workflow domains (core): settings, pipelines, flows, user preferences.
    const settings = new SettingsService(store);
    const pipelines = new PipelinesService(store, clock, registries);
    const flows = new FlowsService(store, clock, registries, pipelines);
    const preferences = new PreferencesService(store, users, pipelines);
    await flows.init();
    await pipelines.init();
    const jobs = new JobsService(store, clock);
    await jobs.init();
    // Jobs a dead process left running are failed and their items released. On the
    // embedded store this process is the only one; on MongoDB other hosts may be mid-run.
    await jobs.recoverInterrupted(new Date(clock.now().getTime() - (store.kind === 'embedded' ? 0 : 3600_000)));
    // Engine events go to the searchable log (GET /logs) and to the process log.
    const engineLog: EngineLog = async (level, message, context) => {
      log[level === 'warning' ? 'warn' : level]({ ...context }, message);
      await logs.write({ level, message, context });
    };
    const engine = new Engine({ jobs, flows, registries, hooks, clock, fetch, content, logger: log, log: engineLog });
    // Agenda drives every background run, on whichever store this host uses; plugins
    // define their own jobs on it during setup (services.scheduler).
    const agenda = await createScheduler({
      store,
      name: `${hostname()}-${process.pid}`,
      processEvery: config.schedulerProcessEvery,
      lockLifetime: config.schedulerLockLifetime,
    });
    const runtime = createAgendaRuntime({ agenda, engine, jobs, flows, registries, store, log });
    // Log retention: an hourly job deletes entries older than the setting (0 keeps all).
    agenda.define('logs.purge', async () => {
      const days = (await settings.get()).log_retention_days;
      const deleted = await logs.purgeOlderThan(days);
      if (deleted > 0) log.info({ deleted, days }, 'Old log entries deleted');
    });
    flows.useScheduler(runtime.schedule);
    let dispatcher: JobDispatcher = runtime.dispatcher;
    const execute = new ExecuteService({ jobs, flows, registries, clock, dispatcher: () => dispatcher });
    const webhooks = new WebhooksService({
      flows,
      vault,
      clock,
      registries,
      log: async (level, message, context) => {
        log[level === 'warning' ? 'warn' : 'info']({ ...context }, message);
        await logs.write({ level, message, context });
      },
    });
    await webhooks.init();
    const dedupe = new EventDedupe({ store, clock });
    await dedupe.init();
    // Accepted event ids are kept for their flow's dedupe window, then forgotten.
    agenda.define('webhooks.purge-events', async () => {
      await dedupe.purgeExpired();
    });
    // Safety net for queued webhook jobs whose host died before starting them (another
    // host's next run of the flow, or this sweep, picks them up; claims keep it to one run).
    agenda.define('webhooks.resume-queued', async () => {
      await engine.resumeQueued();
    });

    // The root services plugins may ask for, then the plugin-scoped ones.
    provideValue(services.clock, clock);
    provideValue(services.hooks, hooks);
    provideValue(services.registries, registries);
    provideValue(services.hostInfo, info);
    provideValue(services.vault, vault);
    provideValue(services.fetch, fetch);
    provideValue(services.rootStore, store);
    provideValue(services.users, users);
    provideValue(services.settings, settings);
    provideValue(services.content, content);
    provideValue(services.logs, logs);
    provideValue(services.pipelines, pipelines);
    provideValue(services.flows, flows);
    provideValue(services.jobs, jobs);
    provideValue(services.engine, engine);
    provideValue(services.execute, execute);
    provideValue(services.webhooks, webhooks);
    const pluginSettings = new Map<string, Record<string, unknown>>();
    const claims = new CollectionClaims();
    for (const factory of pluginScopedFactories({ log, store, agenda, hooks, settingsOf: (id) => pluginSettings.get(id) ?? {} }, claims)) container.provide(factory, 'host');

    const loaded = await loadPlugins(options.plugins, {
      kernelVersion: FLOWHOST_VERSION,
      hooks,
      services: container,
      settings: config.pluginSettings,
      onSettings: (id, value) => pluginSettings.set(id, value),
      onCollections: (id, names) => claims.claim(id, names),
    });
    registries.resolveAll();
    // Every contributed schema compiles now, or start-up stops naming the plugin and item.
    checkContributions(registries);
    await hooks.booted.promise({ url: '' });

    const issued = await ensureAdminAccess(users, dataDir, log);

    let localToken: string | null = null;
    const throttle = new LoginThrottle(
      { maxFailures: config.loginMaxFailures, maxFailuresPerIp: config.loginMaxFailuresPerIp, windowSeconds: config.loginWindowSeconds },
      // What must hold across hosts lives in the store: with MongoDB the counters are shared.
      store instanceof MongoStore ? mongoLimiters(store) : memoryLimiters,
    );
    const authenticator = new Authenticator(users, throttle, () => localToken);
    const limiterFactory = store instanceof MongoStore ? mongoLimiters(store) : memoryLimiters;
    const hostSurfaces: SurfaceDefinition[] = [
      sessionSurface({ users, authenticator, ttlSeconds: config.sessionTtlSeconds, secureCookies: () => info.publicUrl().startsWith('https:') }),
      userAdminSurface(users),
      settingsSurface(settings, registries),
      pipelinesSurface(pipelines, flows),
      flowsSurface(flows, settings, jobs),
      jobsSurface(jobs, store),
      executeSurface(execute),
      preferencesSurface(preferences),
      logsSurface(logs),
      webhookAdminSurface(webhooks, registries),
      triggerSurface({
        webhooks,
        limits: new TriggerLimits(limiterFactory),
        dedupe,
        jobs,
        startQueued: (flowId) => engine.runNextQueued(flowId),
        clock,
        publicUrl: () => info.publicUrl(),
        logWarning: async (message, context) => void (await logs.write({ level: 'warning', message, context })),
      }),
    ];
    const surfaces = [
      ...hostSurfaces.map((surface) => ({ surface, owner: 'host' })),
      ...registries.surfaces().map((surface) => ({ surface, owner: registries.ownerOf(surface) ?? 'unknown' })),
    ];
    const routes = compileRoutes(surfaces, { apiPrefix: config.apiPrefix, coreNamespace: config.coreNamespace, log });
    const allRoutes = [...routes, ...systemRoutes({ routes, store, apiPrefix: config.apiPrefix, serverUrl: () => `${info.publicUrl()}` })];
    const server = createHttpServer(allRoutes, { authenticator, bodyLimit: config.bodyLimit, log });

    let started = false;
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
      logs,
      content,
      jobs,
      flows,
      pipelines,
      execute,
      webhooks,
      useDispatcher(next: JobDispatcher) {
        dispatcher = next;
      },
      async start() {
        if (started) return url;
        await new Promise<void>((resolveListen, rejectListenWith) => {
          const rejectListen = (error: NodeJS.ErrnoException) =>
            rejectListenWith(
              error.code === 'EADDRINUSE'
                ? new Error(`Port ${config.port} on ${config.host} is already in use; stop what listens there or choose another port (PORT or --port).`)
                : error.code === 'EACCES'
                  ? new Error(`Port ${config.port} on ${config.host} needs privileges this process lacks; choose a port above 1023 (PORT or --port).`)
                  : error,
            );
          // restify re-emits the Node server's errors on itself, where an unheard one is thrown.
          server.once('error', rejectListen);
          server.listen(config.port, config.host, () => {
            server.off('error', rejectListen);
            resolveListen();
          });
        });
        started = true;
        const address = server.server.address() as AddressInfo;
        const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        url = `http://${hostPart}:${address.port}`;
        if (dataDir) localToken = publishHost(dataDir, url, `${url}${config.apiPrefix}/${config.coreNamespace}`);
        log.info({ url, store: store.kind, plugins: loaded.map((p) => p.id) }, `Flowhost listening on ${url}`);
        await agenda.start();
        await agenda.every('1 hour', 'logs.purge', undefined, { skipImmediate: true });
        await agenda.every('1 hour', 'webhooks.purge-events', undefined, { skipImmediate: true });
        await agenda.every('1 minute', 'webhooks.resume-queued', undefined, { skipImmediate: true });
        // Webhook jobs queued behind a run that never ended here (the host stopped) start now.
        await engine.resumeQueued();
        await hooks.ready.promise({ url });
        return url;
      },
      async stop() {
        if (started) {
          await hooks.stopping.promise({ url });
          if (dataDir) unpublishHost(dataDir);
          // Stop taking scheduled work, let running jobs end, then release Agenda's locks.
          await agenda.stop();
          // Running jobs get a bounded time to end: a hung handler must not block shutdown
          // (its job is failed and its claims released at the next boot).
          await Promise.race([dispatcher.drain(), new Promise((done) => setTimeout(done, 10_000).unref())]);
          await new Promise<void>((done) => {
            // Stop accepting; idle keep-alive sockets close now, busy ones after their response.
            server.server.close(() => done());
            server.server.closeIdleConnections();
            setTimeout(() => server.server.closeAllConnections(), 10_000).unref();
          });
          started = false;
        }
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
