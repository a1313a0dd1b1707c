import type { ArgumentsCamelCase, Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { refuseSecretOnArgv, secretSettings } from '../secret-input.js';
import { parsePair } from './settings.js';

interface PluginSettingsData {
  plugin: string;
  values: Record<string, unknown>;
  secrets: Record<string, { set: boolean }>;
  stored: string[];
  live: boolean;
  restart_required: boolean;
}

const asList = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

export const pluginSettingsOptions = (c: Argv) =>
  c
    .positional('id', { type: 'string', describe: 'A plugin id (without one: the plugins that have settings)' })
    // Repeatable (yargs collects repeats); not `array`, which would swallow what follows.
    .option('set', { type: 'string', describe: '<key>=<value> (JSON values parse: 5, true); a writeOnly setting goes with --set-secret' })
    .option('set-secret', {
      alias: 'secret',
      type: 'string',
      describe: '<key>: a writeOnly setting read from standard input, or <key>=@<file> from a file (never the command line)',
    })
    .option('clear', { type: 'string', describe: '<key>: back to its file/env value or default (a secret is removed)' })
    .options(jsonOption);

function printPluginSettings(data: PluginSettingsData): void {
  const show = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? ''));
  const stored = new Set(data.stored);
  printRows([
    ...Object.entries(data.values).map(([key, value]) => ({
      key,
      value: show(value),
      source: stored.has(key) ? 'stored' : 'file/default',
    })),
    ...Object.entries(data.secrets).map(([key, s]) => ({
      key,
      value: s.set ? '(set, hidden)' : '(not set)',
      source: stored.has(key) ? 'stored' : 'file',
    })),
  ]);
  if (data.restart_required) process.stdout.write(`Saved settings of ${data.plugin} take effect when the host restarts.\n`);
}

/** `flowhost plugins settings <id>`: show a plugin's settings, or change some (GET/PATCH /plugins/{id}/settings). */
export async function pluginSettingsCommand(
  argv: ArgumentsCamelCase<{ id?: string; set?: unknown; 'set-secret'?: unknown; clear?: unknown; json?: boolean }>,
) {
  if (argv.id === undefined) return listPluginSettings(argv);
  const id = String(argv.id);
  const path = `/plugins/${encodeURIComponent(id)}/settings`;
  const changes: Record<string, unknown> = {};
  for (const raw of asList(argv.set)) {
    const [key, value] = parsePair(raw);
    refuseSecretOnArgv(key);
    changes[key] = value;
  }
  for (const key of asList(argv.clear)) changes[key] = null;
  for (const [key, value] of secretSettings(argv['set-secret'], `flowhost plugins settings ${id} --set-secret api_key`))
    changes[key] = value;
  const data = await withApi(argv, async (api) => {
    if (Object.keys(changes).length === 0) return (await api.call<{ data: PluginSettingsData }>('GET', path)).data;
    const current = (await api.call<{ data: PluginSettingsData }>('GET', path)).data;
    for (const raw of asList(argv.set)) {
      const key = parsePair(raw)[0];
      if (key in current.secrets)
        throw new CliError(
          `--set ${key}=…: ${key} is a writeOnly setting of ${id}; give it with --set-secret ${key} (the value on standard input)`,
        );
    }
    return (await api.call<{ data: PluginSettingsData }>('PATCH', path, { body: changes })).data;
  });
  if (argv.json) printJson(data);
  else printPluginSettings(data);
}

type Listed = { plugin: string; description: string | null; live: boolean; restart_required: boolean };

/** `flowhost plugins settings`: the plugins that declare settings (GET /plugins/settings). */
async function listPluginSettings(argv: ArgumentsCamelCase<{ json?: boolean }>) {
  const body = await withApi(argv, (api) => api.call<{ data: Listed[] }>('GET', '/plugins/settings'));
  if (argv.json) printJson(body.data);
  else if (body.data.length === 0) process.stdout.write('No plugin of this build declares settings.\n');
  else
    printRows(
      body.data.map((p) => ({
        plugin: p.plugin,
        applies: p.live ? 'live' : 'at restart',
        state: p.restart_required ? 'restart required' : 'ok',
        description: p.description ?? '',
      })),
    );
}
