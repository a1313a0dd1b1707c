import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import type { ApiSession } from '../api-session.js';
import { jsonOption, sleep, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { flowAdminVerbs } from './flow-admin-verbs.js';
import { revisionVerbs } from './revision-verbs.js';
import { flowIdOf, flowSteps, printFlow, type FlowView } from './flow-view.js';
import { collectEdits, orderedSteps, plain, type ResolvedStep, type StepEdits, type StepInfo } from '../step-refs.js';
import { nounHeader } from './catalogue.js';

const editOptions = (c: Argv) =>
  c
    // Repeatable (yargs collects repeats); not `array`, which would swallow the words after it.
    .option('handler', { type: 'string', describe: '<step>=<slug>: the handler of a step (step: 1-based position, type, or id)' })
    .option('set', {
      type: 'string',
      describe: '<step>.<key>=<value>: a handler setting (JSON values parse: 5, true; dotted keys nest); secrets go with --set-secret',
    })
    .option('set-secret', {
      type: 'string',
      describe: '<step>.<key>: a secret setting read from standard input, or <step>.<key>=@<file> from a file (never the command line)',
    })
    .option('user-message', { type: 'string', describe: "<step>=<text>: an ai step's message to the model" })
    .option('schedule', { type: 'string', describe: 'An interval (manual, every_5_minutes, hourly, daily, ... or one_time with --at)' })
    .option('at', { type: 'string', describe: 'For --schedule one_time: an ISO date or Unix seconds in the future' });

function scheduling(argv: { schedule?: string; at?: string }): { interval: string; timestamp?: number } | undefined {
  if (argv.schedule === undefined) {
    if (argv.at !== undefined) throw new CliError('--at goes with --schedule one_time');
    return undefined;
  }
  const interval = argv.schedule.trim();
  if (interval !== 'one_time') {
    if (argv.at !== undefined) throw new CliError('--at goes with --schedule one_time only');
    return { interval };
  }
  if (argv.at === undefined) throw new CliError('--schedule one_time needs --at <ISO date or Unix seconds>');
  const seconds = /^\d+$/.test(argv.at.trim()) ? Number(argv.at.trim()) : Math.floor(Date.parse(argv.at) / 1000);
  if (!Number.isSafeInteger(seconds)) throw new CliError(`--at '${argv.at}' is neither an ISO date nor Unix seconds`);
  return { interval, timestamp: seconds };
}

const describeStep = (step: ResolvedStep, handler?: string | null) =>
  `step ${step.position} (${step.step_type}${handler ? `, handler ${handler}` : ''})`;

/** The API's refusal, with the step it concerns and each refused field. */
function stepError(error: unknown, step: ResolvedStep, handler?: string | null): never {
  if (!(error instanceof CliError)) throw error;
  const params = (error.data?.params as Record<string, string> | undefined) ?? {};
  const fields = Object.entries(params).map(([field, message]) => (message.startsWith(field) ? message : `${field}: ${message}`));
  throw new CliError(`${describeStep(step, handler)}: ${fields.length ? fields.join('; ') : error.message}`, error.code, error.data);
}

async function checkHandlers(api: ApiSession, edits: Map<string, StepEdits>): Promise<void> {
  const wanted = [...edits.values()].filter((e) => e.handler);
  if (wanted.length === 0) return;
  const handlers = (await api.call<{ data: Record<string, { type: string }> }>('GET', '/handlers')).data;
  for (const e of wanted) {
    const handler = handlers[e.handler!];
    if (!handler)
      throw new CliError(
        `${describeStep(e.step)}: no handler '${e.handler}' in this host (${
          Object.keys(handlers)
            .filter((slug) => handlers[slug]!.type === e.step.step_type)
            .join(', ') || 'it has none for this step type'
        })`,
      );
    if (handler.type !== e.step.step_type) throw new CliError(`${describeStep(e.step)}: '${e.handler}' is a ${handler.type} handler`);
  }
}

/** `flowhost flows ...`: create, configure, show, list, run, duplicate and delete flows, through the API. */
export const flows: CliNoun = {
  ...nounHeader('flows'),
  builder: (y: Argv) =>
    revisionVerbs(flowRunVerbs(flowReadAndConfigVerbs(flowListAndCreateVerbs(flowAdminVerbs(y)))), 'flow')
      .demandCommand(1, 'Name a verb: create, show, config, list, run, duplicate, delete, problems, revisions, diff or restore')
      .strict(),
};

/** `list` and `create`: the flows there are, and a new one. */
function flowListAndCreateVerbs(y: Argv): Argv {
  return y
    .command(
      'list',
      'Flows with their schedule and last run',
      (c) => c.option('pipeline', { type: 'number', describe: 'Only this pipeline' }).options(jsonOption),
      async (argv) => {
        const body = await withApi(argv, (api) =>
          api.call<{ data: { flows: Array<Record<string, unknown>> } }>('GET', '/flows', {
            query: { pipeline_id: argv.pipeline, per_page: 100, output_mode: 'full' },
          }),
        );
        const flows = body.data.flows;
        if (argv.json) printJson(flows);
        else
          printRows(
            flows.map((f) => ({
              id: f.flow_id,
              name: f.flow_name,
              pipeline: f.pipeline_id,
              schedule: (f.scheduling_config as { interval: string }).interval,
              last_run: f.last_run_display,
              status: f.last_run_status ?? '-',
              next_run: f.next_run_display,
            })),
          );
      },
    )
    .command(
      'create <pipeline_id>',
      'Create a flow of a pipeline, with handlers, settings and schedule (steps by position, type or id)',
      (c) =>
        editOptions(
          c
            .positional('pipeline_id', { type: 'number', demandOption: true })
            .option('name', { type: 'string', describe: 'The flow name (default "Flow")' }),
        ).options(jsonOption),
      async (argv) => {
        const pipelineId = flowIdOf(argv.pipeline_id);
        const schedule = scheduling(argv);
        const flow = await withApi(argv, async (api) => {
          const pipeline = (await api.call<{ data: { pipeline: { pipeline_steps: StepInfo[] } } }>('GET', `/pipelines/${pipelineId}`)).data
            .pipeline;
          const edits = collectEdits(argv, orderedSteps(pipeline.pipeline_steps), pipelineId);
          for (const e of edits.values())
            if (e.hasSettings && !e.handler)
              throw new CliError(`${describeStep(e.step)}: --set needs a handler for the step: add --handler ${e.step.position}=<slug>`);
          await checkHandlers(api, edits);
          const flow_config: Record<string, Record<string, unknown>> = {};
          for (const e of edits.values()) {
            flow_config[e.step.pipeline_step_id] = {
              ...(e.handler ? { handler_slug: e.handler, handler_config: plain(e.settings) } : {}),
              ...(e.userMessage !== undefined ? { user_message: e.userMessage } : {}),
            };
          }
          let created: { data: { flow_id: number } };
          try {
            created = await api.call('POST', '/flows', {
              body: {
                pipeline_id: pipelineId,
                ...(argv.name ? { flow_name: argv.name } : {}),
                flow_config,
                ...(schedule ? { scheduling_config: schedule } : {}),
              },
            });
          } catch (error) {
            // The API refuses one handler's settings at a time and names the handler: say which step.
            const slug = error instanceof CliError ? /handler '([^']+)'/.exec(error.message)?.[1] : undefined;
            const culprit = slug ? [...edits.values()].find((e) => e.handler === slug) : undefined;
            if (culprit) stepError(error, culprit.step, slug);
            throw error;
          }
          return (await api.call<{ data: FlowView }>('GET', `/flows/${created.data.flow_id}`)).data;
        });
        if (!argv.json) console.log(`Flow ${flow.flow_id} created.`);
        printFlow(flow, argv.json);
      },
    );
}

