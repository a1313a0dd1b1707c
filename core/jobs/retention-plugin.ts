import { definePlugin } from '../kernel/define-plugin.js';
import { coreServices as services } from '../internal-services.js';
import { bool, int, nullable, obj, str, successBody, withResponses } from '../kernel/response-schemas.js';
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { SettingsService } from '../settings/service.js';
import { defineRoute } from '../../sdk/define.js';
import { JobRetention, ON_DEMAND_VACUUM, type PruneRequest } from './retention.js';

const admin = { capability: 'manage_options' } as const;

const storeSpace = nullable(
  obj({ kind: str, bytes: int, freeBytes: nullable(int), autoVacuum: { enum: ['none', 'full', 'incremental'] } }, [
    'kind',
    'bytes',
    'freeBytes',
  ]),
);
const pruneReport = obj({
  dry_run: bool,
  jobs_cutoff: nullable(str),
  processed_items_cutoff: nullable(str),
  jobs: int,
  log_lines: int,
  processed_items: int,
  remaining: obj({ jobs: int, processed_items: int }),
  last_job_id: nullable(int),
  bytes_freed: nullable(int),
  store: storeSpace,
});

/** What the settings say to prune. */
async function settingsRequest(settings: SettingsService): Promise<Pick<PruneRequest, 'jobRetentionDays' | 'forgetProcessedAfterDays'>> {
  const site = await settings.get();
  return { jobRetentionDays: site.job_retention_days, forgetProcessedAfterDays: site.forget_processed_items_after_days };
}

/** POST /jobs/prune: one bounded call of a prune by the settings (the CLI repeats it, printing progress). */
function retentionSurface(retention: JobRetention, settings: SettingsService): SurfaceDefinition {
  return withResponses(
    {
      id: 'job-retention',
      routes: [
        defineRoute({
          method: 'POST',
          path: '/jobs/prune',
          permission: admin,
          summary: 'Prune finished jobs (and their log lines) older than job_retention_days, and processed items by their own setting',
          schema: {
            body: {
              type: 'object',
              additionalProperties: false,
              properties: {
                dry_run: { type: 'boolean', default: false },
                limit: { type: 'integer', minimum: 1, maximum: 100_000, default: 5000 },
                after_job_id: { type: 'integer', minimum: 0 },
                vacuum: { enum: ['none', 'incremental', 'full'], default: ON_DEMAND_VACUUM },
              },
            },
          },
          async handle(request) {
            const body = request.body ?? {};
            const report = await retention.prune({
              ...(await settingsRequest(settings)),
              dryRun: body.dry_run === true,
              limit: body.limit ?? 5000,
              afterJobId: body.after_job_id,
              giveSpaceBack: body.vacuum ?? ON_DEMAND_VACUUM,
            });
            const verb = report.dry_run ? 'Would prune' : 'Pruned';
            return {
              success: true,
              message: `${verb} ${report.jobs} job(s), ${report.log_lines} log line(s) and ${report.processed_items} processed item(s).`,
              data: report,
            };
          },
        }),
      ],
    },
    { 'POST /jobs/prune': { 200: successBody({ message: str, data: pruneReport }) } },
  );
}

/**
 * Job retention: an hourly periodic job (the scheduler's, like the log purge) prunes by
 * the site settings, and POST /jobs/prune does the same on demand (`flowhost prune`).
 */
export const retentionPlugin = definePlugin({
  id: 'core-retention',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Prunes finished jobs with their log lines by job_retention_days, and gives the space back.',
  deps: {
    routes: services.routes,
    store: services.rootStore,
    logs: services.logs,
    clock: services.clock,
    settings: services.settings,
    scheduler: services.scheduler,
    log: services.logger,
  },
  async setup({ routes, store, logs, clock, settings, scheduler, log }) {
    const retention = new JobRetention(store, logs, clock);
    await retention.init();
    routes.add(retentionSurface(retention, settings));
    scheduler.define('prune-jobs', async () => {
      const report = await retention.prune({ ...(await settingsRequest(settings)), giveSpaceBack: 'incremental' });
      if (report.jobs + report.processed_items > 0)
        log.info(
          { jobs: report.jobs, log_lines: report.log_lines, processed_items: report.processed_items, bytes_freed: report.bytes_freed },
          'Old jobs pruned',
        );
    });
    await scheduler.every('1 hour', 'prune-jobs');
  },
});
