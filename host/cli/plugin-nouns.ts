import type { Argv } from 'yargs';
import type { CliNounDefinition } from '../../core/kernel/cli.js';
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import { withApi, type CliNoun } from './cli-runtime.js';
import { builtInNouns } from './nouns/index.js';
import { printJson } from './output.js';

/** Taken from the built-in nouns themselves, so a new built-in is protected from shadowing at once. */
export const BUILT_IN_NOUNS: readonly string[] = builtInNouns.map((n) => n.noun);

/** Every CLI noun the build's plugins declare; one that shadows another is refused, naming both. */
export function pluginNouns(plugins: ReadonlyArray<PluginDefinition>): CliNoun[] {
  const seen = new Map<string, string>(BUILT_IN_NOUNS.map((n) => [n, 'the built-in CLI']));
  const out: CliNoun[] = [];
  for (const plugin of plugins) {
    for (const noun of plugin.cli ?? []) {
      const taken = seen.get(noun.noun);
      if (taken) throw new Error(`Plugin '${plugin.id}': CLI noun '${noun.noun}' is already ${taken === 'the built-in CLI' ? 'built in' : `declared by plugin '${taken}'`}`);
      seen.set(noun.noun, plugin.id);
      out.push(pluginNoun(noun, plugin.id));
    }
  }
  return out;
}

/**
 * A plugin's declared noun as a CLI noun: each command with `--json` and the options it
 * declares; `run` gets the API of the running host (or of one started for the command).
 * Plugins declare data, not yargs code, so the SDK does not tie them to yargs.
 */
function pluginNoun(noun: CliNounDefinition, owner: string): CliNoun {
  return {
    noun: noun.noun,
    command: `${noun.noun} <command>`,
    describe: `${noun.describe} (plugin ${owner})`,
    builder: (sub: Argv) => {
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
                  upload: (path, file, options) => api.upload(path, file, options),
                  print: (data, text) => (json ? printJson(data) : console.log(text)),
                }),
              ),
            );
          },
        );
      }
      return sub.demandCommand(1, `Name a command: ${noun.commands.map((c) => c.command.split(' ')[0]).join(', ')}`).strict();
    },
  };
}