/** `show` and `config`: one flow as it is, and changing its settings. */
function flowReadAndConfigVerbs(y: Argv): Argv {
  return y
    .command(
      'show <id>',
      'A flow: its steps with handler and settings (secrets masked), schedule and last run',
      (c) => c.positional('id', { type: 'number', demandOption: true }).options(jsonOption),
      async (argv) => {
        const id = flowIdOf(argv.id);
        const flow = await withApi(argv, async (api) => (await api.call<{ data: FlowView }>('GET', `/flows/${id}`)).data);
        printFlow(flow, argv.json);
      },
    )
    .command(
      'config <id>',
      "Change a flow's handlers, settings, user messages, name or schedule",
      (c) =>
        editOptions(
          c.positional('id', { type: 'number', demandOption: true }).option('name', { type: 'string', describe: 'A new name' }),
        ).options(jsonOption),
      async (argv) => {
        const id = flowIdOf(argv.id);
        const schedule = scheduling(argv);
        const flow = await withApi(argv, async (api) => {
          const current = (await api.call<{ data: FlowView }>('GET', `/flows/${id}`)).data;
          const steps = flowSteps(current);
          const edits = collectEdits(argv, steps, `of flow ${id}`);
          if (edits.size === 0 && schedule === undefined && argv.name === undefined)
            throw new CliError('Nothing to change: give --handler, --set, --set-secret, --user-message, --schedule or --name');
          await checkHandlers(api, edits);
          for (const e of edits.values()) {
            const step = steps.find((s) => s.pipeline_step_id === e.step.pipeline_step_id)!;
            if (e.hasSettings && !e.handler && !step.handler_slug)
              throw new CliError(`${describeStep(e.step)}: the step has no handler yet: add --handler ${e.step.position}=<slug>`);
          }
          // Every step's change is checked by the API; they are sent step by step, in order.
          for (const e of edits.values()) {
            const step = steps.find((s) => s.pipeline_step_id === e.step.pipeline_step_id)!;
            const handler = e.handler ?? step.handler_slug;
            try {
              if (e.handler && e.handler !== step.handler_slug) {
                await api.call('PUT', `/flows/steps/${step.flow_step_id}/handler`, {
                  body: { handler_slug: e.handler, settings: plain(e.settings) },
                });
              } else if (e.hasSettings) {
                await api.call('PATCH', `/flows/steps/${step.flow_step_id}/config`, { body: { handler_config: plain(e.settings) } });
              }
              if (e.userMessage !== undefined)
                await api.call('PATCH', `/flows/steps/${step.flow_step_id}/config`, { body: { user_message: e.userMessage } });
            } catch (error) {
              stepError(error, e.step, handler);
            }
          }
          if (schedule !== undefined || argv.name !== undefined) {
            await api.call('PATCH', `/flows/${id}`, {
              body: {
                ...(schedule ? { scheduling_config: schedule } : {}),
                ...(argv.name !== undefined ? { flow_name: argv.name } : {}),
              },
            });
          }
          return (await api.call<{ data: FlowView }>('GET', `/flows/${id}`)).data;
        });
        if (!argv.json) console.log(`Flow ${flow.flow_id} updated.`);
        printFlow(flow, argv.json);
      },
    );
}

