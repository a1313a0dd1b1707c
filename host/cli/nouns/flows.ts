import type { Argv } from 'yargs';
import { jsonOption, sleep, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';

/** `flowhost flows ...`: list flows and run one, through the API. */
export const flows: CliNoun = {
  noun: 'flows',
  command: 'flows <verb>',
  describe: 'List and run flows',
  builder: (y: Argv) =>
    y
      .command('list', 'Flows with their schedule and last run', (c) => c.option('pipeline', { type: 'number', describe: 'Only this pipeline' }).options(jsonOption), async (argv) => {
        const body = await withApi(argv, (api) => api.call<{ data: { flows: Array<Record<string, unknown>> } }>('GET', '/flows', { query: { pipeline_id: argv.pipeline, per_page: 100, output_mode: 'full' } }));
        const flows = body.data.flows;
        if (argv.json) printJson(flows);
        else printRows(flows.map((f) => ({ id: f.flow_id, name: f.flow_name, pipeline: f.pipeline_id, schedule: (f.scheduling_config as { interval: string }).interval, last_run: f.last_run_display, status: f.last_run_status ?? '-', next_run: f.next_run_display })));
      })
      .command(
        'run <id>',
        'Run a flow now and wait for its job to end',
        (c) => c.positional('id', { type: 'number', demandOption: true }).option('wait', { type: 'boolean', default: true, describe: 'Wait for the job (use --no-wait to only start it)' }).options(jsonOption),
        async (argv) => {
          const result = await withApi(argv, async (api) => {
            const started = await api.call<{ data: { job_id: number; flow_name: string } }>('POST', '/execute', { body: { flow_id: argv.id } });
            const jobId = started.data.job_id;
            if (!argv.json) process.stderr.write(`Started flow "${started.data.flow_name}" as job ${jobId}${argv.wait ? '; waiting' : ''}\n`);
            if (!argv.wait) return { job_id: jobId, status: 'pending' } as Record<string, unknown>;
            for (let i = 0; ; i++) {
              const job = (await api.call<{ data: Record<string, unknown> }>('GET', `/jobs/${jobId}`)).data;
              if (!['pending', 'processing'].includes(String(job.status))) return job;
              if (!argv.json && i % 10 === 9) process.stderr.write(`  job ${jobId}: ${String(job.status)}...\n`);
              await sleep(200);
            }
          });
          if (argv.json) printJson(result);
          else console.log(`Job ${String(result.job_id)}: ${String(result.status)}${result.error ? ` (${String(result.error)})` : ''}`);
          if (result.status === 'failed') process.exitCode = 1;
        },
      )
      .demandCommand(1, 'Name a verb: list or run')
      .strict(),
};
