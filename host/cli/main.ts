#!/usr/bin/env node
import 'reflect-metadata';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../config/load-config.js';
import type { HostConfig } from '../config/schema.js';
import { ROLES } from '../../core/users/roles.js';
import { CliError, type AdminClient } from './admin-client.js';
import { openAdmin } from './open-admin.js';
import { printRows, printJson } from './output.js';
import { buildDefaultHost } from '../default-build.js';

interface Common {
  json?: boolean;
  'data-dir'?: string;
}

function configFrom(argv: Common & { port?: number; host?: string }): HostConfig {
  return loadConfig({
    overrides: {
      ...(argv['data-dir'] ? { dataDir: argv['data-dir'] } : {}),
      ...(argv.port !== undefined ? { port: argv.port } : {}),
      ...(argv.host ? { host: argv.host } : {}),
    },
  });
}

/** Runs an admin action and always closes what it opened. */
async function withAdmin<T>(argv: Common, fn: (admin: AdminClient) => Promise<T>): Promise<T> {
  const admin = await openAdmin(configFrom(argv));
  try {
    return await fn(admin);
  } finally {
    await admin.close();
  }
}

function readPassword(argv: { password?: string; 'password-stdin'?: boolean }): string {
  if (argv.password !== undefined) return argv.password;
  if (argv['password-stdin']) return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  throw new CliError('Give the password with --password <value> or pipe it with --password-stdin');
}

const jsonOption = { json: { type: 'boolean', describe: 'Machine-readable output', default: false } } as const;

export function buildCli(args: string[]): Argv {
  return yargs(args)
    .scriptName('flowhost')
    .usage('$0 <noun> <verb> [options]')
    .option('data-dir', { type: 'string', describe: 'Data directory (default FLOWHOST_DATA_DIR or ./data)' })
    .command(
      'serve',
      'Serve the API (embedded store in the data directory unless MONGODB_URL is set)',
      (y) => y.option('port', { type: 'number', describe: 'Port (default PORT or 8080)' }).option('host', { type: 'string', describe: 'Address (default HOST or 127.0.0.1)' }),
      async (argv) => {
        const host = await buildDefaultHost(configFrom(argv));
        await host.start();
        let stopping = false;
        const stop = async (signal: string) => {
          if (stopping) return;
          stopping = true;
          host.log.info({ signal }, 'Stopping');
          await host.stop();
          process.exit(0);
        };
        process.on('SIGINT', () => void stop('SIGINT'));
        process.on('SIGTERM', () => void stop('SIGTERM'));
        await new Promise(() => undefined);
      },
    )
    .command('user <verb>', 'Manage users', (y) =>
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
            }
          },
        )
        .command('list', 'List users', (c) => c.options(jsonOption), async (argv) => {
          const users = await withAdmin(argv, (a) => a.listUsers());
          if (argv.json) printJson(users);
          else printRows(users.map((u) => ({ id: u.user_id, login: u.login, role: u.role, password: u.has_password ? 'set' : '-', created: u.created_at })));
        })
        .command('delete <login>', 'Delete a user (and their sessions and application passwords)', (c) => c.positional('login', { type: 'string', demandOption: true }).options(jsonOption), async (argv) => {
          const user = await withAdmin(argv, async (a) => {
            const found = await a.findUser(argv.login!);
            await a.deleteUser(found.user_id);
            return found;
          });
          if (argv.json) printJson({ deleted: true, user });
          else console.log(`Deleted user '${user.login}'.`);
        })
        .command(
          'set-password <login>',
          'Set the login password used for cookie sessions',
          (c) =>
            c
              .positional('login', { type: 'string', demandOption: true })
              .option('password', { type: 'string', describe: 'The new password (visible in shell history; prefer --password-stdin)' })
              .option('password-stdin', { type: 'boolean', describe: 'Read the password from standard input' })
              .options(jsonOption),
          async (argv) => {
            const password = readPassword(argv);
            await withAdmin(argv, async (a) => a.setPassword((await a.findUser(argv.login!)).user_id, password));
            if (argv.json) printJson({ updated: true, login: argv.login });
            else console.log(`Password set for '${argv.login}'.`);
          },
        )
        .demandCommand(1, 'Name a verb: create, list, delete or set-password')
        .strict(),
    )
    .command('app-password <verb>', 'Manage application passwords', (y) =>
      y
        .command(
          'create <login>',
          'Create an application password; prints it once',
          (c) => c.positional('login', { type: 'string', demandOption: true }).option('name', { type: 'string', default: 'cli', describe: 'A name to recognise it by' }).options(jsonOption),
          async (argv) => {
            const created = await withAdmin(argv, async (a) => a.createAppPassword((await a.findUser(argv.login!)).user_id, argv.name));
            if (argv.json) printJson(created);
            else console.log(`Application password '${created.name}' (${created.uuid}) for '${argv.login}' (shown once): ${created.password}`);
          },
        )
        .command('list <login>', "List a user's application passwords", (c) => c.positional('login', { type: 'string', demandOption: true }).options(jsonOption), async (argv) => {
          const list = await withAdmin(argv, async (a) => a.listAppPasswords((await a.findUser(argv.login!)).user_id));
          if (argv.json) printJson(list);
          else printRows(list.map((p) => ({ uuid: p.uuid, name: p.name, created: p.created_at, last_used: p.last_used_at ?? 'never' })));
        })
        .command(
          'revoke <login> <uuid>',
          'Revoke an application password',
          (c) => c.positional('login', { type: 'string', demandOption: true }).positional('uuid', { type: 'string', demandOption: true }).options(jsonOption),
          async (argv) => {
            await withAdmin(argv, async (a) => a.revokeAppPassword((await a.findUser(argv.login!)).user_id, argv.uuid!));
            if (argv.json) printJson({ revoked: true, uuid: argv.uuid });
            else console.log(`Revoked application password ${argv.uuid}.`);
          },
        )
        .demandCommand(1, 'Name a verb: create, list or revoke')
        .strict(),
    )
    .command('plugins <verb>', 'Inspect plugins', (y) =>
      y
        .command('list', 'Plugins of this build: id, version and the hooks each tapped', (c) => c.options(jsonOption), async (argv) => {
          // Wiring needs no server or data: load the build on a throwaway in-memory store.
          const config = { ...configFrom(argv), dataDir: ':memory:', logLevel: 'silent' as const };
          const host = await buildDefaultHost(config);
          const rows = host.plugins.map((p) => ({ id: p.id, version: p.version, hooks: p.hooks.join(', ') }));
          await host.stop();
          if (argv.json) printJson(host.plugins);
          else printRows(rows);
        })
        .demandCommand(1, 'Name a verb: list')
        .strict(),
    )
    .demandCommand(1, 'Name a command: serve, user, app-password or plugins')
    .strict()
    .help()
    .fail((message, error) => {
      if (error) throw error;
      process.stderr.write(`flowhost: ${message}\nRun 'flowhost --help' for usage.\n`);
      process.exit(2);
    });
}

async function main(): Promise<void> {
  try {
    await buildCli(hideBin(process.argv)).parseAsync();
    // A finished command exits now: the scheduler may hold timers (serve never gets here).
    process.exit(process.exitCode ?? 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`flowhost: ${message}\n`);
    process.exit(1);
  }
}

void main();
