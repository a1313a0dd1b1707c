import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson } from '../output.js';
import { orderedSteps, resolveStep, type ResolvedStep } from '../step-refs.js';
import { pipelineIdOf, printPipeline, readPipeline, stepRow } from './pipeline-view.js';

const idArg = (c: Argv) => c.positional('id', { type: 'number', demandOption: true, describe: 'The pipeline' });
const stepArg = (c: Argv) =>
  c.positional('step', {
    type: 'string',
    demandOption: true,
    describe: 'A step: 1-based position, type (when only one step has it) or id',
  });
const describeStep = (step: ResolvedStep) => `step ${step.position} (${step.step_type}${step.label ? ` "${step.label}"` : ''})`;

/** The system prompt from --system-prompt or --system-prompt-file ('-': stdin); undefined when neither is given. */
function systemPrompt(argv: { 'system-prompt'?: string; 'system-prompt-file'?: string }): string | undefined {
  if (argv['system-prompt'] !== undefined && argv['system-prompt-file'] !== undefined)
    throw new CliError('Give --system-prompt or --system-prompt-file, not both');
  if (argv['system-prompt-file'] === undefined) return argv['system-prompt'];
  // yargs hands a lone '-' over as an empty string.
  const file = argv['system-prompt-file'] === '' ? '-' : argv['system-prompt-file'];
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new CliError(`Could not read the system prompt from ${file === '-' ? 'stdin' : file}: ${(error as Error).message}`);
  }
}

/**
 * `pipelines steps add|remove|reorder|config`: a pipeline's steps, named as `flows` names
 * them (position, type or id). Every flow of the pipeline follows: an added step is a new,
 * unconfigured flow step; a removed one takes the flows' settings for it along.
 */
