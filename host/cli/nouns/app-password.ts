import type { Argv } from 'yargs';
import { jsonOption, withAdmin, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { confirm, yesOption } from '../confirm.js';
import { nounHeader } from './catalogue.js';

/** `flowhost app-password ...`: a user's API credentials, through the admin client (as user.ts). */
export const appPassword: CliNoun = {
  ...nounHeader('app-password'),
  builder: (y: Argv) =>
    y
      .command(
        'create <login>',
        'Create an application password; prints it once, and the same as a bearer token',
        (c) =>
          c
            .positional('login', { type: 'string', demandOption: true })
            .option('name', { type: 'string', default: 'cli', describe: 'A name to recognise it by' })
            .options(jsonOption),
        async (argv) => {
          const created = await withAdmin(argv, async (a) => a.createAppPassword((await a.findUser(argv.login!)).user_id, argv.name));
          if (argv.json) printJson(created);
          else {
            console.log(`Application password '${created.name}' (${created.uuid}) for '${argv.login}' (shown once): ${created.password}`);
            console.log(`The same as a bearer token, used without the login (shown once): ${created.token}`);
          }
        },
      )
      .command(
        'list <login>',
        "List a user's application passwords",
        (c) => c.positional('login', { type: 'string', demandOption: true }).options(jsonOption),
        async (argv) => {
          const list = await withAdmin(argv, async (a) => a.listAppPasswords((await a.findUser(argv.login!)).user_id));
          if (argv.json) printJson(list);
          else
            printRows(
              list.map((p) => ({
                uuid: p.uuid,
                name: p.name,
                bearer: p.bearer ? 'yes' : 'no',
                created: p.created_at,
                last_used: p.last_used_at ?? 'never',
              })),
            );
        },
      )
      .command(
        'revoke <login> <uuid>',
        'Revoke an application password (asks first; --yes to skip)',
        (c) =>
          c
            .positional('login', { type: 'string', demandOption: true })
            .positional('uuid', { type: 'string', demandOption: true })
            .options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          await withAdmin(argv, async (a) => {
            const user = await a.findUser(argv.login!);
            await confirm(argv, `Revoke application password ${argv.uuid} of '${user.login}'`);
            await a.revokeAppPassword(user.user_id, argv.uuid!);
          });
          if (argv.json) printJson({ revoked: true, uuid: argv.uuid });
          else console.log(`Revoked application password ${argv.uuid}.`);
        },
      )
      .demandCommand(1, 'Name a verb: create, list or revoke')
      .strict(),
};
