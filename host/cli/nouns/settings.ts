import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { yesOption } from '../confirm.js';
import { printJson, printRows } from '../output.js';
import { handlerDefaults } from './handler-defaults.js';
import { nounHeader } from './catalogue.js';

type SettingsData = { settings: Record<string, unknown>; defaults: Record<string, unknown> };

/** key=value; the value parses as JSON when it can (5, true), else it is the text itself. */
export function parsePair(raw: string): [string, unknown] {
  const at = raw.indexOf('=');
  if (at < 1) throw new CliError(`'${raw}' is not <key>=<value>`);
  const text = raw.slice(at + 1);
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // plain text
  }
  return [raw.slice(0, at).trim(), value];
}

function printSettings(data: SettingsData): void {
  const show = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? ''));
  printRows(
    Object.entries(data.settings).map(([key, value]) => ({
      key,
      value: show(value),
      default: key in data.defaults ? show(data.defaults[key]) : '',
    })),
  );
}

/** `flowhost settings ...`: the site settings (GET/PATCH /settings), the scheduling intervals and handler defaults. */
export const settings: CliNoun = {
  ...nounHeader('settings'),
  builder: (y: Argv) =>
    y
      .command(
        'show',
        'Every site setting with its default (AI provider keys masked)',
        (c) => c.options(jsonOption),
        async (argv) => {
          const data = await withApi(argv, async (api) => (await api.call<{ data: SettingsData }>('GET', '/settings')).data);
          if (argv.json) printJson(data);
          else printSettings(data);
        },
      )
      .command(
        'set <pairs..>',
        'Change settings: key=value ... (e.g. problem_flow_threshold=5 default_model=gpt-4o-mini)',
        (c) => c.positional('pairs', { type: 'string', array: true, demandOption: true }).options(jsonOption),
        async (argv) => {
          const changes = Object.fromEntries(argv.pairs.map(parsePair));
          // Keys go through `providers set-key`, which reads them from stdin: a key typed
          // here would stay in the shell history.
          if ('ai_provider_keys' in changes)
            throw new CliError('Set AI provider keys with `flowhost providers set-key <provider> < key.txt`, not on the command line');
          const data = await withApi(argv, async (api) => {
            const known = Object.keys((await api.call<{ data: SettingsData }>('GET', '/settings')).data.settings).filter(
              (k) => k !== 'ai_provider_keys',
            );
            const unknown = Object.keys(changes).filter((k) => !known.includes(k));
            if (unknown.length) throw new CliError(`No setting '${unknown[0]}' (settings: ${known.join(', ')})`);
            return (await api.call<{ data: SettingsData }>('PATCH', '/settings', { body: changes })).data;
          });
          if (argv.json) {
            printJson(data);
            return;
          }
          console.log('Settings saved.');
          printSettings(data);
        },
      )
      .command(
        'intervals',
        'The scheduling intervals (the names flows create --schedule takes)',
        (c) => c.options(jsonOption),
        async (argv) => {
          const list = await withApi(
            argv,
            async (api) =>
              (
                await api.call<{ data: Array<{ value: string; label: string; seconds: number | null }> }>(
                  'GET',
                  '/settings/scheduling-intervals',
                )
              ).data,
          );
          if (argv.json) printJson(list);
          else printRows(list.map((i) => ({ interval: i.value, label: i.label, seconds: i.seconds ?? '-' })));
        },
      )
      .command(
        'handler-defaults [handler]',
        "The settings new flow steps of a handler start from: all, one handler's, or change them (--set, --replace, --delete)",
        (c) =>
          c
            .positional('handler', { type: 'string', describe: 'A handler slug (flowhost handlers list)' })
            // Repeatable (yargs collects repeats); not `array`, which would swallow the handler after it.
            .option('set', {
              type: 'string',
              describe:
                '<key>=<value>: a default (JSON values parse: 5, true; dotted keys nest; null removes the key); secrets go with --set-secret',
            })
            .option('set-secret', {
              type: 'string',
              describe: '<key>: a secret default read from standard input, or <key>=@<file> from a file (never the command line)',
            })
            .option('replace', {
              type: 'boolean',
              default: false,
              describe: 'With --set: the defaults become exactly these (others are removed)',
            })
            .option('delete', { type: 'boolean', default: false, describe: "Remove the handler's defaults (asks first; --yes to skip)" })
            .options({ ...yesOption, ...jsonOption }),
        (argv) => handlerDefaults(argv),
      )
      .demandCommand(1, 'Name a verb: show, set, intervals or handler-defaults')
      .strict(),
};