export function pipelineStepVerbs(y: Argv): Argv {
  return y
    .command(
      'add <id> <type>',
      'Add a step (fetch, ai, publish, update) at the end, or at --at <position>',
      (c) =>
        idArg(c)
          .positional('type', { type: 'string', demandOption: true, describe: 'The step type' })
          .option('at', { type: 'number', describe: 'Its 1-based position (default: last)' })
          .option('label', { type: 'string', describe: 'Its label (default: "<Type> Step")' })
          .options(jsonOption),
      async (argv) => {
        const id = pipelineIdOf(argv.id);
        if (argv.at !== undefined && (!Number.isSafeInteger(argv.at) || argv.at < 1))
          throw new CliError(`--at '${String(argv.at)}' is not a position (1, 2, ...)`);
        const { pipeline, added } = await withApi(argv, async (api) => {
          const res = await api.call<{ data: { pipeline_step_id: string } }>('POST', `/pipelines/${id}/steps`, {
            body: {
              step_type: String(argv.type).trim(),
              ...(argv.at !== undefined ? { execution_order: argv.at - 1 } : {}),
              ...(argv.label !== undefined ? { label: argv.label } : {}),
            },
          });
          const { pipeline } = await readPipeline(api, id);
          return { pipeline, added: orderedSteps(pipeline.pipeline_steps).find((s) => s.pipeline_step_id === res.data.pipeline_step_id)! };
        });
        printPipeline(pipeline, argv.json, `Pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}": ${describeStep(added)} added.`, {
          added: stepRow(added),
        });
      },
    )
    .command(
      'remove <id> <step>',
      'Remove a step; its flows lose their settings for it (asks first; --yes to skip)',
      (c) => stepArg(idArg(c)).options({ ...yesOption, ...jsonOption }),
      async (argv) => {
        const id = pipelineIdOf(argv.id);
        const { pipeline, removed } = await withApi(argv, async (api) => {
          // Read first: the step is resolved, and a missing pipeline named, before anyone is asked.
          const current = await readPipeline(api, id);
          const step = resolveStep(String(argv.step), orderedSteps(current.pipeline.pipeline_steps), id);
          await confirm(
            argv,
            `Remove ${describeStep(step)} from pipeline ${id} "${current.pipeline.pipeline_name}" and its settings from ${current.flows.length} flow(s)`,
          );
          await api.call('DELETE', `/pipelines/${id}/steps/${encodeURIComponent(step.pipeline_step_id)}`);
          return { pipeline: (await readPipeline(api, id)).pipeline, removed: step };
        });
        printPipeline(
          pipeline,
          argv.json,
          `Pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}": ${describeStep(removed)} removed.`,
          { removed: stepRow(removed) },
        );
      },
    )
    .command(
      'reorder <id> <steps..>',
      "Put the steps in a new order, naming every step once by position, type or id (reorder 7 3 1 2: pipeline 7's third step first)",
      (c) =>
        idArg(c)
          .positional('steps', { type: 'string', array: true, demandOption: true, describe: 'The steps in their new order' })
          .options(jsonOption),
      async (argv) => {
        const id = pipelineIdOf(argv.id);
        const pipeline = await withApi(argv, async (api) => {
          const steps = orderedSteps((await readPipeline(api, id)).pipeline.pipeline_steps);
          // Each step as named; the API refuses an order that leaves one out or names one twice.
          const order = argv.steps.map((ref, index) => ({
            pipeline_step_id: resolveStep(String(ref), steps, id).pipeline_step_id,
            execution_order: index,
          }));
          await api.call('PUT', `/pipelines/${id}/steps/reorder`, { body: { step_order: order } });
          return (await readPipeline(api, id)).pipeline;
        });
        printPipeline(pipeline, argv.json, `Pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}": steps reordered.`);
      },
    )
    .command(
      'config <id> <step>',
      "Configure a step: an ai step's provider, model and system prompt; any step's label",
      (c) =>
        stepArg(idArg(c))
          .option('provider', { type: 'string', describe: 'ai steps: the AI provider slug (flowhost providers list)' })
          .option('model', { type: 'string', describe: 'ai steps: the model' })
          .option('system-prompt', { type: 'string', describe: 'ai steps: the system prompt' })
          .option('system-prompt-file', { type: 'string', describe: "ai steps: read the system prompt from this file ('-': stdin)" })
          .option('label', { type: 'string', describe: 'The step label' })
          .options(jsonOption),
      async (argv) => {
        const id = pipelineIdOf(argv.id);
        const prompt = systemPrompt(argv);
        const ai = {
          ...(argv.provider !== undefined ? { provider: argv.provider.trim() } : {}),
          ...(argv.model !== undefined ? { model: argv.model.trim() } : {}),
          ...(prompt !== undefined ? { system_prompt: prompt } : {}),
        };
        const body = { ...ai, ...(argv.label !== undefined ? { label: argv.label } : {}) };
        if (Object.keys(body).length === 0)
          throw new CliError('Nothing to change: give --provider, --model, --system-prompt, --system-prompt-file or --label');
        const result = await withApi(argv, async (api) => {
          const step = resolveStep(String(argv.step), orderedSteps((await readPipeline(api, id)).pipeline.pipeline_steps), id);
          if (Object.keys(ai).length && step.step_type !== 'ai')
            throw new CliError(`${describeStep(step)}: only ai steps take a provider, model or system prompt`);
          const saved = (
            await api.call<{ data: Record<string, unknown> }>(
              'PUT',
              `/pipelines/steps/${encodeURIComponent(step.pipeline_step_id)}/config`,
              { body: { ...body, pipeline_id: id } },
            )
          ).data;
          return { pipeline_id: id, position: step.position, ...saved } as Record<string, unknown>;
        });
        if (argv.json) {
          printJson(result);
          return;
        }
        console.log(`Pipeline ${id}: step ${String(result.position)} (${String(result.step_type)}) configured.`);
        for (const key of ['label', 'provider', 'model', 'system_prompt']) {
          const value = result[key];
          if (value === undefined) continue;
          const text = String(value);
          console.log(
            `  ${key}: ${key === 'system_prompt' && text.length > 80 ? `${text.slice(0, 79).replace(/\s+/g, ' ')}… (${text.length} characters)` : text.replace(/\s+/g, ' ')}`,
          );
        }
      },
    );
}
