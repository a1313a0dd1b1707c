import type { Argv } from 'yargs';
import { ROLES } from '../../../core/users/roles.js';
import { jsonOption, readPassword, withAdmin, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { confirm, yesOption } from '../confirm.js';
import { nounHeader } from './catalogue.js';

/** `flowhost user ...`: accounts, through the admin client (the store itself, or the host holding it). */
export const user: CliNoun = {
  ...nounHeader('user'),
  builder: (y: Argv) =>
    y
      .command(
        'create <login>',
        'Create a user; prints its new application password once',
        (c) =>
          c
            .positional('login', { type: 'string', demandOption: true })
            .option('role', { choices: [...ROLES], demandOption: true, describe: 'Role' })
            .option('grant', { type: 'array', string: true, describe: 'Extra capabilities (view_logs)' })
            .options(jsonOption),
        async (argv) => {
          const result = await withAdmin(argv, (a) =>
            a.createUser({ login: argv.login!, role: argv.role!, capabilities: argv.grant as string[] | undefined }),
          );
          if (argv.json) printJson(result);
          else {
            console.log(`Created ${result.user.role} '${result.user.login}' (id ${result.user.user_id}).`);
            console.log(`Application password (shown once): ${result.application_password.password}`);
            console.log(`The same as a bearer token (shown once): ${result.application_password.token}`);
          }
        },
      )
      .command(
        'list',
        'List users',
        (c) => c.options(jsonOption),
        async (argv) => {
          const users = await withAdmin(argv, (a) => a.listUsers());
          if (argv.json) printJson(users);
          else
            printRows(
              users.map((u) => ({
                id: u.user_id,
                login: u.login,
                role: u.role,
                password: u.has_password ? 'set' : '-',
                created: u.created_at,
              })),
            );
        },
      )
      .command(
        'delete <login>',
        'Delete a user (and their sessions and application passwords; asks first, --yes to skip)',
        (c) => c.positional('login', { type: 'string', demandOption: true }).options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          const user = await withAdmin(argv, async (a) => {
            const found = await a.findUser(argv.login!);
            await confirm(argv, `Delete user '${found.login}' with their sessions and application passwords`);
            await a.deleteUser(found.user_id);
            return found;
          });
          if (argv.json) printJson({ deleted: true, user });
          else console.log(`Deleted user '${user.login}'.`);
        },
      )
      .command(
        'set-password <login>',
        'Set the login password used for cookie sessions',
        (c) =>
          c
            .positional('login', { type: 'string', demandOption: true })
            .option('password', {
              type: 'string',
              nargs: 1,
              describe: '- to read the new password from standard input, @<file> to read it from a file (never the value itself)',
            })
            .option('password-stdin', { type: 'boolean', describe: 'Read the password from standard input (as --password -)' })
            .options(jsonOption),
        async (argv) => {
          const password = readPassword(argv);
          await withAdmin(argv, async (a) => a.setPassword((await a.findUser(argv.login!)).user_id, password));
          if (argv.json) printJson({ updated: true, login: argv.login });
          else console.log(`Password set for '${argv.login}'.`);
        },
      )
      .command(
        'end-sessions <login>',
        'End every console (cookie) session of a user; their application passwords keep working',
        (c) => c.positional('login', { type: 'string', demandOption: true }).options(jsonOption),
        async (argv) => {
          const ended = await withAdmin(argv, async (a) => a.endSessions((await a.findUser(argv.login!)).user_id));
          if (argv.json) printJson({ login: argv.login, ended });
          else console.log(`Ended ${ended} session${ended === 1 ? '' : 's'} of '${argv.login}'.`);
        },
      )
      .demandCommand(1, 'Name a verb: create, list, delete, set-password or end-sessions')
      .strict(),
};
