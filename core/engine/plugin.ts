import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { Engine, type EngineLog } from './engine.js';
import { ExecuteService } from './execute.js';
import { ScheduledRuns } from './scheduled-run.js';
import { executeSurface } from './routes.js';
import { cancelSurface } from './cancel-route.js';
import { Checkpoints } from './checkpoint.js';
import { RetryService } from './retry.js';
import { retrySurface } from './retry-route.js';
import { reviewSurface } from './review-routes.js';
import { EngineHooks } from './engine-hooks.js';
import { domainHookFactories } from '../kernel/domain-hook-services.js';

/** The engine that runs jobs step by step, and POST /execute. */
export const enginePlugin = definePlugin({
  id: 'core-engine',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The workflow engine and POST /execute.',
  provides: [
    // The engine's step and job events: its own to fire, every plugin's to listen to.
    ...domainHookFactories(services.engineHooks, services.engineEvents, () => new EngineHooks()),
    createServiceFactory({
      service: services.engine,
      deps: {
        jobs: services.jobs,
        flows: services.flows,
        runMarks: services.flowRuns,
        catalogue: services.handlerCatalogue,
        hooks: services.hooks,
        events: services.engineHooks,
        clock: services.clock,
        fetch: services.fetch,
        content: services.content,
        users: services.users,
        logs: services.logs,
        logger: services.rootLogger,
        credentials: services.credentials,
        info: services.hostInfo,
        vault: services.vault,
      },
      factory({ logs, logger, info, vault, ...deps }) {
        // Engine events go to the searchable log (GET /logs) and to the process log.
        const log: EngineLog = async (level, message, context) => {
          logger[level === 'warning' ? 'warn' : level]({ ...context }, message);
          // Not awaited: entries go out in batches (one write for many lines), and the run
          // does not wait for each; flushLog holds the job's final state until they are in.
          // A log that cannot be stored must not fail the step or the run it describes.
          const { agent_id, ...rest } = context;
          const entry = { level, message, context: rest, ...(typeof agent_id === 'number' ? { agent_id } : {}) };
          void logs.record(entry).catch((error: unknown) => logger.error({ err: error }, 'A log entry could not be stored'));
        };
        return new Engine({
          ...deps,
          logger,
          log,
          flushLog: () => logs.flush(),
          itemDetail: () => logs.stores('debug'),
          stepRecordBytes: info.stepRecordBytes,
          runLeaseSeconds: info.runLeaseSeconds,
          checkpoints: new Checkpoints(vault),
          vault,
          apiBase: () => `${info.publicUrl()}${info.apiPrefix}/${info.coreNamespace}`,
        });
      },
    }),
    // What a schedule's or a delayed run's firing starts; the host's scheduler says when.
    createServiceFactory({
      service: services.scheduledRuns,
      deps: {
        engine: services.engine,
        jobs: services.jobs,
        flows: services.flows,
        schedule: services.flowSchedule,
        intervals: services.scheduleIntervals,
        logs: services.logs,
        hooks: services.hooks,
        log: services.rootLogger,
      },
      factory: (deps) => new ScheduledRuns(deps),
    }),
    createServiceFactory({
      service: services.execute,
      deps: {
        jobs: services.jobs,
        flows: services.flows,
        registries: services.registries,
        catalogue: services.handlerCatalogue,
        clock: services.clock,
        runs: services.runScheduler,
        logs: services.logs,
        logger: services.rootLogger,
        info: services.hostInfo,
      },
      factory: ({ runs, logs, logger, info, ...deps }) =>
        new ExecuteService({
          ...deps,
          runLeaseSeconds: info.runLeaseSeconds,
          dispatcher: () => runs.dispatcher,
          log: async ({ message, context, user_id, agent_id }) => {
            logger.info({ ...context, user_id, agent_id }, message);
            await logs
              .record({ level: 'info', message, context, user_id, agent_id })
              .catch((error: unknown) => logger.error({ err: error }, 'A log entry could not be stored'));
          },
        }),
    }),
  ],
  deps: {
    routes: services.routes,
    execute: services.execute,
    engine: services.engine,
    jobs: services.jobs,
    flows: services.flows,
    logs: services.logs,
    logger: services.rootLogger,
  },
  setup({ routes, execute, engine, jobs, flows, logs, logger }) {
    routes.add(executeSurface(execute));
    routes.add(cancelSurface(engine));
    const retries = new RetryService({
      jobs,
      flows,
      starter: () => engine,
      // Who retried what, in the searchable log and the process log, like a manual run.
      log: async (message, context, user) => {
        logger.info({ ...context, user_id: user?.userId ?? null }, message);
        await logs
          .record({ level: 'info', message, context, user_id: user?.userId ?? null })
          .catch((error: unknown) => logger.error({ err: error }, 'A log entry could not be stored'));
      },
    });
    routes.add(retrySurface(retries));
    routes.add(reviewSurface(engine));
  },
});
