import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { confirm, yesOption } from '../confirm.js';
import { nounHeader } from './catalogue.js';
import { secretOption } from '../secret-input.js';

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
// A chosen secret comes from stdin (`-`) or a file (`@<file>`), never argv (ps, shell history).
const secretOpt = {
  secret: {
    type: 'string',
    nargs: 1,
    describe: '- to read the secret from standard input, @<file> from a file (never the value itself)',
  },
} as const;

/** `flowhost webhook ...`: a flow's webhook trigger (auth mode, secrets, limits), through the API. */
export const webhook: CliNoun = {
  ...nounHeader('webhook'),
  builder(y: Argv) {
    return limitCommands(secretCommands(triggerCommands(y)))
      .demandCommand(1, 'Name a verb: enable, disable, regenerate, set-secret, rotate, forget, rate-limit, dedupe, status or presets')
      .strict();
  },
};

/** Turning the trigger on and off, and a new bearer token. */
function triggerCommands(y: Argv): Argv {
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
          .option('secret', { ...secretOpt.secret, describe: `Use this secret (else one is generated): ${secretOpt.secret.describe}` })
          .option('generate-secret', { type: 'boolean', describe: 'Generate the secret (the default)' })
          .option('dedupe-window', {
            type: 'number',
            describe:
              'Answer repeats of an event id (an id_source) or of an Idempotency-Key within this many seconds with the original job',
          })
          .options(jsonOption),
      async (argv) => {
        if (argv.mode === 'hmac' && !argv.preset && !argv.template) throw new CliError('hmac mode needs --preset NAME or --template FILE');
        const secret = secretOption('secret', argv.secret);
        const body = {
          mode: argv.mode,
          preset: argv.preset,
          template: readJsonFile(argv.template, 'template'),
          overrides: readJsonFile(argv.overrides, 'overrides'),
          secret,
          dedupe_window_seconds: argv.dedupeWindow,
        };
        const res = await withApi(argv, (api) =>
          api.call<{ data: Record<string, unknown>; warnings?: string[] }>('PUT', `/flows/${argv.flow_id}/webhook`, { body }),
        );
        warn(res);
        const shown = res.data.secret as { id: string; value: string } | undefined;
        show(
          argv,
          res.data,
          res.data.token ? `Bearer token (shown once): ${String(res.data.token)}` : `Secret ${shown?.id} (shown once): ${shown?.value}`,
        );
      },
    )
    .command(
      'disable <flow_id>',
      'Disable the trigger (token and secrets are forgotten; asks first, --yes to skip)',
      (c) => flowArg(c).options({ ...yesOption, ...jsonOption }),
      async (argv) => {
        await withApi(argv, async (api) => {
          await api.call('GET', `/flows/${argv.flow_id}`);
          await confirm(argv, `Disable the webhook trigger of flow ${argv.flow_id} (its token and secrets are forgotten)`);
          await api.call('DELETE', `/flows/${argv.flow_id}/webhook`);
        });
        show(argv, { disabled: true }, `Webhook trigger of flow ${argv.flow_id} disabled.`);
      },
    )
    .command(
      'regenerate <flow_id>',
      'A new bearer token (the old one stops at once)',
      (c) => flowArg(c).options(jsonOption),
      async (argv) => {
        const res = await withApi(argv, (api) =>
          api.call<{ data: { token: string } }>('POST', `/flows/${argv.flow_id}/webhook/regenerate`),
        );
        show(argv, res.data, `New bearer token (shown once): ${res.data.token}`);
      },
    );
}

