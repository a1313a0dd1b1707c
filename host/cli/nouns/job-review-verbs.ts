import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';

type ReviewItem = { item_id: string; title: string | null; decision: string | null; packet: Record<string, unknown> | null };
type WaitingJob = {
  job_id: number;
  flow_name: string | null;
  label: string;
  review?: { position: number; mode: string; pending: number; timeout_at: string | null; on_timeout: string; items: ReviewItem[] };
};

const jobId = (id: unknown): number => {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new CliError(`'${String(id)}' is not a job id`);
  return id;
};

/** `--items a,b`: the item ids, or undefined for every pending item. */
const itemsOf = (items: string | undefined): string[] | undefined => {
  const list = (items ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
};

/** `flowhost jobs approve|reject <id> [--items a,b]` and `flowhost jobs waiting`: the review step (issue 55). */
export function reviewVerbs(y: Argv): Argv {
  const decide = (word: 'approve' | 'reject') =>
    y.command(
      `${word} <id>`,
      `${word === 'approve' ? 'Approve' : 'Reject'} a waiting job's items (--items a,b; none: every pending item); the run goes on once all are decided`,
      (c) =>
        c
          .positional('id', { type: 'number', demandOption: true })
          .option('items', { type: 'string', describe: 'Comma-separated item ids (see flowhost jobs waiting)' })
          .options(jsonOption),
      async (argv) => {
        const id = jobId(argv.id);
        const items = itemsOf(argv.items);
        const result = await withApi(argv, (api) =>
          api.call<{ message: string; data: Record<string, unknown> }>('POST', `/jobs/${id}/${word}`, { body: items ? { items } : {} }),
        );
        if (argv.json) printJson(result.data);
        else console.log(result.message);
      },
    );
  decide('approve');
  decide('reject');
  return y.command(
    'waiting',
    'Jobs waiting for review, each item as it will go on (its title and the previous step’s output)',
    (c) => c.option('limit', { type: 'number', default: 50 }).options(jsonOption),
    async (argv) => {
      const body = await withApi(argv, (api) =>
        api.call<{ data: WaitingJob[] }>('GET', '/jobs', { query: { status: 'waiting', per_page: argv.limit } }),
      );
      if (argv.json) {
        printJson(body.data.map((j) => ({ job_id: j.job_id, flow_name: j.flow_name, label: j.label, review: j.review ?? null })));
        return;
      }
      if (!body.data.length) {
        console.log('No job is waiting for review.');
        return;
      }
      printRows(
        body.data.flatMap((j) =>
          (j.review?.items ?? []).map((item) => ({
            job: j.job_id,
            flow: j.flow_name ?? j.label,
            step: j.review!.position,
            item: item.item_id,
            title: item.title ?? '-',
            decision: item.decision ?? 'pending',
            timeout: j.review!.timeout_at ? `${j.review!.timeout_at} (${j.review!.on_timeout})` : '-',
          })),
        ),
      );
    },
  );
}