/** `run`: run a flow now and follow its job. */
function flowRunVerbs(y: Argv): Argv {
  return y.command(
    'run <id>',
    'Run a flow now and follow its job until it ends, or until it waits for review (an approval step)',
    (c) =>
      c
        .positional('id', { type: 'number', demandOption: true })
        .option('wait', {
          type: 'boolean',
          default: true,
          describe: 'Follow the job until it ends or waits for review (use --no-wait to only start it)',
        })
        .options(jsonOption),
    async (argv) => {
      const result = await withApi(argv, async (api) => {
        const started = await api.call<{ data: { job_id: number; flow_name: string } }>('POST', '/execute', {
          body: { flow_id: argv.id },
        });
        const jobId = started.data.job_id;
        if (!argv.json)
          process.stderr.write(`Started flow "${started.data.flow_name}" as job ${jobId}${argv.wait ? '; following it' : ''}\n`);
        if (!argv.wait) return { job_id: jobId, status: 'pending' } as Record<string, unknown>;
        for (let i = 0; ; i++) {
          const job = (await api.call<{ data: Record<string, unknown> }>('GET', `/jobs/${jobId}`)).data;
          if (!['pending', 'processing'].includes(String(job.status))) return job;
          if (!argv.json && i % 10 === 9) process.stderr.write(`  job ${jobId}: ${String(job.status)}...\n`);
          await sleep(200);
        }
      });
      if (argv.json) printJson(result);
      else if (result.status === 'waiting')
        console.log(
          `Job ${String(result.job_id)}: waiting for review; decide with flowhost jobs approve|reject ${String(result.job_id)} (see flowhost jobs waiting)`,
        );
      else console.log(`Job ${String(result.job_id)}: ${String(result.status)}${result.error ? ` (${String(result.error)})` : ''}`);
      if (result.status === 'failed') process.exitCode = 1;
    },
  );
}
