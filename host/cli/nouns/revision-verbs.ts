import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';

interface RevisionView {
  revision: number;
  action: string;
  change: string;
  user_id: number | null;
  user_login: string | null;
  client: string;
  created_at: string;
  restored_from: number | null;
}

interface Change {
  op: string;
  path: string;
  before?: unknown;
  after?: unknown;
  secret?: boolean;
  step?: { pipeline_step_id: string; position: number; step_type: string };
}

const positiveId = (value: unknown, what: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new CliError(`'${String(value)}' is not a ${what}`);
  return n;
};

const shown = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

/** One change as a line: `/flow_name: "Old" → "New"`. */
export function changeLine(change: Change): string {
  const where = changeWhere(change);
  if (change.secret) return `${where}: secret changed (value not shown)`;
  if (change.op === 'add') return `${where}: added ${shown(change.after)}`;
  if (change.op === 'remove') return `${where}: removed (was ${shown(change.before)})`;
  return `${where}: ${shown(change.before)} → ${shown(change.after)}`;
}

/**
 * A step's change by what the user knows of the step, `step 2 fetch (2_93c2…-…)
 * /handler_config/feed_url`, rather than the snapshot's key for it; other paths as they are.
 */
function changeWhere(change: Change): string {
  if (!change.step) return change.path;
  const { position, step_type, pipeline_step_id } = change.step;
  const rest = change.path.split('/').slice(3).join('/');
  return `step ${position} ${step_type} (${pipeline_step_id})${rest ? ` /${rest}` : ''}`;
}

/**
 * `revisions`, `diff` and `restore` of a flow or a pipeline (issue 55), over
 * GET {base}/{id}/revisions, GET …/revisions/diff and POST …/revisions/{rev}/restore.
 */
export function revisionVerbs(y: Argv, kind: 'flow' | 'pipeline'): Argv {
  const base = kind === 'flow' ? '/flows' : '/pipelines';
  const idWord = `${kind} id`;
  return y
    .command(
      'revisions <id>',
      `The ${kind}'s revisions, newest first: who changed it, when, from which client`,
      (c) =>
        c
          .positional('id', { type: 'number', demandOption: true })
          .option('limit', { type: 'number', default: 20, describe: 'How many (1-100)' })
          .option('offset', { type: 'number', default: 0 })
          .options(jsonOption),
      async (argv) => {
        const id = positiveId(argv.id, idWord);
        const answer = await withApi(argv, (api) =>
          api.call<{ data: { revisions: RevisionView[]; total: number } }>('GET', `${base}/${id}/revisions`, {
            query: { per_page: argv.limit, offset: argv.offset },
          }),
        );
        if (argv.json) {
          printJson(answer.data);
          return;
        }
        console.log(`${kind === 'flow' ? 'Flow' : 'Pipeline'} ${id}: ${answer.data.total} revision(s)`);
        printRows(
          answer.data.revisions.map((r) => ({
            rev: r.revision,
            when: r.created_at,
            who: r.user_login ?? '-',
            client: r.client,
            action: r.restored_from ? `restore of ${r.restored_from}` : r.action,
            change: r.change,
          })),
        );
      },
    )
    .command(
      'diff <id> <from> <to>',
      `What changed between two revisions of the ${kind} (each path with its value before and after)`,
      (c) =>
        c
          .positional('id', { type: 'number', demandOption: true })
          .positional('from', { type: 'number', demandOption: true })
          .positional('to', { type: 'number', demandOption: true })
          .options(jsonOption),
      async (argv) => {
        const id = positiveId(argv.id, idWord);
        const from = positiveId(argv.from, 'revision');
        const to = positiveId(argv.to, 'revision');
        const answer = await withApi(argv, (api) =>
          api.call<{ data: { changes: Change[]; patch: unknown[] } }>('GET', `${base}/${id}/revisions/diff`, { query: { from, to } }),
        );
        if (argv.json) {
          printJson(answer.data);
          return;
        }
        if (answer.data.changes.length === 0) console.log(`Revisions ${from} and ${to} do not differ.`);
        for (const change of answer.data.changes) console.log(changeLine(change));
      },
    )
    .command(
      'restore <id> <revision>',
      `Restore the ${kind} to a revision (recorded as a new revision; secrets keep their current values)`,
      (c) =>
        c
          .positional('id', { type: 'number', demandOption: true })
          .positional('revision', { type: 'number', demandOption: true })
          .options(jsonOption),
      async (argv) => {
        const id = positiveId(argv.id, idWord);
        const revision = positiveId(argv.revision, 'revision');
        const answer = await withApi(argv, (api) =>
          api.call<{ message: string; data: { revision: number; restored_from: number } }>(
            'POST',
            `${base}/${id}/revisions/${revision}/restore`,
          ),
        );
        if (argv.json) printJson({ [`${kind}_id`]: id, revision: answer.data.revision, restored_from: answer.data.restored_from });
        else console.log(`${kind === 'flow' ? 'Flow' : 'Pipeline'} ${id}: ${answer.message}`);
      },
    );
}