/** The HMAC secrets: replace, rotate, forget one. */
function secretCommands(y: Argv): Argv {
  return y
    .command(
      'set-secret <flow_id>',
      'Replace every secret with one (generated, or --secret - / --secret @<file>)',
      (c) => flowArg(c).options({ ...secretOpt, ...jsonOption }),
      async (argv) => {
        const secret = secretOption('secret', argv.secret);
        const res = await withApi(argv, (api) =>
          api.call<{ data: { secret: { id: string; value: string } }; warnings?: string[] }>(
            'PUT',
            `/flows/${argv.flow_id}/webhook/secrets`,
            { body: { secret } },
          ),
        );
        warn(res);
        show(argv, res.data, `Secret ${res.data.secret.id} (shown once): ${res.data.secret.value}`);
      },
    )
    .command(
      'rotate <flow_id>',
      'Add a secret; current ones stay valid for --ttl seconds (default 7 days)',
      (c) =>
        flowArg(c)
          .option('ttl', { type: 'number' })
          .options({ ...secretOpt, ...jsonOption }),
      async (argv) => {
        const secret = secretOption('secret', argv.secret);
        const res = await withApi(argv, (api) =>
          api.call<{ data: { secret: { id: string; value: string } }; warnings?: string[] }>(
            'POST',
            `/flows/${argv.flow_id}/webhook/secrets`,
            { body: { ttl_seconds: argv.ttl, secret } },
          ),
        );
        warn(res);
        show(argv, res.data, `New secret ${res.data.secret.id} (shown once): ${res.data.secret.value}`);
      },
    )
    .command(
      'forget <flow_id> <secret_id>',
      'Forget one secret',
      (c) => flowArg(c).positional('secret_id', { type: 'string', demandOption: true }).options(jsonOption),
      async (argv) => {
        await withApi(argv, (api) => api.call('DELETE', `/flows/${argv.flow_id}/webhook/secrets/${encodeURIComponent(argv.secret_id!)}`));
        show(argv, { forgotten: argv.secret_id }, `Secret ${argv.secret_id} forgotten.`);
      },
    );
}

/** Rate limit, duplicate protection, and what is set (status, presets). */
function limitCommands(y: Argv): Argv {
  return y
    .command(
      'rate-limit <flow_id>',
      "Set the flow's trigger rate limit",
      (c) =>
        flowArg(c)
          .option('max', { type: 'number', demandOption: true })
          .option('window', { type: 'number', demandOption: true, describe: 'seconds' })
          .options(jsonOption),
      async (argv) => {
        await withApi(argv, (api) =>
          api.call('PUT', `/flows/${argv.flow_id}/webhook/rate-limit`, { body: { max: argv.max, window_seconds: argv.window } }),
        );
        show(argv, { max: argv.max, window_seconds: argv.window }, `Rate limit: ${argv.max} per ${argv.window} s.`);
      },
    )
    .command(
      'dedupe <flow_id>',
      'Duplicate protection: repeats of an event id or Idempotency-Key within --window seconds answer the original job (0: event ids off)',
      (c) =>
        flowArg(c)
          .option('window', { type: 'number', demandOption: true, describe: 'seconds; 0 = event ids off, Idempotency-Keys kept a day' })
          .options(jsonOption),
      async (argv) => {
        const res = await withApi(argv, (api) =>
          api.call<{ message: string; warnings?: string[] }>('PUT', `/flows/${argv.flow_id}/webhook/dedupe`, {
            body: { window_seconds: argv.window },
          }),
        );
        warn(res);
        show(
          argv,
          { dedupe_window_seconds: argv.window },
          argv.window > 0 ? `Duplicate protection: event ids and Idempotency-Keys remembered for ${argv.window} s.` : res.message,
        );
      },
    )
    .command(
      'status <flow_id>',
      'Mode, preset, secret ids with expiry (never values)',
      (c) => flowArg(c).options(jsonOption),
      async (argv) => {
        const res = await withApi(argv, (api) => api.call<{ data: Record<string, unknown> }>('GET', `/flows/${argv.flow_id}/webhook`));
        const d = res.data;
        const secrets = (d.secrets as Array<{ id: string; expires_at: string | null }> | undefined) ?? [];
        const dedupe = Number(d.dedupe_window_seconds ?? 0) > 0 ? `; duplicates refused for ${String(d.dedupe_window_seconds)} s` : '';
        show(
          argv,
          d,
          d.enabled
            ? `mode ${String(d.mode)}${d.preset ? ` (preset ${String(d.preset)})` : ''}; ${secrets.length ? secrets.map((s) => `secret ${s.id}${s.expires_at ? ` until ${s.expires_at}` : ''}`).join(', ') : 'token set'}${dedupe}`
            : 'disabled',
        );
      },
    )
    .command(
      'presets',
      'Loaded webhook presets',
      (c) => c.options(jsonOption),
      async (argv) => {
        const res = await withApi(argv, (api) => api.call<{ data: Array<{ slug: string; label: string }> }>('GET', '/webhook-presets'));
        if (argv.json) printJson(res.data);
        else printRows(res.data.map((p) => ({ preset: p.slug, label: p.label })));
      },
    );
}
