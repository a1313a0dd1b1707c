import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson } from '../output.js';
import { flowIdOf, type FlowView } from './flow-view.js';
import { nounHeader } from './catalogue.js';

/**
 * `flowhost processed-items clear`: the items a flow's fetch steps have taken are
 * remembered so they are not fetched twice; forgetting them (DELETE /processed-items, per
 * flow or per pipeline) has them fetched, and published, again.
 */
export const processedItems: CliNoun = {
  ...nounHeader('processed-items'),
  builder: (y: Argv) =>
    y
      .command(
        'clear',
        'Forget the processed items of one --flow, or of every flow of a --pipeline (asks first; --yes to skip)',
        (c) =>
          c
            .option('flow', { type: 'number', describe: 'The flow' })
            .option('pipeline', { type: 'number', describe: 'The pipeline (all its flows)' })
            .options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          if ((argv.flow === undefined) === (argv.pipeline === undefined)) throw new CliError('Give either --flow <id> or --pipeline <id>');
          const clearType = argv.flow !== undefined ? 'flow' : 'pipeline';
          const targetId = flowIdOf(argv.flow ?? argv.pipeline);
          const result = await withApi(argv, async (api) => {
            // Read first: a missing flow or pipeline is named before anyone is asked to confirm.
            const name =
              clearType === 'flow'
                ? (await api.call<{ data: FlowView }>('GET', `/flows/${targetId}`)).data.flow_name
                : (await api.call<{ data: { pipeline: { pipeline_name: string } } }>('GET', `/pipelines/${targetId}`)).data.pipeline
                    .pipeline_name;
            await confirm(
              argv,
              `Forget the processed items of ${clearType} ${targetId} "${name}" (they will be fetched and published again)`,
            );
            return api.call<{ message: string; data: { deleted_count: number } }>('DELETE', '/processed-items', {
              query: { clear_type: clearType, target_id: targetId },
            });
          });
          if (argv.json) printJson({ clear_type: clearType, target_id: targetId, deleted_count: result.data.deleted_count });
          else console.log(result.message);
        },
      )
      .demandCommand(1, 'Name a verb: clear')
      .strict(),
};
