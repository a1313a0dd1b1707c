import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { isSecretKey } from '../../../core/security/mask.js';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';

type AuthStatus = {
  handler_slug: string;
  requires_auth: boolean;
  authenticated: boolean;
  account_details?: Record<string, unknown>;
  error?: boolean;
  error_message?: string;
  config_status: Record<string, string>;
  oauth_url?: string;
};

const slugArg = (c: Argv) =>
  c.positional('handler', { type: 'string', demandOption: true, describe: 'The handler slug (e.g. microblog, federated)' });

/** A secret --field's value: `@<file>` only (the file's text, its line end dropped). */
function secretFromFile(name: string, value: string): string {
  if (!value.startsWith('@'))
    throw new CliError(
      `--field ${name}=…: ${name} is a secret, and the command line is visible in ps and shell history; give it as --field ${name}=@<file>, or all fields as a JSON object on standard input with --stdin`,
    );
  try {
    return readFileSync(value.slice(1), 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new CliError(
      `--field ${name}: cannot read ${value.slice(1)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/**
 * --field name=value (repeatable; a secret-named field as name=@file), or --stdin: a JSON
 * object, so secrets stay out of `ps` and shell history.
 */
function credentialsOf(argv: { field?: unknown; stdin?: boolean }): Record<string, string> {
  if (argv.stdin) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(0, 'utf8'));
    } catch {
      parsed = null;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new CliError('stdin is not a JSON object of credential fields (e.g. {"handle": "...", "password": "..."})');
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  }
  const given = argv.field === undefined ? [] : Array.isArray(argv.field) ? (argv.field as unknown[]) : [argv.field];
  if (given.length === 0)
    throw new CliError('Give the credentials with --field <name>=<value> (once per field) or as a JSON object on stdin with --stdin');
  const fields: Record<string, string> = {};
  for (const raw of given.map(String)) {
    const at = raw.indexOf('=');
    if (at < 1) throw new CliError(`--field '${raw}' is not <name>=<value>`);
    const name = raw.slice(0, at).trim();
    const value = raw.slice(at + 1);
    // A secret on argv shows in ps and shell history: a file, or --stdin, instead.
    fields[name] = isSecretKey(name) ? secretFromFile(name, value) : value;
  }
  return fields;
}

function printStatus(s: AuthStatus): void {
  if (!s.requires_auth) {
    console.log(`${s.handler_slug} needs no credentials.`);
    return;
  }
  const who = s.account_details ? String(s.account_details.username ?? s.account_details.name ?? s.account_details.id ?? 'an account') : '';
  console.log(
    `${s.handler_slug}: ${s.authenticated ? `connected as ${who}` : s.error ? `error: ${s.error_message ?? 'unknown'}` : 'not connected'}`,
  );
  printRows(Object.entries(s.config_status).map(([field, status]) => ({ field, status })));
  if (!s.authenticated && s.oauth_url) console.log(`Authorize in a browser logged in as an administrator: ${s.oauth_url}`);
}

/** `flowhost auth ...`: a handler's credentials (the API's /auth/{handler} routes). */
export const auth: CliNoun = {
  ...nounHeader('auth'),
  builder: (y: Argv) =>
    y
      .command(
        'status <handler>',
        "A handler's connection: account, error, which credential fields are set",
        (c) => slugArg(c).options(jsonOption),
        async (argv) => {
          const status = await withApi(
            argv,
            async (api) => (await api.call<{ data: AuthStatus }>('GET', `/auth/${encodeURIComponent(argv.handler)}/status`)).data,
          );
          if (argv.json) printJson(status);
          else printStatus(status);
        },
      )
      .command(
        'set <handler>',
        "Save a handler's application keys or app password (--field name=value, or --stdin with a JSON object)",
        (c) =>
          slugArg(c)
            .option('field', {
              type: 'string',
              describe: '<name>=<value>, once per field (names: see auth status); a secret as <name>=@<file>, never on the command line',
            })
            .option('stdin', { type: 'boolean', default: false, describe: 'Read the fields as a JSON object from stdin' })
            .options(jsonOption),
        async (argv) => {
          const fields = credentialsOf(argv);
          const saved = await withApi(argv, (api) =>
            api.call<{ message: string; data: { config_status: Record<string, string>; changed: boolean } }>(
              'PUT',
              `/auth/${encodeURIComponent(argv.handler)}`,
              { body: fields },
            ),
          );
          if (argv.json) {
            printJson({ message: saved.message, ...saved.data });
            return;
          }
          console.log(saved.message);
          printRows(Object.entries(saved.data.config_status).map(([field, status]) => ({ field, status })));
        },
      )
      .command(
        'delete <handler>',
        "Disconnect a handler's account (its application keys stay; asks first, --yes to skip)",
        (c) => slugArg(c).options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          const message = await withApi(argv, async (api) => {
            await confirm(argv, `Disconnect the ${argv.handler} account`);
            return (await api.call<{ message: string }>('DELETE', `/auth/${encodeURIComponent(argv.handler)}`)).message;
          });
          if (argv.json) printJson({ handler_slug: argv.handler, message });
          else console.log(message);
        },
      )
      .demandCommand(1, 'Name a verb: status, set or delete')
      .strict(),
};
