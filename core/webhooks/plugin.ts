import { definePlugin } from '../kernel/define-plugin.js';
import { isTapped } from '../kernel/hooks.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { WebhooksService } from './service.js';
import { changeLog } from '../logs/change-log.js';
import { EventDedupe } from './event-dedupe.js';
import { TriggerLimits } from './trigger-limits.js';
import { triggerSurface, webhookAdminSurface } from './routes.js';
import { LegacyFlowWebhooks } from '../flows/legacy-webhooks.js';
import { DEFAULT_RUN_LEASE_SECONDS } from '../engine/run-lease.js';
import { WebhookHooks } from './webhook-hooks.js';
import { domainHookFactories } from '../kernel/domain-hook-services.js';
import { webhookPresets, webhookVerifiers } from '../../sdk/contract/webhook-points.js';

/** Inbound webhooks: POST /trigger/{flow_id}, its administration and its upkeep jobs. */
export const webhooksPlugin = definePlugin({
  id: 'core-webhooks',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The webhook trigger, its administration routes and its upkeep jobs.',
  collections: ['webhook_events'],
  // Only the webhooks domain reads presets and verification modes: its points, not kernel kinds.
  extensionPoints: [webhookPresets, webhookVerifiers],
  provides: [
    // `webhookReceived`: the trigger's own to fire, every plugin's to listen to.
    ...domainHookFactories(services.webhookHooks, services.webhookEvents, () => new WebhookHooks()),
    createServiceFactory({
      service: services.webhooks,
      deps: {
        flows: services.flows,
        vault: services.vault,
        clock: services.clock,
        // Built for this plugin, their owner; read at call time, never here (sealed at boot).
        presets: webhookPresets.contributions,
        verifiers: webhookVerifiers.contributions,
        logs: services.logs,
        logger: services.rootLogger,
      },
      async factory({ logs, logger, ...deps }) {
        const webhooks = new WebhooksService({
          ...deps,
          legacy: new LegacyFlowWebhooks(deps.flows),
          changes: changeLog(logs, logger),
          log: async (level, message, context) => {
            logger[level === 'warning' ? 'warn' : 'info']({ ...context }, message);
            await logs.write({ level, message, context });
          },
        });
        await webhooks.init();
        return webhooks;
      },
    }),
  ],
  deps: {
    routes: services.routes,
    scheduler: services.scheduler,
    webhooks: services.webhooks,
    jobs: services.jobs,
    engine: services.engine,
    logs: services.logs,
    hooks: services.webhookHooks,
    clock: services.clock,
    info: services.hostInfo,
    store: services.rootStore,
    rateLimiters: services.rateLimiters,
    log: services.logger,
  },
  async setup({ routes, scheduler, webhooks, jobs, engine, logs, hooks, clock, info, store, rateLimiters, log }) {
    const dedupe = new EventDedupe({
      store,
      clock,
      // A job the trigger stored under a delivery key carries it in its webhook_trigger.
      storedJob: async (flowId, key, since) =>
        (
          await jobs.jobs.findOne(
            { flow_id: flowId, [`engine_data.webhook_trigger.${key.kind}`]: key.value, created_at: { $gte: since } },
            { projection: { job_id: 1 } },
          )
        )?.job_id ?? null,
    });
    await dedupe.init();
    routes.add(webhookAdminSurface(webhooks));
    routes.add(
      triggerSurface({
        webhooks,
        limits: new TriggerLimits(rateLimiters),
        dedupe,
        jobs,
        startQueued: (flowId) => engine.runNextQueued(flowId),
        clock,
        publicUrl: () => info.publicUrl(),
        logWarning: async (message, context) => void (await logs.write({ level: 'warning', message, context })),
        logInfo: (message, context) => {
          // The process log has the request line already; this one is for debugging.
          log.debug({ ...context }, message);
          // The answer waits for the line (see the route). `soon`: the lines of the requests
          // whose jobs were stored together are written together right after, in the same
          // turn; at the next turn, every answer waited a turn more, which cost a sixth of
          // the trigger's throughput under load.
          return logs.record({ level: 'info', message, context }, { soon: true }).then(
            () => undefined,
            (error: unknown) => log.error({ err: error }, 'A log entry could not be stored'),
          );
        },
        // Only when someone listens: the trigger's hot path pays nothing otherwise.
        received: (event) => (isTapped(hooks.webhookReceived) ? hooks.webhookReceived.promise(event()) : null),
      }),
    );
    // Accepted event ids and Idempotency-Keys are kept for their window, then forgotten.
    scheduler.define('purge-events', () => dedupe.purgeExpired().then(() => undefined));
    // Safety net for queued webhook jobs whose host died before starting them (another
    // host's next run of the flow, or this sweep, picks them up; claims keep it to one run).
    // It also fails the runs of a dead host and frees their flows (engine.recoverStale): every
    // half lease, with a lock that lapses after one lease should the host sweeping die.
    const lease = info.runLeaseSeconds ?? DEFAULT_RUN_LEASE_SECONDS;
    scheduler.define('resume-queued', () => engine.resumeQueued().then(() => undefined), { lockLifetimeMs: lease * 1000 });
    await scheduler.every('1 hour', 'purge-events');
    await scheduler.every(`${Math.max(1, Math.round(lease / 2))} seconds`, 'resume-queued');
  },
});
