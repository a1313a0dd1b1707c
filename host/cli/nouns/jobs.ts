import type { Argv } from 'yargs';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';

/** `flowhost jobs ...`: read-only view of jobs, through the API. */
export const jobs: CliNoun = {
  noun: 'jobs',
  command: 'jobs <verb>',
  describe: 'Inspect jobs',
  builder: (y: Argv) =>
    y
      .command(
        'list',
        'Jobs, newest first',
        (c) => c.option('flow', { type: 'number', describe: 'Only this flow' }).option('status', { type: 'string', describe: 'Only this status' }).option('limit', { type: 'number', default: 20 }).options(jsonOption),
        async (argv) => {
          const body = await withApi(argv, (api) => api.call<{ data: Array<Record<string, unknown>>; total: number }>('GET', '/jobs', { query: { flow_id: argv.flow, status: argv.status, per_page: argv.limit } }));
          if (argv.json) printJson(body.data);
          else printRows(body.data.map((j) => ({ id: j.job_id, flow: j.flow_name ?? '-', status: j.status, created: j.created_at_display, completed: j.completed_at_display ?? '-', error: j.error ?? '' })));
        },
      )
      .demandCommand(1, 'Name a verb: list')
      .strict(),
};
