import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { loadConfig } from '../config/load-config.js';
import type { CliNoun } from './cli-runtime.js';
import { builtInNouns } from './nouns/catalogue.js';
import { loadPluginNouns } from './plugin-nouns.js';
import { errorLine, jsonErrorLine, wantsJson } from './api-error.js';
import { findBuild } from '../build/build-declaration.js';
import { resolveBuild } from '../build/build-plugins.js';

/** The `flowhost` command line over the given nouns: the built-ins, then the build's plugin nouns. */
export function buildCli(args: string[], nouns: readonly CliNoun[]): Argv {
  let cli = yargs(args)
    .scriptName('flowhost')
    .usage('$0 <noun> <verb> [options]')
    .option('data-dir', { type: 'string', describe: 'Data directory (default FLOWHOST_DATA_DIR or ./data)' })
    .option('build', { type: 'string', describe: 'Build declaration (default FLOWHOST_BUILD or ./flowhost.build.json when present)' })
    .option('init', {
      type: 'boolean',
      describe: 'Create a new store in the data directory when it has none (otherwise only serve creates one)',
    });
  // Built-in and plugin nouns register the same way: a plugin noun is no second-class command.
  for (const noun of nouns) cli = cli.command(noun.command, noun.describe, noun.builder, noun.handler);
  return (
    cli
      // `flowhost completion >> ~/.bashrc` (or ~/.zshrc): yargs prints the script for the
      // shell in $SHELL and answers the script's --get-yargs-completions calls.
      .completion('completion', 'Print a bash or zsh completion script (flowhost completion >> ~/.bashrc)')
      .demandCommand(1, `Name a command: ${nouns.map((n) => n.noun).join(', ')}, completion`)
      .strict()
      .help()
      .fail((message, error) => {
        if (error) throw error;
        if (wantsJson(args)) process.stderr.write(jsonErrorLine(message, 'usage'));
        else process.stderr.write(`flowhost: ${message}\nRun 'flowhost --help' for usage.\n`);
        process.exit(2);
      })
  );
}

/**
 * The nouns of a command line: the built-ins (those of plugins the build loads) and the
 * build's plugin nouns (default built-ins + FLOWHOST_PLUGINS). Both are read from catalogues and manifests: only the noun the
 * arguments name imports its code.
 */
export async function nounsFor(args: string[]): Promise<CliNoun[]> {
  const build = await resolveBuild(loadConfig({}), findBuild(buildFileIn(args)));
  const [builtIn, fromPlugins] = await Promise.all([
    builtInNouns(args, new Set(build.entries.map((e) => e.id))),
    loadPluginNouns(build.entries, args),
  ]);
  return [...builtIn, ...fromPlugins];
}

/** `--build <file>` or `--build=<file>` before yargs parses: the build decides which nouns exist. */
function buildFileIn(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--build') return args[i + 1];
    if (arg.startsWith('--build=')) return arg.slice('--build='.length);
  }
  return undefined;
}

/** Runs `flowhost` with the process's arguments and exits with its status. */
export async function main(): Promise<void> {
  const args = hideBin(process.argv);
  try {
    await buildCli(args, await nounsFor(args)).parseAsync();
    // A finished command exits now: the scheduler may hold timers (serve never gets here).
    process.exit(process.exitCode ?? 0);
  } catch (error) {
    process.stderr.write(errorLine(error, wantsJson(args)));
    process.exit(1);
  }
}
