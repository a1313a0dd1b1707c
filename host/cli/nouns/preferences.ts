import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import type { ApiSession } from '../api-session.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson } from '../output.js';
import { nounHeader } from './catalogue.js';

type Preference = { login: string; user_id: number; selected_pipeline_id: number | null };

async function userIdOf(api: ApiSession, login: string): Promise<number> {
  const found = (await api.call<{ data: Array<{ user_id: number }> }>('GET', '/users', { query: { login } })).data;
  if (!found[0]) throw new CliError(`No user with login '${login}'`);
  return found[0].user_id;
}

function print(pref: Preference, json: boolean | undefined): void {
  if (json) printJson(pref);
  else
    console.log(`${pref.login}: ${pref.selected_pipeline_id === null ? 'no pipeline selected' : `pipeline ${pref.selected_pipeline_id}`}`);
}

/** `flowhost preferences ...`: a user's one preference, the pipeline the admin interface opens on (GET/POST /users/{id}). */
export const preferences: CliNoun = {
  ...nounHeader('preferences'),
  builder: (y: Argv) =>
    y
      .command(
        'show <login>',
        "A user's selected pipeline",
        (c) => c.positional('login', { type: 'string', demandOption: true }).options(jsonOption),
        async (argv) => {
          const pref = await withApi(argv, async (api) => {
            const userId = await userIdOf(api, argv.login);
            const answer = await api.call<{ selected_pipeline_id: number | null }>('GET', `/users/${userId}`);
            return { login: argv.login, user_id: userId, selected_pipeline_id: answer.selected_pipeline_id };
          });
          print(pref, argv.json);
        },
      )
      .command(
        'set <login>',
        "Select a user's pipeline (--pipeline N) or clear it (--clear)",
        (c) =>
          c
            .positional('login', { type: 'string', demandOption: true })
            .option('pipeline', { type: 'number', describe: 'The pipeline id' })
            .option('clear', { type: 'boolean', default: false, describe: 'Select no pipeline' })
            .options(jsonOption),
        async (argv) => {
          if (argv.clear === (argv.pipeline !== undefined)) throw new CliError('Give either --pipeline <id> or --clear');
          const selected = argv.clear ? null : argv.pipeline!;
          const pref = await withApi(argv, async (api) => {
            const userId = await userIdOf(api, argv.login);
            const answer = await api.call<{ selected_pipeline_id: number | null }>('POST', `/users/${userId}`, {
              body: { selected_pipeline_id: selected },
            });
            return { login: argv.login, user_id: userId, selected_pipeline_id: answer.selected_pipeline_id };
          });
          print(pref, argv.json);
        },
      )
      .demandCommand(1, 'Name a verb: show or set')
      .strict(),
};
