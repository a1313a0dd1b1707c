import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson, printRows } from '../output.js';
import { orderedSteps } from '../step-refs.js';
import { pipelineStepVerbs } from './pipeline-steps.js';
import { revisionVerbs } from './revision-verbs.js';
import { pipelineIdOf, printPipeline, stepRows, type PipelineView } from './pipeline-view.js';
import { nounHeader } from './catalogue.js';

/** `flowhost pipelines ...`: create, rename, list, show and delete pipelines, and edit their steps, through the API. */
export const pipelines: CliNoun = {
  ...nounHeader('pipelines'),
  builder: (y: Argv) =>
    revisionVerbs(y, 'pipeline')
      .command(
        'create <name>',
        'Create a pipeline with its steps in order (--step fetch --step ai --step publish)',
        (c) =>
          c
            .positional('name', { type: 'string', demandOption: true, describe: 'The pipeline name' })
            .option('step', { type: 'string', describe: 'A step type, once per step, in order (fetch, ai, publish, update)' })
            .options(jsonOption),
        async (argv) => {
          const name = String(argv.name).trim();
          if (!name) throw new CliError('The pipeline name is empty');
          const given = argv.step === undefined ? [] : Array.isArray(argv.step) ? (argv.step as unknown[]) : [argv.step];
          const steps = given.map((type) => ({ step_type: String(type).trim() }));
          const res = await withApi(argv, (api) =>
            api.call<{ data: { pipeline_id: number; pipeline_name: string; pipeline_data: PipelineView } }>('POST', '/pipelines', {
              body: { pipeline_name: name, steps },
            }),
          );
          const view = res.data.pipeline_data;
          printPipeline(
            view,
            argv.json,
            `Pipeline ${res.data.pipeline_id} "${res.data.pipeline_name}" created with ${view.pipeline_steps.length} step(s).`,
          );
        },
      )
      .command(
        'list',
        'Pipelines with their step and flow counts',
        (c) => c.option('search', { type: 'string', describe: 'Only names containing this text' }).options(jsonOption),
        async (argv) => {
          const res = await withApi(argv, (api) =>
            api.call<{ data: { pipelines: PipelineView[] } }>('GET', '/pipelines', {
              query: { per_page: 100, output_mode: 'full', search: argv.search },
            }),
          );
          const list = res.data.pipelines;
          if (argv.json) printJson(list);
          else
            printRows(
              list.map((p) => ({
                id: p.pipeline_id,
                name: p.pipeline_name,
                steps: orderedSteps(p.pipeline_steps)
                  .map((s) => s.step_type)
                  .join(' > '),
                flows: p.flow_count ?? 0,
              })),
            );
        },
      )
      .command(
        'show <id>',
        'A pipeline: its steps (position, type, id) and flows',
        (c) => c.positional('id', { type: 'number', demandOption: true }).options(jsonOption),
        async (argv) => {
          if (!Number.isSafeInteger(argv.id) || argv.id < 1) throw new CliError(`'${String(argv.id)}' is not a pipeline id`);
          const res = await withApi(argv, (api) =>
            api.call<{ data: { pipeline: PipelineView; flows: Array<Record<string, unknown>> } }>('GET', `/pipelines/${argv.id}`),
          );
          const { pipeline, flows } = res.data;
          if (argv.json) {
            printJson({
              ...pipeline,
              steps: stepRows(pipeline.pipeline_steps),
              flows: flows.map((f) => ({ flow_id: f.flow_id, flow_name: f.flow_name, scheduling_config: f.scheduling_config })),
            });
            return;
          }
          console.log(`Pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}"`);
          printRows(stepRows(pipeline.pipeline_steps));
          console.log(`\nFlows: ${flows.length ? flows.map((f) => `${String(f.flow_id)} "${String(f.flow_name)}"`).join(', ') : 'none'}`);
        },
      )
      .command(
        'rename <id> <name>',
        'Rename a pipeline',
        (c) =>
          c
            .positional('id', { type: 'number', demandOption: true })
            .positional('name', { type: 'string', demandOption: true, describe: 'The new name' })
            .options(jsonOption),
        async (argv) => {
          const id = pipelineIdOf(argv.id);
          const name = String(argv.name).trim();
          if (!name) throw new CliError('The pipeline name is empty');
          const view = await withApi(
            argv,
            async (api) => (await api.call<{ data: PipelineView }>('PATCH', `/pipelines/${id}`, { body: { pipeline_name: name } })).data,
          );
          printPipeline(view, argv.json, `Pipeline ${view.pipeline_id} renamed "${view.pipeline_name}".`);
        },
      )
      .command('steps <verb>', "Add, remove, reorder and configure a pipeline's steps (steps by position, type or id)", (c) =>
        pipelineStepVerbs(c).demandCommand(1, 'Name a verb: add, remove, reorder or config').strict(),
      )
      .command(
        'delete <id>',
        'Delete a pipeline with all its flows and their schedules (asks first; --yes to skip)',
        (c) => c.positional('id', { type: 'number', demandOption: true }).options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          if (!Number.isSafeInteger(argv.id) || argv.id < 1) throw new CliError(`'${String(argv.id)}' is not a pipeline id`);
          const result = await withApi(argv, async (api) => {
            // Read first: the question names the flows that go with the pipeline.
            const { pipeline, flows } = (
              await api.call<{ data: { pipeline: PipelineView; flows: Array<{ flow_id: number }> } }>('GET', `/pipelines/${argv.id}`)
            ).data;
            await confirm(argv, `Delete pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}" and its ${flows.length} flow(s)`);
            const deleted = (await api.call<{ data: { deleted_flows: number } }>('DELETE', `/pipelines/${argv.id}`)).data;
            return {
              pipeline_id: pipeline.pipeline_id,
              pipeline_name: pipeline.pipeline_name,
              deleted_flows: deleted.deleted_flows,
              flow_ids: flows.map((f) => f.flow_id),
            };
          });
          if (argv.json) printJson(result);
          else console.log(`Pipeline ${result.pipeline_id} "${result.pipeline_name}" deleted with ${result.deleted_flows} flow(s).`);
        },
      )
      .demandCommand(1, 'Name a verb: create, list, show, rename, steps, delete, revisions, diff or restore')
      .strict(),
};
