import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';
import { reviewVerbs } from './job-review-verbs.js';

type JobStep = {
  position: number | null;
  step_type: string;
  handler_slug: string | null;
  status: string;
  items_in: number;
  items_out: number;
  duration_ms: number;
  error?: string;
  /** The step's packets' identities: what it passed on (a failed step: what it was given). */
  items?: Array<{ item_id: string; title: string | null }>;
};
type Trigger = {
  kind: string;
  retry_of: number | null;
  retry_from?: 'failed_step' | 'start';
  retried_by?: number | null;
  user_login: string | null;
  webhook?: { request_id: string | null };
};
type JobView = Record<string, unknown> & {
  job_id: number;
  status: string;
  flow_id: number | null;
  flow_name: string | null;
  error?: string | null;
  steps?: JobStep[];
  trigger?: Trigger;
  review?: { position: number; mode: string; pending: number; timeout_at: string | null; on_timeout: string; link_expires_at: string };
};

/** `execute by admin`, `webhook (request …)`, `retry of job 4 by admin`. */
function triggerText(trigger: Trigger): string {
  const from = trigger.retry_from === 'start' ? ' from the start' : ' from the failed step';
  const what = trigger.kind === 'retry' && trigger.retry_of !== null ? `retry of job ${trigger.retry_of}${from}` : trigger.kind;
  const request = trigger.webhook?.request_id ? ` (request ${trigger.webhook.request_id})` : '';
  return `${what}${request}${trigger.user_login ? ` by ${trigger.user_login}` : ''}`;
}

/** Each step's items under its line: what it passed on, or for a failed step what it was given. */
function printItems(steps: JobStep[]): void {
  for (const step of steps) {
    if (!step.items?.length) continue;
    const what = step.status === 'failed' ? 'given' : 'out';
    console.log(`Step ${step.position ?? '-'} ${step.step_type}${step.handler_slug ? ` (${step.handler_slug})` : ''}, items ${what}:`);
    for (const item of step.items) console.log(`  ${item.item_id}${item.title ? ` "${item.title}"` : ''}`);
  }
}

function printJob(job: JobView): void {
  console.log(`Job ${job.job_id}: ${job.status}${job.error ? ` (${String(job.error)})` : ''}`);
  console.log(
    `Flow: ${job.flow_id === null ? '-' : `${job.flow_id} "${String(job.flow_name ?? '')}"`}; created ${String(job.created_at_display ?? job.created_at ?? '-')}; completed ${String(job.completed_at_display ?? job.completed_at ?? '-')}`,
  );
  if (job.trigger) console.log(`Started by: ${triggerText(job.trigger)}`);
  if (job.status === 'waiting' && job.review) {
    const r = job.review;
    const decide = r.mode === 'webhook' ? 'a webhook delivery' : `review: ${r.pending} item${r.pending === 1 ? '' : 's'} pending`;
    const timeout = r.timeout_at ? `; on timeout (${r.timeout_at}) ${r.on_timeout}` : '; no timeout';
    console.log(
      `Waiting at step ${r.position} for ${decide}${timeout}. Decide with flowhost jobs approve|reject ${job.job_id} (items: flowhost jobs waiting).`,
    );
  }
  if (typeof job.trigger?.retried_by === 'number') console.log(`Retried by: job ${job.trigger.retried_by}`);
  if (job.steps?.length)
    printRows(
      job.steps.map((s) => ({
        position: s.position ?? '-',
        type: s.step_type,
        handler: s.handler_slug ?? '-',
        status: s.status,
        in: s.items_in,
        out: s.items_out,
        ms: s.duration_ms,
        error: s.error ?? '',
      })),
    );
  if (job.steps?.length) printItems(job.steps);
}

