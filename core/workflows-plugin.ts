import { definePlugin } from './kernel/define-plugin.js';
import { createServiceFactory } from './kernel/service-ref.js';
import { coreServices as services } from './internal-services.js';
import { PipelinesService } from './pipelines/service.js';
import { pipelinesSurface } from './pipelines/routes.js';
import { FlowsService } from './flows/service.js';
import { PipelineRecords } from './pipelines/records.js';
import { FlowRunMarks } from './flows/run-marks.js';
import { HandlerSecrets } from './flows/handler-secrets.js';
import { flowsSurface } from './flows/routes.js';
import { PortableFlows } from './flows/portable.js';
import { portableSurface } from './flows/portable-routes.js';
import { flowRevisionsSurface } from './flows/revision-routes.js';
import { flowsContext } from './flows/routes/context.js';
import { pipelineRevisionsSurface } from './pipelines/revision-routes.js';
import { handlerDefaultsSurface } from './flows/handler-defaults-routes.js';
import { JobsService } from './jobs/service.js';
import { jobsSurface } from './jobs/routes.js';
import { changeLog } from './logs/change-log.js';
import { interruptedWork } from './kernel/interrupted-work.js';
import { domainServices } from '../sdk/contract/services.js';
import { PluginFlowsView } from './flows/plugin-view.js';
import { PluginJobsView } from './jobs/plugin-view.js';
import { reportOrphans } from './flows/orphan-report.js';
import { intervals as intervalPoint } from '../sdk/contract/schedule-intervals.js';
import { handlers as handlerPoint, stepTypes as stepTypePoint } from '../sdk/contract/handler-catalogue.js';
import { handlerCatalogue } from './flows/workflow-parts.js';

/**
 * Pipelines, flows and jobs: one plugin, because a flow is a pipeline's instance. The
 * services are built from their deps alone: flows (reading pipeline records), then
 * pipelines (cascading to flows), then jobs.
 */
export const workflowsPlugin = definePlugin({
  id: 'core-workflows',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Pipelines, flows, jobs and processed items, with their routes.',
  collections: ['pipelines', 'flows', 'jobs', 'processed_items', 'contribution_owners'],
  // Handlers, step types and intervals are the workflows domain's points, not kernel kinds:
  // others read them through services.handlerCatalogue and services.scheduleIntervals.
  extensionPoints: [handlerPoint, stepTypePoint, intervalPoint],
  provides: [
    // What other domains and plugins read of the intervals (live, after boot).
    createServiceFactory({
      service: services.scheduleIntervals,
      deps: { intervals: intervalPoint.contributions },
      factory: ({ intervals }) => ({ list: () => intervals.list(), get: (value: string) => intervals.get(value) }),
    }),
    createServiceFactory({
      service: services.handlerCatalogue,
      deps: { handlers: handlerPoint.contributions, stepTypes: stepTypePoint.contributions },
      factory: (parts) => handlerCatalogue(parts),
    }),
    // Flows first: they read pipeline records (PipelineRecords) and nothing else of
    // pipelines; pipelines depend on flows for their cascades. No setter closes a cycle.
    createServiceFactory({
      service: services.flows,
      deps: {
        store: services.rootStore,
        clock: services.clock,
        handlers: handlerPoint.contributions,
        stepTypes: stepTypePoint.contributions,
        intervals: intervalPoint.contributions,
        vault: services.vault,
        schedule: services.flowSchedule,
        logs: services.logs,
        logger: services.rootLogger,
      },
      async factory({ store, clock, handlers, stepTypes, intervals, vault, schedule, logs, logger }) {
        // Who changed which flow goes to the searchable log.
        const flows = new FlowsService(
          store,
          clock,
          { handlers, stepTypes, intervals },
          new PipelineRecords(store),
          new HandlerSecrets(vault),
          schedule,
          changeLog(logs, logger),
        );
        await flows.init();
        return flows;
      },
    }),
    createServiceFactory({
      service: services.pipelines,
      deps: {
        store: services.rootStore,
        clock: services.clock,
        registries: services.registries,
        catalogue: services.handlerCatalogue,
        flows: services.flows,
        logs: services.logs,
        logger: services.rootLogger,
      },
      async factory({ store, clock, registries, catalogue, flows, logs, logger }) {
        const pipelines = new PipelinesService(store, clock, registries, catalogue, flows, changeLog(logs, logger));
        // A delete a crash interrupted is finished now (its flows first): flows are built.
        await pipelines.init();
        return pipelines;
      },
    }),
    createServiceFactory({
      service: services.flowRuns,
      deps: { store: services.rootStore },
      factory: ({ store }) => new FlowRunMarks(store),
    }),
    createServiceFactory({
      service: services.jobs,
      deps: { store: services.rootStore, clock: services.clock, runMarks: services.flowRuns, hooks: services.hooks },
      async factory({ store, clock, runMarks, hooks }) {
        const jobs = new JobsService(store, clock);
        await jobs.init();
        // The next start carries on from the ids this process reserved and did not use.
        hooks.stopping.tapPromise('jobs: unused ids', () => jobs.keepUnusedIds());
        // Jobs a dead process left running are failed and their items released. On the
        // embedded store this process is the only one; on MongoDB other hosts may be mid-run
        // (the engine's sweep takes a dead host's runs over once their lease lapses).
        const before = interruptedWork(store.kind, clock.now()).startedBefore;
        await jobs.recoverInterrupted(before);
        // Then the flows those runs (or runs that died between their job's final state and
        // their flow's) left marked running are released.
        await runMarks.repairRunningMarks(jobs.jobs, before);
        return jobs;
      },
    }),
    // What plugins get: views without sealed values or webhook secrets.
    createServiceFactory({
      service: domainServices.flows,
      deps: { flows: services.flows },
      factory: ({ flows }) => new PluginFlowsView(flows),
    }),
    createServiceFactory({
      service: domainServices.jobs,
      deps: { jobs: services.jobs },
      factory: ({ jobs }) => new PluginJobsView(jobs),
    }),
  ],
  deps: {
    routes: services.routes,
    pipelines: services.pipelines,
    flows: services.flows,
    jobs: services.jobs,
    settings: services.settings,
    registries: services.registries,
    intervals: services.scheduleIntervals,
    catalogue: services.handlerCatalogue,
    clock: services.clock,
    users: services.users,
    hooks: services.hooks,
    logger: services.rootLogger,
  },
  setup({ routes, pipelines, flows, jobs, settings, registries, intervals, catalogue, clock, users, hooks, logger }) {
    // Every plugin is loaded by then: flows naming what none provides are reported.
    hooks.booted.tapPromise('flows: orphans', async () => void (await reportOrphans(flows, logger)));
    routes.add(pipelinesSurface(pipelines, flows));
    routes.add(flowsSurface(flows, settings, jobs, users));
    routes.add(flowRevisionsSurface(flowsContext(flows, settings, jobs, users)));
    routes.add(pipelineRevisionsSurface(pipelines, flows));
    routes.add(jobsSurface(jobs, { flows, pipelines }, () => settings.get()));
    routes.add(handlerDefaultsSurface(flows));
    routes.add(portableSurface(new PortableFlows(pipelines, flows, registries, catalogue, intervals, clock)));
  },
});
