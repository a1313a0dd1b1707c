import type { Argv } from 'yargs';
import type { CliNounDefinition } from '../../core/kernel/cli.js';
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { CliNounManifest } from '../../core/kernel/plugin-manifest.js';
import type { PluginEntry } from '../plugin-resolver.js';
import { withApi, type CliNoun } from './cli-runtime.js';
import { BUILT_IN_NOUNS } from './nouns/catalogue.js';
import { printJson } from './output.js';
import { confirm, yesOption } from './confirm.js';

/** Every CLI noun the build's plugins declare; one that shadows another is refused, naming both. */
export function pluginNouns(plugins: ReadonlyArray<PluginDefinition>): CliNoun[] {
  // Definitions carry their commands: nothing to load.
  return declaredNouns(plugins).map(({ noun, owner }) => ('load' in noun ? listedNoun(noun, owner) : pluginNoun(noun, owner)));
}

/**
 * The same for a build given as definitions or manifests (the CLI's case). A manifest's
 * noun is listed from the manifest alone; its command module is imported only when `args`
 * holds the noun's name, i.e. when this command may run it. So `flowhost --help` and the
 * built-in nouns import no plugin code.
 */
export async function loadPluginNouns(entries: ReadonlyArray<PluginEntry>, args: readonly string[]): Promise<CliNoun[]> {
  const wanted = new Set(args);
  return Promise.all(
    declaredNouns(entries).map(async ({ noun, owner }) => {
      if (!('load' in noun)) return pluginNoun(noun, owner);
      if (!wanted.has(noun.noun)) return listedNoun(noun, owner);
      const loaded = await noun.load();
      if (loaded?.noun !== noun.noun)
        throw new Error(`Plugin '${owner}': the manifest's CLI noun '${noun.noun}' loaded noun '${String(loaded?.noun)}'`);
      return pluginNoun(loaded, owner);
    }),
  );
}

/** Each plugin's nouns (a manifest's win over its definition's), checked for shadowing. */
function declaredNouns(entries: ReadonlyArray<PluginEntry>): Array<{ noun: CliNounDefinition | CliNounManifest; owner: string }> {
  const seen = new Map<string, string>(BUILT_IN_NOUNS.map((n) => [n, 'the built-in CLI']));
  const out: Array<{ noun: CliNounDefinition | CliNounManifest; owner: string }> = [];
  for (const plugin of entries) {
    for (const noun of plugin.cli ?? []) {
      const taken = seen.get(noun.noun);
      if (taken)
        throw new Error(
          `Plugin '${plugin.id}': CLI noun '${noun.noun}' is already ${taken === 'the built-in CLI' ? 'built in' : `declared by plugin '${taken}'`}`,
        );
      seen.set(noun.noun, plugin.id);
      out.push({ noun, owner: plugin.id });
    }
  }
  return out;
}

/** A manifest noun this command does not run: in `--help` and the usage message, never built. */
function listedNoun(noun: CliNounManifest, owner: string): CliNoun {
  return {
    noun: noun.noun,
    command: `${noun.noun} <command>`,
    describe: `${noun.describe} (plugin ${owner})`,
    builder: () => {
      // Unreachable: yargs builds only the noun the arguments name, and that one was loaded.
      throw new Error(`Plugin '${owner}': CLI noun '${noun.noun}' was not loaded`);
    },
  };
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
            if (command.destructive) c.options(yesOption);
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
                  confirm: (action) => confirm(args, action),
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
