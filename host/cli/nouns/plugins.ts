import type { Argv } from 'yargs';
import type { LoadedPlugin } from '../../../core/kernel/loader.js';
import { configFrom, jsonOption, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';

/** `handlers (2), surfaces (1)`: what a plugin added, by list, counted (the keys are in --json). */
export function contributionSummary(contributions: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(contributions)
    .map(([list, keys]) => `${list} (${keys.length})`)
    .join(', ');
}

/**
 * One table row per plugin: the extension points it owns, what it contributed (lists it
 * added to), apart from the hooks it tapped (events).
 */
export function pluginRows(plugins: readonly LoadedPlugin[]): Array<Record<string, string>> {
  return plugins.map((p) => ({
    id: p.id,
    version: p.version,
    owns: p.extensionPoints.join(', '),
    contributes: contributionSummary(p.contributions),
    hooks: p.hooks.join(', '),
  }));
}

/** `flowhost plugins ...`: what this build wires in, without a server or data. */
export const plugins: CliNoun = {
  ...nounHeader('plugins'),
  builder: (y: Argv) =>
    y
      .command(
        'list',
        'Plugins of this build: id, version, the extension points each owns, what each contributes and the hooks each tapped',
        (c) => c.options(jsonOption),
        async (argv) => {
          // Wiring needs no server or data: load the build on a throwaway in-memory store.
          const config = { ...configFrom(argv), dataDir: ':memory:', logLevel: 'silent' as const };
          const { buildDefaultHost } = await import('../../default-build.js');
          const host = await buildDefaultHost(config);
          await host.stop();
          if (argv.json) printJson(host.plugins);
          else printRows(pluginRows(host.plugins));
        },
      )
      .demandCommand(1, 'Name a verb: list')
      .strict(),
};
