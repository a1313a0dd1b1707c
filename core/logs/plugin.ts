import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { LogsRepository } from './repository.js';
import { LogsService } from './service.js';
import { logsSurface } from './routes.js';
import { LogHooks } from './log-hooks.js';
import { domainHookFactories } from '../kernel/domain-hook-services.js';

/** The searchable log (GET/DELETE /logs) and its retention job. */
export const logsPlugin = definePlugin({
  id: 'core-logs',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The searchable log, its routes and its hourly retention job.',
  collections: ['logs'],
  provides: [
    // `logged`: the log's own to fire, every plugin's to listen to.
    ...domainHookFactories(services.logHooks, services.logEvents, () => new LogHooks()),
    createServiceFactory({
      service: services.logs,
      deps: { store: services.rootStore, clock: services.clock, hooks: services.logHooks, info: services.hostInfo },
      async factory({ store, clock, hooks, info }) {
        const logs = new LogsService(new LogsRepository(store), clock, {
          // Item-level detail (debug) is kept only where the host switched it on.
          storeDebug: info.storesDebugLogs === true,
          onWritten: (entry, createdAt) =>
            hooks.logged.promise({ level: entry.level, message: entry.message, context: entry.context, createdAt }),
        });
        await logs.init();
        return logs;
      },
    }),
  ],
  deps: { routes: services.routes, logs: services.logs, settings: services.settings, scheduler: services.scheduler, log: services.logger },
  async setup({ routes, logs, settings, scheduler, log }) {
    routes.add(logsSurface(logs));
    // Retention: entries older than the setting go (0 keeps all).
    scheduler.define('purge', async () => {
      const days = (await settings.get()).log_retention_days;
      const deleted = await logs.purgeOlderThan(days);
      if (deleted > 0) log.info({ deleted, days }, 'Old log entries deleted');
    });
    await scheduler.every('1 hour', 'purge');
  },
});
