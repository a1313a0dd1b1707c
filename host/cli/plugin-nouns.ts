import type { Argv } from 'yargs';
import type { CliNounDefinition } from '../../core/kernel/cli.js';
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { ApiSession } from './api-session.js';
import { printJson } from './output.js';

export const BUILT_IN_NOUNS = ['serve', 'user', 'app-password', 'flows', 'jobs', 'logs', 'webhook', 'plugins'] as const;

export interface PluginNoun {
  noun: CliNounDefinition;
  owner: string;
}

/** Every CLI noun the build's plugins declare; one that shadows another is refused, naming both. */
export function pluginNouns(plugins: ReadonlyArray<PluginDefinition>): PluginNoun[] {
  const seen = new Map<string, string>(BUILT_IN_NOUNS.map((n) => [n, 'the built-in CLI']));
  const out: PluginNoun[] = [];
  for (const plugin of plugins) {
    for (const noun of plugin.cli ?? []) {
      const taken = seen.get(noun.noun);
      if (taken) throw new Error(`Plugin '${plugin.id}': CLI noun '${noun.noun}' is already ${taken === 'the built-in CLI' ? 'built in' : `declared by plugin '${taken}'`}`);
      seen.set(noun.noun, plugin.id);
      out.push({ noun, owner: plugin.id });
    }
  }
  return out;
}

/**
 * Registers plugin nouns on the CLI, each command with `--json` and the options it
 * declares; `run` gets the API of the running host (or of one started for the command).
 */
export function registerPluginNouns(y: Argv, nouns: readonly PluginNoun[], withApi: <T>(argv: Record<string, unknown>, fn: (api: ApiSession) => Promise<T>) => Promise<T>): Argv {
  for (const { noun, owner } of nouns) {
    y = y.command(`${noun.noun} <command>`, `${noun.describe} (plugin ${owner})`, (sub) => {
      for (const command of noun.commands) {
        sub.command(
          command.command,
          command.describe,
          (c) => {
            for (const [name, option] of Object.entries(command.options ?? {})) c.option(name, option);
            return c.option('json', { type: 'boolean', describe: 'Machine-readable output', default: false });
          },
          async (argv) => {
            const args = argv as unknown as Record<string, unknown>;
            const json = Boolean(args.json);
            await withApi(args, (api) =>
              Promise.resolve(
                command.run(args, {
                  json,
                  call: (method, path, options) => api.callApi(method, path, options),
                  print: (data, text) => (json ? printJson(data) : console.log(text)),
                }),
              ),
            );
          },
        );
      }
      return sub.demandCommand(1, `Name a command: ${noun.commands.map((c) => c.command.split(' ')[0]).join(', ')}`).strict();
    });
  }
  return y;
}
