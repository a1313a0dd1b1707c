import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DependencyContainer } from 'tsyringe';
import type { HookCatalogue } from '../core/kernel/hooks.js';
import type { LoadedPlugin } from '../core/kernel/loader.js';
import type { HostRegistries } from '../core/kernel/registries.js';
import type { PluginDefinition } from '../core/kernel/plugin.js';
import type { ServiceContainer } from '../core/kernel/service-container.js';
import type { ServiceFactory } from '../core/kernel/service-ref.js';
import type { Clock } from '../core/kernel/clock.js';
import type { Logger } from '../core/kernel/logger.js';
import type { DocumentStore } from '../core/store/port.js';
import type { Vault } from '../core/security/vault.js';
import type { UsersService } from '../core/users/service.js';
import type { ContentService } from '../core/content/service.js';
import type { JobsService } from '../core/jobs/service.js';
import type { FlowsService } from '../core/flows/service.js';
import type { PipelinesService } from '../core/pipelines/service.js';
import type { Engine } from '../core/engine/engine.js';
import type { ExecuteService } from '../core/engine/execute.js';
import type { LogsService } from '../core/logs/service.js';
import type { WebhooksService } from '../core/webhooks/service.js';
import type { HostConfig } from './config/schema.js';
import type { CompiledRoute } from './http/route-table.js';
import type { IssuedAdminPassword } from './bootstrap/initial-admin.js';
import type { PortReservation } from './http/port-reservation.js';

/** What a build is made of: its plugins and, optionally, config, environment, store, clock, logger. */
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
  /**
   * A worker of `flowhost serve --workers N`: the primary publishes the data directory's
   * host file and the CLI's local credential once; every worker accepts that credential.
   */
  clusterWorker?: { localToken: string };
  /**
   * The port, bound already (reservePort): `start` listens on that socket. `flowhost serve`
   * binds first so a busy port stops it before anything is written to the data directory.
   */
  reservedPort?: PortReservation;
  /**
   * Whether `start` binds a port (default true). Without one the host runs everything else
   * (scheduler, hooks) and answers requests only through `handle`: the test kit's inject.
   */
  listen?: boolean;
  /**
   * Whether the build must serve what the core API needs (discovery's listings, the four
   * step types, the manual interval; docs/plugins.md). Default true: start-up stops naming
   * what to add. A host for one plugin's tests, with only that plugin, passes false.
   */
  coreApi?: boolean;
  /**
   * Factories that replace whatever the host or a plugin would provide for the same
   * reference (the test kit's `mockService`), or provide one nothing loaded provides.
   */
  services?: ReadonlyArray<ServiceFactory>;
}

export interface Host {
  readonly config: HostConfig;
  readonly hooks: HookCatalogue;
  readonly registries: HostRegistries;
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
  /**
   * Answers one request exactly as the HTTP server does (routing, auth, permissions,
   * validation, error bodies) from a request and response that need no socket.
   */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Resolves when a run of the scheduled job `name` (`plugin:job`, as the scheduler knows
   * it) that starts after this call has ended: what a test waits for instead of sleeping.
   */
  nextJobRun(name: string): Promise<void>;
  start(): Promise<string>;
  stop(): Promise<void>;
}
