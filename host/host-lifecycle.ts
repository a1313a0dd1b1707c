/**
 * A host's life after it is wired (create-host.ts): `start` listens and starts the scheduler,
 * `stop` stops taking work, drains what runs within the shutdown bound and closes the store.
 * Kept apart from the wiring so the composition root reads as the list of its parts.
 */
import type { Agenda } from 'agenda';
import { corePlugins } from '../core/core-plugins.js';
import type { PluginDefinition } from '../core/kernel/plugin.js';
import { recordBuild } from './build/build-record.js';
import type { CreateHostOptions, Host } from './host.js';
import { closeServer, listen } from './http/listen.js';
import type { RestifyServer } from './http/restify-adapter.js';
import type { Readiness } from './http/system-routes.js';
import { disposePlugins } from './plugin-settings/dispose-plugins.js';
import { publishHost, unpublishHost } from './runtime/data-dir-files.js';
import { unrefJobWatchdogs } from './scheduler/agenda-watchdog.js';
import type { PeriodicJobs } from './scheduler/periodic-jobs.js';
import type { RunningJobs } from './scheduler/running-jobs.js';

/** What changes while the host lives; the wiring's closures (readiness, local token, public URL) read it. */
export interface HostState {
  url: string;
  readiness: Readiness;
  localToken: string | null;
}

export interface LifecycleParts {
  options: CreateHostOptions;
  config: Host['config'];
  log: Host['log'];
  hooks: Host['hooks'];
  store: Host['store'];
  engine: Host['engine'];
  dataDir: string | null;
  server: RestifyServer;
  agenda: Agenda;
  periodic: PeriodicJobs;
  scheduledJobs: RunningJobs;
  runs: { dispatcher: { drain(): Promise<unknown> } };
  definitions: ReadonlyArray<PluginDefinition>;
  loaded: Host['plugins'];
  closeStore: () => Promise<void>;
}

/** `start`, `stop` and `nextJobRun` of a wired host. */
export function hostLifecycle(parts: LifecycleParts, state: HostState): Pick<Host, 'start' | 'stop' | 'nextJobRun'> {
  // Set once the port is bound, before the rest of the start: a start that fails later is still stopped in full.
  const life = { started: false };
  let disposed: Promise<void> | undefined;
  return {
    nextJobRun: (name) => nextJobRun(parts.agenda, name),
    async start() {
      if (life.started) return state.url;
      await startHost(parts, state, life);
      return state.url;
    },
    async stop() {
      if (life.started) {
        await stopHost(parts, state);
        life.started = false;
      }
      await (disposed ??= disposePlugins(parts.definitions, parts.loaded, parts.log));
      await parts.closeStore();
    },
  };
}

/** Resolves when the next run of the named job ends (tests wait on a scheduled job with it). */
function nextJobRun(agenda: Agenda, name: string): Promise<void> {
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
}

async function startHost(parts: LifecycleParts, state: HostState, life: { started: boolean }): Promise<void> {
  const { options, config, log, hooks, store, engine, dataDir, server, agenda, periodic, loaded } = parts;
  if (options.listen !== false) state.url = await listen(server, config.port, config.host, options.reservedPort);
  life.started = true;
  const url = state.url;
  if (options.clusterWorker) state.localToken = options.clusterWorker.localToken;
  else if (dataDir && url) state.localToken = publishHost(dataDir, url, `${url}${config.apiPrefix}/${config.coreNamespace}`);
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
  state.readiness = 'ready';
}

async function stopHost(parts: LifecycleParts, state: HostState): Promise<void> {
  const { options, config, log, hooks, engine, dataDir, server, agenda, scheduledJobs, runs } = parts;
  state.readiness = 'stopping';
  await hooks.stopping.promise({ url: state.url });
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
}
