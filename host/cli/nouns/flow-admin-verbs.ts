import type { Argv } from 'yargs';
import { confirm, yesOption } from '../confirm.js';
import { jsonOption, withApi } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { flowIdOf, printFlow, type FlowView } from './flow-view.js';

type ProblemFlow = {
  flow_id: number;
  flow_name: string;
  consecutive_failures: number;
  consecutive_no_items: number;
  needs_configuration?: Array<{ handler_slug: string; missing_settings: string[] }>;
  /** What the flow names that no loaded plugin provides (issue 54). */
  orphaned?: Array<{ reason: string }>;
};

/** `flows delete`, `flows duplicate` and `flows problems`: the flow routes `flows` lacked (issue 31). */
export function flowAdminVerbs(y: Argv): Argv {
  return y
    .command(
      'delete <id>',
      'Delete a flow and its schedule (asks first; --yes to skip)',
      (c) => c.positional('id', { type: 'number', demandOption: true }).options({ ...yesOption, ...jsonOption }),
      async (argv) => {
        const id = flowIdOf(argv.id);
        const flow = await withApi(argv, async (api) => {
          // Read first: a missing flow is named before anyone is asked to confirm.
          const current = (await api.call<{ data: FlowView }>('GET', `/flows/${id}`)).data;
          await confirm(argv, `Delete flow ${id} "${current.flow_name}"`);
          await api.call('DELETE', `/flows/${id}`);
          return current;
        });
        if (argv.json) printJson({ flow_id: flow.flow_id, flow_name: flow.flow_name, deleted: true });
        else console.log(`Flow ${flow.flow_id} "${flow.flow_name}" deleted.`);
      },
    )
    .command(
      'duplicate <id>',
      'Copy a flow: steps, handler settings and schedule (not its webhook secrets)',
      (c) => c.positional('id', { type: 'number', demandOption: true }).options(jsonOption),
      async (argv) => {
        const id = flowIdOf(argv.id);
        const copy = await withApi(
          argv,
          async (api) => (await api.call<{ flow_data: FlowView }>('POST', `/flows/${id}/duplicate`)).flow_data,
        );
        if (!argv.json) console.log(`Flow ${id} copied as flow ${copy.flow_id} "${copy.flow_name}".`);
        printFlow(copy, argv.json);
      },
    )
    .command(
      'problems',
      'Flows whose consecutive failures or empty runs reach the threshold (setting problem_flow_threshold), with a step that needs settings, or naming a handler, step type or interval no loaded plugin provides',
      (c) => c.option('threshold', { type: 'number', describe: 'Instead of the problem_flow_threshold setting' }).options(jsonOption),
      async (argv) => {
        const data = await withApi(
          argv,
          async (api) =>
            (
              await api.call<{ data: { problem_flows: ProblemFlow[]; total: number; threshold: number } }>('GET', '/flows/problems', {
                query: { threshold: argv.threshold },
              })
            ).data,
        );
        if (argv.json) {
          printJson(data);
          return;
        }
        console.log(
          `Flows with ${data.threshold} or more consecutive failures or empty runs, a step that needs settings, or a plugin missing:`,
        );
        printRows(
          data.problem_flows.map((f) => ({
            id: f.flow_id,
            name: f.flow_name,
            failures: f.consecutive_failures,
            empty_runs: f.consecutive_no_items,
            needs: (f.needs_configuration ?? []).map((s) => `${s.handler_slug}: ${s.missing_settings.join(', ')}`).join('; ') || '-',
            orphaned: (f.orphaned ?? []).map((o) => o.reason).join('; ') || '-',
          })),
        );
      },
    );
}
