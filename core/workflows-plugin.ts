import { definePlugin } from './kernel/define-plugin.js';
import { createServiceFactory } from './kernel/service-ref.js';
import { coreServices as services } from './internal-services.js';
import { PipelinesService } from './pipelines/service.js';
import { pipelinesSurface } from './pipelines/routes.js';
import { FlowsService } from './flows/service.js';
import { HandlerSecrets } from './flows/handler-secrets.js';
import { flowsSurface } from './flows/routes.js';
import { PortableFlows } from './flows/portable.js';
import { portableSurface } from './flows/portable-routes.js';
import { handlerDefaultsSurface } from './flows/handler-defaults-routes.js';
import { JobsService } from './jobs/service.js';
import { jobsSurface } from './jobs/routes.js';
import { changeLog } from './logs/change-log.js';
import { interruptedWork } from './kernel/interrupted-work.js';

/**
 * Pipelines, flows and jobs: one plugin, because a flow is a pipeline's instance and the
 * two services know each other (flows attach themselves to pipelines for cascades).
 */
export const workflowsPlugin = definePlugin({
  id: 'core-workflows',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Pipelines, flows, jobs and processed items, with their routes.',
  collections: ['pipelines', 'flows', 'jobs', 'processed_items'],
  provides: [
    createServiceFactory({
      service: services.pipelines,
      deps: { store: services.rootStore, clock: services.clock, registries: services.registries },
      factory: ({ store, clock, registries }) => new PipelinesService(store, clock, registries),
    }),
    createServiceFactory({
      service: services.flows,
      deps: { store: services.rootStore, clock: services.clock, registries: services.registries, pipelines: services.pipelines, vault: services.vault },
      async factory({ store, clock, registries, pipelines, vault }) {
        const flows = new FlowsService(store, clock, registries, pipelines, new HandlerSecrets(vault));
        await flows.init();
        await pipelines.init();
        return flows;
      },
    }),
    createServiceFactory({
      service: services.jobs,
      deps: { store: services.rootStore, clock: services.clock, flows: services.flows, hooks: services.hooks },
      async factory({ store, clock, flows, hooks }) {
        const jobs = new JobsService(store, clock);
        await jobs.init();
        // The next start carries on from the ids this process reserved and did not use.
        hooks.stopping.tapPromise('jobs: unused ids', () => jobs.keepUnusedIds());
        // Jobs a dead process left running are failed and their items released. On the
        // embedded store this process is the only one; on MongoDB other hosts may be mid-run.
        const before = interruptedWork(store.kind, clock.now()).startedBefore;
        await jobs.recoverInterrupted(before);
        // Then the flows those runs (or runs that died between their job's final state and
        // their flow's) left marked running are released.
        await flows.repairRunningMarks(jobs.jobs, before);
        return jobs;
      },
    }),
  ],
  deps: { routes: services.routes, pipelines: services.pipelines, flows: services.flows, jobs: services.jobs, settings: services.settings, registries: services.registries, clock: services.clock, logs: services.logs, logger: services.rootLogger },
  setup({ routes, pipelines, flows, jobs, settings, registries, clock, logs, logger }) {
    // Who changed which pipeline or flow goes to the searchable log.
    const changes = changeLog(logs, logger);
    pipelines.useChangeLog(changes);
    flows.useChangeLog(changes);
    routes.add(pipelinesSurface(pipelines, flows));
    routes.add(flowsSurface(flows, settings, jobs));
    routes.add(jobsSurface(jobs, { flows, pipelines }));
    routes.add(handlerDefaultsSurface(flows));
    routes.add(portableSurface(new PortableFlows(pipelines, flows, registries, clock)));
  },
});
