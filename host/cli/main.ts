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
import { openApiSession, type ApiSession } from './api-session.js';
import { BUILT_IN_NOUNS, pluginNouns, registerPluginNouns, type PluginNoun } from './plugin-nouns.js';
import { resolvePlugins } from '../plugin-resolver.js';
import { defaultPlugins, optionalPlugins } from '../../plugins/index.js';

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

/** Runs a command against the core API (the running host, or this process's own). */
async function withApi<T>(argv: Common, fn: (api: ApiSession) => Promise<T>): Promise<T> {
  const api = await openApiSession({ ...configFrom(argv), logLevel: 'warn' });
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readPassword(argv: { password?: string; 'password-stdin'?: boolean }): string {
  if (argv.password !== undefined) return argv.password;
  if (argv['password-stdin']) return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  throw new CliError('Give the password with --password <value> or pipe it with --password-stdin');
}

const jsonOption = { json: { type: 'boolean', describe: 'Machine-readable output', default: false } } as const;

export function buildCli(args: string[], nouns: readonly PluginNoun[] = []): Argv {
  const cli = yargs(args)
    .scriptName('flowhost')
    .usage('$0 <noun> <verb> [options]')
    .option('data-dir', { type: 'string', describe: 'Data directory (default FLOWHOST_DATA_DIR or ./data)' })
    .command(
      'serve',
      'Serve the API (embedded store in the data directory unless MONGODB_URL is set)',
      (y) => y.option('port', { type: 'number', describe: 'Port (default PORT or 8080)' }).option('host', { type: 'string', describe: 'Address (default HOST or 127.0.0.1)' }),
      async (argv) => {
        const host = await buildDefaultHost(configFrom(argv));
        try {
          await host.start();
        } catch (error) {
          await host.stop().catch(() => undefined);
          throw error;
        }
        // No request can get here (the HTTP layer answers every one); should anything else
        // throw outside a handler, a half-alive process is worse than a restart: log, exit 1.
        const fatal = (kind: string) => (error: unknown) => {
          host.log.error({ err: error }, `${kind}: the process exits so a supervisor can restart it`);
          process.exitCode = 1;
          setTimeout(() => process.exit(1), 100).unref();
        };
        process.on('uncaughtException', fatal('uncaughtException'));
        process.on('unhandledRejection', fatal('unhandledRejection'));
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
    .command('flows <verb>', 'List and run flows', (y) =>
      y
        .command('list', 'Flows with their schedule and last run', (c) => c.option('pipeline', { type: 'number', describe: 'Only this pipeline' }).options(jsonOption), async (argv) => {
          const body = await withApi(argv, (api) => api.call<{ data: { flows: Array<Record<string, unknown>> } }>('GET', '/flows', { query: { pipeline_id: argv.pipeline, per_page: 100, output_mode: 'full' } }));
          const flows = body.data.flows;
          if (argv.json) printJson(flows);
          else printRows(flows.map((f) => ({ id: f.flow_id, name: f.flow_name, pipeline: f.pipeline_id, schedule: (f.scheduling_config as { interval: string }).interval, last_run: f.last_run_display, status: f.last_run_status ?? '-', next_run: f.next_run_display })));
        })
        .command(
          'run <id>',
          'Run a flow now and wait for its job to end',
          (c) => c.positional('id', { type: 'number', demandOption: true }).option('wait', { type: 'boolean', default: true, describe: 'Wait for the job (use --no-wait to only start it)' }).options(jsonOption),
          async (argv) => {
            const result = await withApi(argv, async (api) => {
              const started = await api.call<{ data: { job_id: number; flow_name: string } }>('POST', '/execute', { body: { flow_id: argv.id } });
              const jobId = started.data.job_id;
              if (!argv.json) process.stderr.write(`Started flow "${started.data.flow_name}" as job ${jobId}${argv.wait ? '; waiting' : ''}\n`);
              if (!argv.wait) return { job_id: jobId, status: 'pending' } as Record<string, unknown>;
              for (let i = 0; ; i++) {
                const job = (await api.call<{ data: Record<string, unknown> }>('GET', `/jobs/${jobId}`)).data;
                if (!['pending', 'processing'].includes(String(job.status))) return job;
                if (!argv.json && i % 10 === 9) process.stderr.write(`  job ${jobId}: ${String(job.status)}...\n`);
                await sleep(200);
              }
            });
            if (argv.json) printJson(result);
            else console.log(`Job ${String(result.job_id)}: ${String(result.status)}${result.error ? ` (${String(result.error)})` : ''}`);
            if (result.status === 'failed') process.exitCode = 1;
          },
        )
        .demandCommand(1, 'Name a verb: list or run')
        .strict(),
    )
    .command('jobs <verb>', 'Inspect jobs', (y) =>
      y
        .command(
          'list',
          'Jobs, newest first',
          (c) => c.option('flow', { type: 'number', describe: 'Only this flow' }).option('status', { type: 'string', describe: 'Only this status' }).option('limit', { type: 'number', default: 20 }).options(jsonOption),
          async (argv) => {
            const body = await withApi(argv, (api) => api.call<{ data: Array<Record<string, unknown>>; total: number }>('GET', '/jobs', { query: { flow_id: argv.flow, status: argv.status, per_page: argv.limit } }));
            if (argv.json) printJson(body.data);
            else printRows(body.data.map((j) => ({ id: j.job_id, flow: j.flow_name ?? '-', status: j.status, created: j.created_at_display, completed: j.completed_at_display ?? '-', error: j.error ?? '' })));
          },
        )
        .demandCommand(1, 'Name a verb: list')
        .strict(),
    )
    .command('logs <verb>', 'Read the log', (y) =>
      y
        .command(
          'tail',
          'The newest log entries; --follow keeps printing new ones',
          (c) =>
            c
              .option('level', { choices: ['debug', 'info', 'warning', 'error', 'critical'] as const, describe: 'Only this level' })
              .option('lines', { type: 'number', default: 20, describe: 'How many entries to show first' })
              .option('follow', { type: 'boolean', default: false, describe: 'Keep printing new entries (Ctrl-C to stop)' })
              .options(jsonOption),
          async (argv) => {
            await withApi(argv, async (api) => {
              type Entry = { id: number; level: string; message: string; created_at: string; context: Record<string, unknown> };
              const page = async (perPage: number) => (await api.call<{ items: Entry[] }>('GET', '/logs', { query: { level: argv.level, per_page: perPage, page: 1 } })).items;
              const print = (entries: Entry[]) => {
                for (const e of [...entries].reverse()) {
                  if (argv.json) process.stdout.write(`${JSON.stringify(e)}\n`);
                  else process.stdout.write(`${e.created_at}  ${e.level.padEnd(8)} ${e.message}${Object.keys(e.context ?? {}).length ? `  ${JSON.stringify(e.context)}` : ''}\n`);
                }
              };
              let entries = await page(Math.max(1, Math.min(500, argv.lines)));
              print(entries);
              let lastId = entries[0]?.id ?? 0;
              while (argv.follow) {
                await sleep(1000);
                entries = (await page(100)).filter((e) => e.id > lastId);
                print(entries);
                if (entries[0]) lastId = entries[0].id;
              }
            });
          },
        )
        .demandCommand(1, 'Name a verb: tail')
        .strict(),
    )
    .command('webhook <verb>', "Manage a flow's webhook trigger", (y) => {
      const flowArg = (c: Argv) => c.positional('flow_id', { type: 'number', demandOption: true, describe: 'The flow' });
      const readJsonFile = (file: string | undefined, what: string): Record<string, unknown> | undefined => {
        if (!file) return undefined;
        try {
          return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        } catch (error) {
          throw new CliError(`The ${what} file ${file} could not be read as JSON: ${(error as Error).message}`);
        }
      };
      const show = (argv: { json?: boolean }, data: unknown, text: string) => (argv.json ? printJson(data) : console.log(text));
      // The server's advice (e.g. a short secret) goes to stderr, so --json output stays clean.
      const warn = (res: { warnings?: string[] }) => {
        for (const warning of res.warnings ?? []) process.stderr.write(`flowhost: warning: ${warning}\n`);
      };
      return y
        .command(
          'enable <flow_id>',
          'Enable the trigger; prints the token or secret once',
          (c) =>
            flowArg(c)
              .option('mode', { type: 'string', demandOption: true, describe: "bearer, hmac, or a verifier plugin's mode (e.g. twilio)" })
              .option('preset', { type: 'string', describe: 'A preset name (see `webhook presets`)' })
              .option('template', { type: 'string', describe: 'A JSON file with an HMAC template' })
              .option('overrides', { type: 'string', describe: 'A JSON file deep-merged over the template' })
              .option('secret', { type: 'string', describe: 'Use this secret (else one is generated)' })
              .option('generate-secret', { type: 'boolean', describe: 'Generate the secret (the default)' })
              .option('dedupe-window', { type: 'number', describe: 'Answer repeats of an event id within this many seconds with the original job (needs an id_source)' })
              .options(jsonOption),
          async (argv) => {
            if (argv.mode === 'hmac' && !argv.preset && !argv.template) throw new CliError('hmac mode needs --preset NAME or --template FILE');
            const body = { mode: argv.mode, preset: argv.preset, template: readJsonFile(argv.template, 'template'), overrides: readJsonFile(argv.overrides, 'overrides'), secret: argv.secret, dedupe_window_seconds: argv.dedupeWindow };
            const res = await withApi(argv, (api) => api.call<{ data: Record<string, unknown>; warnings?: string[] }>('PUT', `/flows/${argv.flow_id}/webhook`, { body }));
            warn(res);
            const secret = res.data.secret as { id: string; value: string } | undefined;
            show(argv, res.data, res.data.token ? `Bearer token (shown once): ${String(res.data.token)}` : `Secret ${secret?.id} (shown once): ${secret?.value}`);
          },
        )
        .command('disable <flow_id>', 'Disable the trigger (token and secrets are forgotten)', (c) => flowArg(c).options(jsonOption), async (argv) => {
          await withApi(argv, (api) => api.call('DELETE', `/flows/${argv.flow_id}/webhook`));
          show(argv, { disabled: true }, `Webhook trigger of flow ${argv.flow_id} disabled.`);
        })
        .command('regenerate <flow_id>', 'A new bearer token (the old one stops at once)', (c) => flowArg(c).options(jsonOption), async (argv) => {
          const res = await withApi(argv, (api) => api.call<{ data: { token: string } }>('POST', `/flows/${argv.flow_id}/webhook/regenerate`));
          show(argv, res.data, `New bearer token (shown once): ${res.data.token}`);
        })
        .command('set-secret <flow_id>', 'Replace every secret with one', (c) => flowArg(c).option('secret', { type: 'string' }).options(jsonOption), async (argv) => {
          const res = await withApi(argv, (api) => api.call<{ data: { secret: { id: string; value: string } }; warnings?: string[] }>('PUT', `/flows/${argv.flow_id}/webhook/secrets`, { body: { secret: argv.secret } }));
          warn(res);
          show(argv, res.data, `Secret ${res.data.secret.id} (shown once): ${res.data.secret.value}`);
        })
        .command('rotate <flow_id>', 'Add a secret; current ones stay valid for --ttl seconds (default 7 days)', (c) => flowArg(c).option('ttl', { type: 'number' }).option('secret', { type: 'string' }).options(jsonOption), async (argv) => {
          const res = await withApi(argv, (api) => api.call<{ data: { secret: { id: string; value: string } }; warnings?: string[] }>('POST', `/flows/${argv.flow_id}/webhook/secrets`, { body: { ttl_seconds: argv.ttl, secret: argv.secret } }));
          warn(res);
          show(argv, res.data, `New secret ${res.data.secret.id} (shown once): ${res.data.secret.value}`);
        })
        .command('forget <flow_id> <secret_id>', 'Forget one secret', (c) => flowArg(c).positional('secret_id', { type: 'string', demandOption: true }).options(jsonOption), async (argv) => {
          await withApi(argv, (api) => api.call('DELETE', `/flows/${argv.flow_id}/webhook/secrets/${encodeURIComponent(argv.secret_id!)}`));
          show(argv, { forgotten: argv.secret_id }, `Secret ${argv.secret_id} forgotten.`);
        })
        .command('rate-limit <flow_id>', "Set the flow's trigger rate limit", (c) => flowArg(c).option('max', { type: 'number', demandOption: true }).option('window', { type: 'number', demandOption: true, describe: 'seconds' }).options(jsonOption), async (argv) => {
          await withApi(argv, (api) => api.call('PUT', `/flows/${argv.flow_id}/webhook/rate-limit`, { body: { max: argv.max, window_seconds: argv.window } }));
          show(argv, { max: argv.max, window_seconds: argv.window }, `Rate limit: ${argv.max} per ${argv.window} s.`);
        })
        .command('dedupe <flow_id>', 'Duplicate event-id protection: repeats within --window seconds answer the original job (0 turns it off)', (c) => flowArg(c).option('window', { type: 'number', demandOption: true, describe: 'seconds; 0 = off' }).options(jsonOption), async (argv) => {
          await withApi(argv, (api) => api.call('PUT', `/flows/${argv.flow_id}/webhook/dedupe`, { body: { window_seconds: argv.window } }));
          show(argv, { dedupe_window_seconds: argv.window }, argv.window > 0 ? `Duplicate protection: event ids remembered for ${argv.window} s.` : 'Duplicate protection off.');
        })
        .command('status <flow_id>', 'Mode, preset, secret ids with expiry (never values)', (c) => flowArg(c).options(jsonOption), async (argv) => {
          const res = await withApi(argv, (api) => api.call<{ data: Record<string, unknown> }>('GET', `/flows/${argv.flow_id}/webhook`));
          const d = res.data;
          const secrets = (d.secrets as Array<{ id: string; expires_at: string | null }> | undefined) ?? [];
          const dedupe = Number(d.dedupe_window_seconds ?? 0) > 0 ? `; duplicates refused for ${String(d.dedupe_window_seconds)} s` : '';
          show(argv, d, d.enabled ? `mode ${String(d.mode)}${d.preset ? ` (preset ${String(d.preset)})` : ''}; ${secrets.length ? secrets.map((s) => `secret ${s.id}${s.expires_at ? ` until ${s.expires_at}` : ''}`).join(', ') : 'token set'}${dedupe}` : 'disabled');
        })
        .command('presets', 'Loaded webhook presets', (c) => c.options(jsonOption), async (argv) => {
          const res = await withApi(argv, (api) => api.call<{ data: Array<{ slug: string; label: string }> }>('GET', '/webhook-presets'));
          if (argv.json) printJson(res.data);
          else printRows(res.data.map((p) => ({ preset: p.slug, label: p.label })));
        })
        .demandCommand(1, 'Name a verb: enable, disable, regenerate, set-secret, rotate, forget, rate-limit, dedupe, status or presets')
        .strict();
    })
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
    );
  // Plugin nouns register the same way whatever their plugin: from its `cli` declaration.
  return registerPluginNouns(cli, nouns, (argv, fn) => withApi(argv as Common, fn))
    .demandCommand(1, `Name a command: ${[...BUILT_IN_NOUNS, ...nouns.map((n) => n.noun.noun)].join(', ')}`)
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
    // The build's plugins (default built-ins + FLOWHOST_PLUGINS) may add CLI nouns.
    const extra = await resolvePlugins(loadConfig({}).plugins, optionalPlugins);
    await buildCli(hideBin(process.argv), pluginNouns([...defaultPlugins, ...extra])).parseAsync();
    // A finished command exits now: the scheduler may hold timers (serve never gets here).
    process.exit(process.exitCode ?? 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`flowhost: ${message}\n`);
    process.exit(1);
  }
}

void main();