/** `flowhost jobs ...`: jobs through the API: list, show, clear, cancel, retry, approve, reject, waiting. */
export const jobs: CliNoun = {
  ...nounHeader('jobs'),
  builder: (y: Argv) =>
    reviewVerbs(y)
      .command(
        'list',
        'Jobs, newest first',
        (c) =>
          c
            .option('flow', { type: 'number', describe: 'Only this flow' })
            .option('status', { type: 'string', describe: 'Only this status' })
            .option('limit', { type: 'number', default: 20 })
            .options(jsonOption),
        async (argv) => {
          const body = await withApi(argv, (api) =>
            api.call<{ data: Array<Record<string, unknown>>; total: number }>('GET', '/jobs', {
              query: { flow_id: argv.flow, status: argv.status, per_page: argv.limit },
            }),
          );
          if (argv.json) printJson(body.data);
          else
            printRows(
              body.data.map((j) => ({
                id: j.job_id,
                flow: j.flow_name ?? '-',
                status: j.status,
                created: j.created_at_display,
                completed: j.completed_at_display ?? '-',
                error: j.error ?? '',
              })),
            );
        },
      )
      .command(
        'show <id>',
        "One job: what started it, status, timings, each step's outcome and items (--packets: each step's input and output bodies)",
        (c) =>
          c
            .positional('id', { type: 'number', demandOption: true })
            .option('packets', {
              type: 'boolean',
              default: false,
              describe: "Include each step's input and output items (bodies; with --json)",
            })
            .options(jsonOption),
        async (argv) => {
          if (!Number.isSafeInteger(argv.id) || argv.id < 1) throw new CliError(`'${String(argv.id)}' is not a job id`);
          const job = await withApi(
            argv,
            async (api) =>
              (await api.call<{ data: JobView }>('GET', `/jobs/${argv.id}`, { query: { include: argv.packets ? 'packets' : undefined } }))
                .data,
          );
          if (argv.json) printJson(job);
          else printJob(job);
        },
      )
      .command(
        'clear',
        'Delete jobs: all, or --failed; of one --flow; --processed forgets their processed items too (asks first; --yes to skip)',
        (c) =>
          c
            .option('failed', { type: 'boolean', default: false, describe: 'Only failed jobs' })
            .option('flow', { type: 'number', describe: 'Only jobs of this flow' })
            .option('processed', {
              type: 'boolean',
              default: false,
              describe: 'Also forget their processed items, so the items are fetched again',
            })
            .options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          const result = await withApi(argv, async (api) => {
            await confirm(
              argv,
              `Delete ${argv.failed ? 'the failed' : 'all'} jobs${argv.flow !== undefined ? ` of flow ${argv.flow}` : ''}${argv.processed ? ' and their processed items' : ''}`,
            );
            return api.call<{ message: string; data: { deleted_count: number; processed_items_deleted: number } }>('DELETE', '/jobs', {
              query: { type: argv.failed ? 'failed' : 'all', flow_id: argv.flow, cleanup_processed: argv.processed },
            });
          });
          if (argv.json) printJson(result.data);
          else console.log(result.message);
        },
      )
      .command(
        'cancel <id>',
        'Cancel a pending, queued, running or waiting job: a running one frees its flow and stops at its next step (asks first; --yes to skip)',
        (c) => c.positional('id', { type: 'number', demandOption: true }).options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          if (!Number.isSafeInteger(argv.id) || argv.id < 1) throw new CliError(`'${String(argv.id)}' is not a job id`);
          await confirm(argv, `Cancel job ${argv.id}`);
          const result = await withApi(argv, (api) =>
            api.call<{ message: string; data: Record<string, unknown> }>('POST', `/jobs/${argv.id}/cancel`),
          );
          if (argv.json) printJson(result.data);
          else console.log(result.message);
        },
      )
      .command(
        'retry <id>',
        'Retry a failed or cancelled job: from its failed step (earlier steps not run again, published items not published again) or --from start',
        (c) =>
          c
            .positional('id', { type: 'number', demandOption: true })
            .option('from', {
              choices: ['failed_step', 'start'] as const,
              default: 'failed_step' as const,
              describe: 'Where the retry starts',
            })
            .options(jsonOption),
        async (argv) => {
          if (!Number.isSafeInteger(argv.id) || argv.id < 1) throw new CliError(`'${String(argv.id)}' is not a job id`);
          const result = await withApi(argv, (api) =>
            api.call<{ message: string; data: Record<string, unknown> }>('POST', `/jobs/${argv.id}/retry`, { body: { from: argv.from } }),
          );
          if (argv.json) printJson(result.data);
          else console.log(`${result.message} Follow it with: flowhost jobs show ${String(result.data.job_id)}`);
        },
      )
      .demandCommand(1, 'Name a verb: list, show, clear, cancel, retry, approve, reject or waiting')
      .strict(),
};
