import type { Argv, ArgumentsCamelCase } from 'yargs';
import { jsonOption, withApi, type CliNoun, type Common } from '../cli-runtime.js';
import { printJson } from '../output.js';
import { nounHeader } from './catalogue.js';
import { ON_DEMAND_VACUUM, type PruneReport } from '../../../core/jobs/retention.js';

/** Jobs per request: each call is bounded, so the host keeps answering others and this prints progress between. */
const PER_CALL = 5000;

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** Calls POST /jobs/prune until nothing is left, adding up what each call pruned. */
async function pruneAll(argv: { dryRun: boolean; vacuum: string; json: boolean }, call: (body: object) => Promise<PruneReport>) {
  let total: PruneReport | null = null;
  for (;;) {
    const after: number | undefined = argv.dryRun ? (total?.last_job_id ?? undefined) : undefined;
    const report = await call({ dry_run: argv.dryRun, limit: PER_CALL, vacuum: argv.vacuum, after_job_id: after });
    total = total
      ? {
          ...report,
          jobs: total.jobs + report.jobs,
          log_lines: total.log_lines + report.log_lines,
          processed_items: total.processed_items + report.processed_items,
          last_job_id: report.last_job_id ?? total.last_job_id,
        }
      : report;
    const left = report.remaining.jobs + (argv.dryRun ? 0 : report.remaining.processed_items);
    const madeProgress = report.jobs + report.processed_items > 0;
    if (left === 0 || !madeProgress) return total;
    if (!argv.json)
      process.stderr.write(`  ${total.jobs} job(s), ${total.log_lines} log line(s) so far; ${report.remaining.jobs} job(s) to go...\n`);
  }
}

/**
 * `flowhost prune [--dry-run] [--json] [--vacuum ...]`: what the hourly retention job does,
 * now, with progress on stderr: finished jobs past job_retention_days with their log lines,
 * processed items only when forget_processed_items_after_days is set, then the space given back.
 */
export const prune: CliNoun = {
  ...nounHeader('prune'),
  builder: (y: Argv) =>
    y
      .option('dry-run', { type: 'boolean', default: false, describe: 'Count what would go; delete nothing' })
      .option('vacuum', {
        choices: ['incremental', 'full', 'none'] as const,
        default: ON_DEMAND_VACUUM,
        describe:
          'After pruning, embedded store: rewrite the database file to give the free pages back (holds the host about 2 s per 100,000 jobs pruned; run it in a quiet moment), give them back a batch at a time (a file in incremental auto_vacuum mode only), or neither',
      })
      .options(jsonOption),
  async handler(argv: ArgumentsCamelCase<Common & { dryRun?: boolean; vacuum?: string; json?: boolean }>) {
    const options = { dryRun: argv.dryRun === true, vacuum: argv.vacuum ?? ON_DEMAND_VACUUM, json: argv.json === true };
    const report = await withApi(argv, (api) =>
      pruneAll(options, async (body) => (await api.call<{ data: PruneReport }>('POST', '/jobs/prune', { body })).data),
    );
    if (options.json) {
      printJson(report);
      return;
    }
    if (report.jobs_cutoff === null && report.processed_items_cutoff === null) {
      console.log('Nothing to prune: job_retention_days is 0 (keep every job) and forget_processed_items_after_days is 0.');
      return;
    }
    const verb = report.dry_run ? 'Would prune' : 'Pruned';
    console.log(
      `${verb} ${report.jobs} job(s) and ${report.log_lines} log line(s)${report.jobs_cutoff ? ` finished before ${report.jobs_cutoff}` : ''}; ${report.processed_items} processed item(s).`,
    );
    if (report.bytes_freed !== null) console.log(`Gave back ${mib(report.bytes_freed)} to the file system.`);
    if (report.store)
      console.log(
        `Store: ${mib(report.store.bytes)}${report.store.freeBytes !== null ? `, ${mib(report.store.freeBytes)} of it free for reuse` : ''}.`,
      );
  },
};
